/**
 * @module The public benchmark (issue 22): `npm run bench -- --report` measures Entistore against
 * the peers in process and over HTTP in one run and writes docs/benchmarks.md with its charts;
 * `--smoke` does the same on 1k rows in seconds, into a scratch folder, so that a test can run the
 * whole harness in CI and it cannot rot. run.ts hands these options here.
 *
 * Options (after --report or --smoke): --sizes=10k,100k,1m (in process), --http-sizes=10k,100k,
 * --out=DIR (default docs/ for --report, node_modules/.cache/entistore-bench/smoke for --smoke),
 * --json=FILE (the raw results; by default results.json beside a smoke report).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { fileURLToPath } from 'node:url'
import { ensurePackagesBuilt, loadEngine } from './engine.ts'
import type { LoadOptions } from './http-load.ts'
import { writeReport, type PublicResults } from './public-report.ts'
import { ms, parseSize, perOp, ratio, sizeLabel } from './report.ts'
import { runPublicHttp } from './suites/public-http.bench.ts'
import { PEERS, runPublicPeers, versionOf } from './suites/public-peers.bench.ts'
import type { TimingOptions } from './timing.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

interface PublicOptions {
  readonly smoke: boolean
  readonly sizes: number[]
  readonly httpSizes: number[]
  readonly out: string
  readonly json?: string
  readonly timing: TimingOptions
  readonly load: LoadOptions
}

function parse(argv: readonly string[]): PublicOptions {
  const smoke = argv.includes('--smoke')
  const value = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1)
  const sizes = (v: string | undefined, d: number[]): number[] =>
    v ? v.split(',').map(parseSize) : d
  for (const a of argv)
    if (!/^--(report|smoke|sizes|http-sizes|out|json)(=|$)/.test(a)) {
      console.error(
        `--report / --smoke: unknown option ${a} (--sizes, --http-sizes, --out, --json)`,
      )
      process.exit(2)
    }
  const out =
    value('--out') ?? join(root, smoke ? 'node_modules/.cache/entistore-bench/smoke' : 'docs')
  return {
    smoke,
    sizes: sizes(value('--sizes'), smoke ? [1000] : [10_000, 100_000, 1_000_000]),
    // json-server answers a 50-row filter by filtering every row (lodash): at 1M, a few req/s.
    httpSizes: sizes(value('--http-sizes'), smoke ? [1000] : [10_000, 100_000]),
    out,
    json: value('--json') ?? (smoke ? join(out, 'results.json') : undefined),
    timing: smoke
      ? { warmup: 0, reps: 1, minSampleMs: 1, slowCallMs: 500 }
      : { warmup: 1, warmupMs: 200, reps: 5, minSampleMs: 40, slowCallMs: 2000 },
    // The smoke's load is a count of requests (`once`): autocannon times a round in whole seconds,
    // which made a quarter-second round a second for each peer and request, half the smoke's time.
    load: smoke
      ? {
          connections: 4,
          seconds: 0.25,
          rounds: 1,
          warmupSeconds: 0,
          pathsPerConnection: 64,
          once: true,
        }
      : { connections: 16, seconds: 2, rounds: 2, warmupSeconds: 1, pathsPerConnection: 4096 },
  }
}

/** JS heap the run may need: every store of every peer held at once (≈5 kB a row at 1M). */
const HEAP_MB = 12_288

