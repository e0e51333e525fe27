/**
 * What the built `entistore` command imports, read from Node's own module loader (a load hook
 * registered with `--import` writes every URL it loads to a file), so that a start's cost is held
 * by what it loads, not by a stopwatch: `--version`, `--help` and a usage error load no engine,
 * and `serve` loads the explorer, the functions loader, the watcher, the saver, the users file's
 * reader and the cluster only when a flag asks for them.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const BIN = join(root, 'packages/entistore/bin/entistore.js')
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')
const dir = mkdtempSync(join(tmpdir(), 'entistore-loaded-'))
// Without imports of its own (the demo's imports the whole entistore package, cluster and all).
const FUNCTIONS = join(dir, 'functions.mjs')
writeFileSync(FUNCTIONS, 'export default { dataStore: { answer: { call: () => 42 } } }\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The hook runs on the loader's own thread: it appends each URL, as it is loaded, to $LOADED_LOG.
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + '\\n')
  return next(url, context)
}
`,
)
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module'\nregister(new URL('./hooks.mjs', import.meta.url))\n`,
)

let runs = 0

/**
 * Runs the command with the hook; a `serve` is stopped (SIGTERM) once it printed its URL line.
 * Resolves to the modules loaded, as paths from the repository (`packages/core/dist/index.js`),
 * and the builtins imported (`node:fs`).
 */
async function loaded(
  argv: string[],
): Promise<{ code: number | null; modules: string[]; builtins: string[] }> {
  expect(existsSync(join(root, 'packages/entistore/dist/cli.js')), 'run npm run build').toBe(true)
  const log = join(dir, `run-${++runs}.log`)
  writeFileSync(log, '')
  const child = spawn(process.execPath, ['--import', join(dir, 'register.mjs'), BIN, ...argv], {
    cwd: root,
    env: { ...process.env, LOADED_LOG: log },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stopped = false
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
    // Once: a second signal ends the process at once (Ctrl-C twice), by design.
    if (stopped || !/^Entistore serving .*\/rest\/\$catalog$/m.test(stdout)) return
    stopped = true
    child.kill('SIGTERM')
  })
  child.stderr.resume()
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const urls = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url !== '')
  const modules = urls
    .filter((url) => !url.startsWith('node:'))
    .map((url) => fileURLToPath(url).slice(root.length))
  return { code, modules, builtins: urls.filter((url) => url.startsWith('node:')) }
}

/**
 * The modules of the engine and of the REST interface (their bundles: tools/bundle.ts), but the
 * one name helper the CLI uses, bundled alone.
 */
const engine = (modules: string[]): string[] =>
  modules.filter(
    (m) =>
      /^packages\/(core|rest)\//.test(m) && !m.endsWith('core/dist/bundle/errors/closest-name.js'),
  )

describe('what the entistore command loads', () => {
  it.each([
    [['--version']],
    [['--help']],
    [['serve', '--help']],
    [['help', 'clone']],
    [['serve', '--prot', '8080']],
    [['serve', '-m', 'm.json', '--workers', '2']],
    [['nope']],
  ])('%j loads no engine, no dependency and no command runner', async (argv) => {
    const { code, modules } = await loaded(argv)
    expect(code).toBe(
      argv.includes('--help') || argv[0] === 'help' || argv[0] === '--version' ? 0 : 2,
    )
    expect(engine(modules)).toEqual([])
    expect(modules.filter((m) => m.startsWith('node_modules/'))).toEqual([])
    expect(
      modules.filter((m) => m.includes('serve-run') || m.endsWith('/dist/serve/serve.js')),
    ).toEqual([])
  })

  const optional = [
    'explorer/explorer-files.js',
    'load/load-functions.js',
    'serve/watch.js',
    'persist/save.js',
    // The journal and snapshots (persist.js and what it imports) and what reads a folder's data.
    'persist/persist.js',
    'persist/recovery.js',
    // A project's structure and class files (project-files.ts alone says where they are).
    'project/load-project.js',
    'serve/users.js',
    'serve/workers.js',
    'cluster/cluster-core.js',
    'cluster/join-cluster.js',
    'cluster/redis/connect.js',
    'cluster/redis/redis-participant.js',
  ]
  const loadedOf = (modules: string[]) =>
    optional.filter((o) => modules.includes(`packages/entistore/dist/${o}`))

  it('serve without flags loads the engine and none of what only a flag uses', async () => {
    const { code, modules, builtins } = await loaded([
      'serve',
      '-m',
      MODEL,
      '-d',
      DATA,
      '-p',
      '0',
      '--no-explorer',
    ])
    expect(code).toBe(0)
    // The bundles, not tsc's files one by one.
    expect(engine(modules)).toContain('packages/core/dist/bundle/index.js')
    expect(engine(modules)).toContain('packages/rest/dist/bundle/index.js')
    expect(engine(modules).filter((m) => !m.includes('/dist/bundle/'))).toEqual([])
    expect(loadedOf(modules)).toEqual([])
    // Drivers and the picture converter are never imported by a start that does not use them.
    expect(modules.filter((m) => /node_modules\/(pg|ioredis|sharp)\//.test(m))).toEqual([])
    // Nor node:cluster by a process that is no cluster worker (2–3 ms of a start).
    expect(builtins).not.toContain('node:cluster')
    expect(builtins).toContain('node:worker_threads')
  })

  it('serve loads what its flags ask for: the explorer, functions, --watch, --save', async () => {
    const { code, modules } = await loaded([
      'serve',
      ...['-m', MODEL, '-d', DATA, '-f', FUNCTIONS, '-p', '0', '--watch'],
      ...['--save', join(dir, 'saved.json')],
    ])
    expect(code).toBe(0)
    expect(loadedOf(modules)).toEqual([
      'explorer/explorer-files.js',
      'load/load-functions.js',
      'serve/watch.js',
      'persist/save.js',
    ])
  })

  it('serve --persist loads the journal and snapshots', async () => {
    const { code, modules } = await loaded([
      'serve',
      ...['-m', MODEL, '-d', DATA, '-p', '0', '--no-explorer'],
      ...['--persist', join(dir, 'persisted')],
    ])
    expect(code).toBe(0)
    expect(loadedOf(modules)).toEqual(['persist/persist.js', 'persist/recovery.js'])
  })
})
