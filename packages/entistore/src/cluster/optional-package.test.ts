// pg and ioredis are optional peer dependencies of entistore: imported only by --postgres/--redis
// and joinCluster/connectRedis, and named in one line where they are not installed. Tested for
// real: a child process that imports entistore here (where both are installed) and reports what
// it loaded; and the built package copied into a scratch node_modules where neither can be found.
import { execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import type { RedisOptions } from 'ioredis'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { PostgresPoolConfig } from './postgres/types.js'
import type { RedisClientOptions } from './redis/options.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const pkg = join(root, 'packages/entistore')
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')
const TSX = createRequire(import.meta.url).resolve('tsx')
// Nothing listens on port 1: a connection is refused at once.
const NO_PG = 'postgres://127.0.0.1:1/none'
const NO_REDIS = 'redis://127.0.0.1:1'

interface Exit {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `node args` in `cwd` to its end. */
const node = (args: readonly string[], cwd: string): Promise<Exit> =>
  new Promise((resolve) =>
    execFile(process.execPath, args, { cwd, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        stdout,
        stderr,
      }),
    ),
  )

describe('in this repository, where pg and ioredis are installed', () => {
  it('importing entistore loads neither; joinCluster loads pg and connectRedis ioredis', async () => {
    // What the child loaded of each driver: CommonJS packages, so in require's cache once loaded
    // (ESM's `import pg from 'pg'` goes through it too). The second and third counts are the
    // check that this way of looking sees them at all.
    const script = `
      const { createRequire } = await import('node:module')
      const cache = createRequire(import.meta.url).cache
      const loaded = (name) => Object.keys(cache).filter((f) => f.includes('/node_modules/' + name + '/')).length
      const counts = () => [loaded('pg'), loaded('ioredis')]
      const m = await import(${JSON.stringify(join(pkg, 'src/index.ts'))})
      const imported = counts()
      await m.joinCluster(m.createDatastore({ dataClasses: [] }), { postgres: '${NO_PG}' }).catch(() => {})
      const joined = counts()
      await m.connectRedis(m.createDatastore({ dataClasses: [] }), '${NO_REDIS}').catch(() => {})
      console.log(JSON.stringify({ imported, joined, connected: counts() }))
    `
    const run = await node(
      ['--import', TSX, '--conditions=source', '--input-type=module', '-e', script],
      root,
    )
    expect(run.stderr).toBe('')
    const { imported, joined, connected } = JSON.parse(run.stdout) as Record<string, number[]>
    expect(imported).toEqual([0, 0])
    expect(joined![0]).toBeGreaterThan(0)
    expect(joined![1]).toBe(0)
    expect(connected![1]).toBeGreaterThan(0)
  })

  it('takes pg’s and ioredis’s own option types where it declares its own', () => {
    // Declared in entistore, so that its types compile without the drivers; a user who has
    // them may still hand over a value typed with theirs, and entistore hands it on to them.
    expectTypeOf<pg.PoolConfig>().toExtend<PostgresPoolConfig>()
    expectTypeOf<PostgresPoolConfig>().toExtend<pg.PoolConfig>()
    expectTypeOf<RedisOptions>().toExtend<RedisClientOptions>()
    expectTypeOf<RedisClientOptions>().toExtend<RedisOptions>()
  })
})

describe('installed without pg and ioredis', () => {
  // A scratch project: the built entistore copied into its node_modules (so that what it imports
  // is looked up from there, not from this repository's node_modules, which has both drivers),
  // @entistore/core and /rest linked (their imports resolve from the repository: they name no driver).
  let scratch: string
  let bin: string
  beforeAll(() => {
    expect(existsSync(join(pkg, 'dist/cli.js')), 'dist/ is missing: run npx tsc -b').toBe(true)
    scratch = mkdtempSync(join(tmpdir(), 'entistore-no-drivers-'))
    const modules = join(scratch, 'node_modules')
    for (const part of ['package.json', 'bin', 'dist', 'explorer'])
      cpSync(join(pkg, part), join(modules, 'entistore', part), { recursive: true })
    mkdirSync(join(modules, '@entistore'))
    for (const name of ['core', 'rest'])
      symlinkSync(join(root, 'packages', name), join(modules, '@entistore', name), 'dir')
    bin = join(modules, 'entistore/bin/entistore.js')
  })
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it('is what the test says: neither driver can be found from the copied package', async () => {
    const run = await node(
      [
        '--input-type=module',
        '-e',
        `for (const p of ['pg', 'ioredis']) await import(p).then(() => console.log(p), () => {})`,
      ],
      join(scratch, 'node_modules/entistore'),
    )
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('serve --postgres says in one line which package to install, and exits 1', async () => {
    expect(await node([bin, 'serve', '-m', MODEL, '--postgres', NO_PG], scratch)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'entistore: --postgres needs the package pg: npm install pg\n',
    })
  })

  it('serve --redis says in one line which package to install, and exits 1', async () => {
    expect(await node([bin, 'serve', '-m', MODEL, '--redis', NO_REDIS], scratch)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'entistore: --redis needs the package ioredis: npm install ioredis\n',
    })
  })

  it('serve --workers 2 with both: one line for both, before any worker starts', async () => {
    const args = ['serve', '-m', MODEL, '--workers', '2', '--postgres', NO_PG, '--redis', NO_REDIS]
    expect(await node([bin, ...args], scratch)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'entistore: --postgres and --redis need the packages pg and ioredis: npm install pg ioredis\n',
    })
  })

  it('joinCluster and connectRedis reject with MissingPackageError, its code and the same line', async () => {
    const script = `
      const m = await import('entistore')
      const ds = m.createDatastore({ dataClasses: [] })
      const errors = []
      for (const start of [() => m.joinCluster(ds, { postgres: '${NO_PG}' }), () => m.connectRedis(ds, '${NO_REDIS}')])
        await start().catch((e) => errors.push([e instanceof m.MissingPackageError, e.code, e.message]))
      console.log(JSON.stringify(errors))
    `
    const run = await node(['--input-type=module', '-e', script], scratch)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual([
      [true, 'ERR_ENTISTORE_MISSING_PACKAGE', 'joinCluster needs the package pg: npm install pg'],
      [
        true,
        'ERR_ENTISTORE_MISSING_PACKAGE',
        'connectRedis needs the package ioredis: npm install ioredis',
      ],
    ])
  })

  it('serve without --postgres and --redis starts and answers', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '-m', MODEL, '-d', DATA, '--port', '0'], {
      cwd: scratch,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = ''
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d
          const found = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)
          if (found) resolve(found[0])
        })
        void exited.then((c) => reject(new Error(`exited with ${c} before listening: ${stderr}`)))
      })
      const res = await fetch(`${url}/rest/Employee?$top=1&$attributes=ID`)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { __COUNT: number }).__COUNT).toBe(360)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(stderr).toBe('')
  })
})