/** Runs the public benchmark as `argv` says, prints its progress, writes the report. */
export async function runPublic(argv: readonly string[]): Promise<void> {
  const o = parse(argv)
  // Node's default heap limit (≈4 GB here) is too small for all the stores of 1M rows: the run
  // starts again in a child process with a larger one.
  const limitMb = getHeapStatistics().heap_size_limit / 2 ** 20
  if (Math.max(...o.sizes) >= 500_000 && limitMb < HEAP_MB) {
    const script = fileURLToPath(new URL('./run.ts', import.meta.url))
    const child = spawnSync(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_MB}`,
        '--import',
        'tsx',
        '--conditions=source',
        script,
        ...argv,
      ],
      { cwd: root, stdio: 'inherit' },
    )
    if (child.status !== 0) process.exit(child.status ?? 1)
    return
  }
  const t0 = Date.now()
  console.log(
    `# Entistore public benchmark${o.smoke ? ' (smoke)' : ''} — ${new Date().toISOString()}`,
  )
  // The smoke checks the harness, not the figures: the built dist, as the tests left it, spares
  // it compiling core again (4–8 s in CI).
  const engine = await loadEngine(o.smoke ? 'dist' : 'compiled')
  console.log(`engine: ${engine.label}`)
  console.log(ensurePackagesBuilt('auto'))
  // The accented rows at one size: 100k, or the largest asked for below it (--smoke: 1k).
  const accentedSize = Math.min(100_000, Math.max(...o.sizes))
  const peers = await runPublicPeers(engine.core, {
    sizes: o.sizes,
    accentedSize,
    timing: o.timing,
    loadReps: (n) => (o.smoke || n >= 1_000_000 ? 1 : n >= 100_000 ? 2 : 3),
    // The smoke checks that memory is a figure, not what it is: 10k rows held (10 copies of each
    // 1k-row store: about 3 MB or more for every peer) stand well clear of the heap's noise, and build a
    // fifth of the 50 copies a report's 1k column holds (the smoke's loads were half its time).
    ...(o.smoke ? { memoryRows: 10_000 } : {}),
    onResult: (r) => {
      const floor = r.cells.find((c) => c.peer === 'plain')
      const f = floor?.value !== undefined ? floor.value / (floor.opsPerCall ?? 1) : NaN
      const cells = r.cells.map((c) => {
        if (c.cannot !== undefined) return `${c.peer} —`
        if (c.error !== undefined) return `${c.peer} ERROR ${c.error}`
        const v = r.op === 'memory' ? c.value! : c.value! / (c.opsPerCall ?? 1)
        const shown = r.op === 'memory' ? `${Math.round(v)} B` : perOp(v)
        return `${c.peer} ${shown}${c.peer === 'plain' ? '' : ` ${ratio(v / f)}`}${c.sameCheck === false ? ' ≠' : ''}`
      })
      const size = `${sizeLabel(r.size)}${r.shape === 'accented' ? ' accented' : ''}`
      console.log(`${size.padStart(4)} ${r.op.padEnd(9)} ${cells.join(' · ')}`)
    },
  })
  const http = await runPublicHttp({
    sizes: o.httpSizes,
    load: o.load,
    startupTimeoutMs: 120_000,
    onResult: (r) =>
      console.log(
        `${sizeLabel(r.size).padStart(4)} http ${r.request.padEnd(8)} ` +
          r.cells
            .map((c) =>
              c.error !== undefined
                ? `${c.peer} ERROR ${c.error}`
                : r.request === 'startup'
                  ? `${c.peer} ${ms(c.rps!)} ms`
                  : `${c.peer} ${Math.round(c.rps!)} req/s${c.failed ? ` (${c.failed} failed)` : ''}`,
            )
            .join(' · '),
      ),
  })
  const cpu = cpus()
  const versions: Record<string, string> = {}
  for (const p of PEERS) if (p.pkg) versions[p.pkg] = versionOf(p.pkg)
  for (const pkg of ['json-server', 'express', 'autocannon']) versions[pkg] = versionOf(pkg)
  const results: PublicResults = {
    info: {
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      command: `npm run bench -- ${argv.filter((a) => !a.startsWith('--out') && !a.startsWith('--json')).join(' ')}`,
      machine: `${cpu[0]?.model ?? '?'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${process.platform} ${process.arch}`,
      node: process.version,
      commit: gitCommit(),
      seconds: (Date.now() - t0) / 1000,
      versions,
      sizes: o.sizes,
      accentedSize,
      httpSizes: o.httpSizes,
      timing: `${o.timing.warmup} warm-up call(s) and ≥ ${o.timing.warmupMs ?? 0} ms of them, ${o.timing.reps} interleaved samples of ≥ ${o.timing.minSampleMs} ms, median`,
      load: `autocannon, ${o.load.connections} keep-alive connections, ${o.load.warmupSeconds} s warm-up, ${o.load.rounds} × ${o.load.seconds} s per server and request`,
    },
    peers,
    http,
  }
  if (o.json) mkdirSync(dirname(o.json), { recursive: true })
  if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 1))
  const written = writeReport(results, o.out)
  console.log(
    `\nwrote ${written.map((p) => relative(root, p)).join(', ')}` +
      `${o.json ? ` and ${relative(root, o.json)}` : ''} in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  )
}

/** The commit measured, `+ changes` when the tree differs from it. */
function gitCommit(): string {
  try {
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== ''
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes' : ''}`
  } catch {
    return '?'
  }
}
