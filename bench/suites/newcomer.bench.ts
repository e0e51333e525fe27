/**
 * @module What a newcomer meets before any query: how long the `entistore` command takes to
 * answer, what a usage mistake prints, and what an install weighs.
 *
 * - Start: the built command's wall time (median of `reps` runs, each a fresh process) for
 *   `--version`, `--help`, a command's `--help` and a usage error, against `node -e 0` in the same
 *   run (what Node itself costs), and `serve` on the demo until its URL line.
 * - Usage errors: the mistakes a newcomer made (a typo, a bad value, a missing value, flags that
 *   do not go together), each with its exit code and the lines on stderr: the goal is two, the
 *   mistake and where the options are, not the help after them.
 * - Footprint: the four tarballs (`npm pack --workspaces`, whose prepack leaves the comments out
 *   of their JavaScript: tools/pack-dist.ts), installed into an empty project with no optional
 *   feature (what a user of the library gets), and, with `clone`, `npm ci` in a fresh clone of
 *   the repository's last commit (what a contributor gets): megabytes, packages and seconds, with
 *   the goals (≤ 10 MB; ≤ 200 MB and ≤ 25 s). Both need the npm registry.
 * - In a page: core, rest and `entistore/msw` bundled for the browser (page-bundles.ts),
 *   minified and gzipped, against the goal (≤ 250 KB gzipped).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PAGE_BUNDLES, weigh } from '../page-bundles.ts'
import { ms, table } from '../report.ts'
import { median } from '../timing.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const BIN = join(root, 'packages/entistore/bin/entistore.js')
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')

export interface NewcomerOptions {
  /** Runs of each command line (the median is reported). */
  readonly reps: number
  /** Also time `npm ci` in a fresh clone (about half a minute, and the registry). */
  readonly clone: boolean
}

export async function runNewcomerSuite(options: NewcomerOptions): Promise<void> {
  await start(options.reps)
  usageErrors()
  footprint(options.clone)
  await inAPage()
}

/** The engine in a page (issue 81): the bundles of page-bundles.ts, minified and gzipped. */
async function inAPage(): Promise<void> {
  const kb = (bytes: number): string => (bytes / 1024).toFixed(0)
  const rows: string[][] = []
  for (const bundle of PAGE_BUNDLES) {
    const size = await weigh(bundle)
    const verdict =
      bundle.goalKb === undefined
        ? ''
        : `≤ ${bundle.goalKb} KB gzipped: ${size.gzipped <= bundle.goalKb * 1024 ? 'PASS' : 'MISS'}`
    const warned = size.warnings.length === 0 ? '' : ` (${size.warnings.length} warnings)`
    rows.push([bundle.what, kb(size.minified), kb(size.gzipped), verdict + warned])
  }
  console.log('\nIn a page (esbuild, for the browser, minified; KB)')
  console.log(table(['bundle', 'minified', 'gzipped', 'goal'], rows, ['l', 'r', 'r', 'l']))
}

/** The wall time of one process from spawn to exit, in ms. */
function timed(args: readonly string[]): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' })
  if (r.error) throw r.error
  return performance.now() - t
}

/**
 * From spawn to the first line of stdout that `ready` accepts, in ms; the process is stopped then
 * (a server), or left to end (a command that exits).
 */
function untilLine(args: readonly string[], ready: (line: string) => boolean): Promise<number> {
  const t = performance.now()
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.on('error', reject)
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      if (!out.split('\n').some(ready)) return
      const elapsed = performance.now() - t
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      child.on('exit', () => resolve(elapsed))
      child.kill('SIGTERM')
    })
  })
}

const CAR_RENTAL = join(root, 'examples/car-rental')

async function start(reps: number): Promise<void> {
  const lines: [string, string[]][] = [
    ['node -e 0 (Node itself)', ['-e', '0']],
    ['entistore --version', [BIN, '--version']],
    ['entistore --help', [BIN, '--help']],
    ['entistore serve --help', [BIN, 'serve', '--help']],
    ['entistore serve --prot 8080 (a usage error)', [BIN, 'serve', '--prot', '8080']],
  ]
  timed(lines[1]![1]) // the first run reads the files from disk; the others from the page cache
  const medians = lines.map(([, args]) => median(Array.from({ length: reps }, () => timed(args))))
  const serve: number[] = []
  const test: number[] = []
  for (let i = 0; i < Math.max(3, Math.round(reps / 3)); i++) {
    serve.push(
      await untilLine([BIN, 'serve', '-m', MODEL, '-d', DATA, '-p', '0'], (l) =>
        l.includes('/rest/$catalog'),
      ),
    )
    // Issue 80: a 4D project's tests, from the command to the first test's line (goal ≤ 1 s).
    test.push(
      await untilLine(
        [BIN, 'test', '-p', CAR_RENTAL, '-d', join(CAR_RENTAL, 'csv')],
        (l) => l.startsWith('ok ') || l.startsWith('FAIL '),
      ),
    )
  }
  const node = medians[0]!
  const rows = lines.map(([label], i) => [
    label,
    ms(medians[i]!),
    i === 0 ? '' : `+${ms(medians[i]! - node)}`,
  ])
  const s = median(serve)
  rows.push(['entistore serve on the demo, until its URL line', ms(s), `+${ms(s - node)}`])
  const first = median(test)
  rows.push([
    `entistore test on car-rental, until its first result (goal ≤ 1 s: ${first <= 1000 ? 'PASS' : 'MISS'})`,
    ms(first),
    `+${ms(first - node)}`,
  ])
  console.log(`\nStart (median of ${reps} runs, a fresh process each; ms)`)
  console.log(table(['command', 'wall ms', 'beyond node'], rows, ['l', 'r', 'r']))
}

function usageErrors(): void {
  const mistakes: string[][] = [
    ['serve', '-m', 'model.json', '--workers', '2'],
    ['serve', '-m', 'model.json', '--prot', '8080'],
    ['serve', '-m', 'model.json', '-p', 'abc'],
    ['serve', '-m', 'model.json', '--fail-rate', '2'],
    ['serve', '-m', 'model.json', '--persist'],
    ['serve', '-m', 'model.json', '--watch', '--persist', 'store'],
  ]
  const rows = mistakes.map((argv) => {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: root, encoding: 'utf8' })
    const err = r.stderr.trimEnd().split('\n')
    const first = err[0]!.length > 70 ? `${err[0]!.slice(0, 69)}…` : err[0]!
    return [argv.slice(3).join(' '), String(r.status), String(err.length), first]
  })
  console.log('\nUsage errors (goal: 2 lines on stderr, the mistake and where the options are)')
  console.log(
    table(['serve -m model.json …', 'exit', 'lines', 'first line'], rows, ['l', 'r', 'r', 'l']),
  )
}

/** Bytes under `dir`, its files' sizes (what `du --apparent-size` says). */
function bytesUnder(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size
  return total
}

/** The packages in a node_modules folder (scoped ones counted one each). */
function packagesIn(modules: string): number {
  let n = 0
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue
    n += name.startsWith('@') ? readdirSync(join(modules, name)).length : 1
  }
  return n
}

function run(command: string, args: readonly string[], cwd: string): number {
  const t = performance.now()
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr}`)
  return (performance.now() - t) / 1000
}

const megabytes = (bytes: number): string => (bytes / 1e6).toFixed(1)

/** A row of the footprint's table: what a node_modules folder holds, and how long it took. */
const installed = (what: string, modules: string, seconds: number, goal: string): string[] => [
  what,
  megabytes(bytesUnder(modules)),
  megabytes(onDisk(modules)),
  String(packagesIn(modules)),
  seconds.toFixed(1),
  goal,
]

/** What the disk holds for `dir`, its blocks included (`du -sk`), in bytes. */
function onDisk(dir: string): number {
  const r = spawnSync('du', ['-sk', dir], { encoding: 'utf8' })
  return Number(r.stdout.split('\t')[0]) * 1024
}

function footprint(clone: boolean): void {
  const scratch = mkdtempSync(join(tmpdir(), 'entistore-footprint-'))
  try {
    const tarballs = join(scratch, 'tarballs')
    mkdirSync(tarballs)
    run('npm', ['pack', '--workspaces', '--pack-destination', tarballs, '--silent'], root)
    const files = readdirSync(tarballs).map((f) => join(tarballs, f))
    const app = join(scratch, 'app')
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), '{ "private": true, "type": "module" }\n')
    const seconds = run(
      'npm',
      ['install', '--omit=optional', '--no-audit', '--no-fund', ...files],
      app,
    )
    const modules = join(app, 'node_modules')
    const rows = [
      [
        `the ${files.length} tarballs (npm pack)`,
        megabytes(files.reduce((sum, f) => sum + statSync(f).size, 0)),
        '',
        String(files.length),
        '',
        '',
      ],
      installed(
        'installed into an empty project, no optional feature',
        modules,
        seconds,
        '≤ 10 MB',
      ),
    ]
    if (clone) {
      const dir = join(scratch, 'clone')
      run('git', ['clone', '--quiet', root, dir], scratch)
      const t = run('npm', ['ci', '--no-audit', '--no-fund'], dir)
      rows.push(
        installed(
          'npm ci in a fresh clone (with its build)',
          join(dir, 'node_modules'),
          t,
          '≤ 200 MB, ≤ 25 s',
        ),
      )
    }
    console.log(
      '\nFootprint (MB: of the files, and on disk with their blocks, du -sk; the npm registry, its cache warm)',
    )
    console.log(
      table(['what', 'MB', 'on disk', 'packages', 'seconds', 'goal'], rows, [
        'l',
        'r',
        'r',
        'r',
        'r',
        'l',
      ]),
    )
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
