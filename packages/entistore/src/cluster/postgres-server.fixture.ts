/**
 * @module For tests: a real, throwaway PostgreSQL server per test file (the cluster tests run
 * against the engine itself, never a mock). Debian's binaries (`.ci/install-services.sh`
 * installs them), `initdb` into a temporary folder, a free port, the unix socket in that folder,
 * trust authentication and `fsync=off` (the tests kill Entistore processes, not PostgreSQL, so
 * its own durability is not under test): it starts in a second or two. The bench asks for
 * `durable: true` instead: PostgreSQL's own settings (fsync, synchronous_commit and
 * full_page_writes on), as users run it, so a commit waits for its WAL on disk.
 *
 * PostgreSQL refuses to run as root; run as root (CI containers, the development machine), the
 * folder is given to the `postgres` user and the binaries run through `runuser`.
 *
 * Without the binaries, `postgresSkip` says why and the tests skip, except under CI, where a
 * missing PostgreSQL is a failure (the cluster tests must run there).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'

function findBinaries(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin')
}

const BIN = findBinaries()
const AS_ROOT = process.getuid?.() === 0

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export const postgresSkip: string | undefined =
  BIN === undefined
    ? 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin): run .ci/install-services.sh'
    : undefined

if (postgresSkip !== undefined && process.env['CI'])
  throw new Error(`CI must run the PostgreSQL tests: ${postgresSkip}`)

export interface PostgresServer {
  readonly port: number
  /** A connection URL for database `db` (TCP on 127.0.0.1, user postgres, no password). */
  url(db?: string): string
  /** A new, empty database; its URL. */
  freshDatabase(): Promise<string>
  /** Runs one statement as the superuser, on database `db`. */
  query(sql: string, db?: string): Promise<pg.QueryResult>
  /** Stops the server at once (like a crash: `-m immediate`), then starts it again. */
  restart(options?: { downMs?: number }): Promise<void>
  stop(): Promise<void>
}

function run(bin: string, args: string[]): void {
  const file = join(BIN!, bin)
  const [cmd, argv] = AS_ROOT ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args]
  const result = spawnSync(cmd, argv, { encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`${bin} failed (${result.status}): ${result.stdout}${result.stderr}`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

let databases = 0

export interface StartPostgresOptions {
  /**
   * PostgreSQL's default durability (fsync, synchronous_commit, full_page_writes on): what a
   * benchmark measures. Off, the tests' server skips the disk flushes, which they do not test.
   * @default false
   */
  readonly durable?: boolean
}

/** Starts a throwaway server (see the module comment); `stop()` removes it. */
export async function startPostgres({
  durable = false,
}: StartPostgresOptions = {}): Promise<PostgresServer> {
  if (postgresSkip !== undefined) throw new Error(postgresSkip)
  const dir = mkdtempSync(join(tmpdir(), 'entistore-pg-'))
  if (AS_ROOT) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    ...(durable ? [] : ['-c fsync=off', '-c full_page_writes=off']),
    '-c max_connections=200',
  ].join(' ')
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  start()
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`
  const query = async (sql: string, db?: string) => {
    const client = new pg.Client({ connectionString: url(db) })
    await client.connect()
    try {
      return await client.query(sql)
    } finally {
      await client.end()
    }
  }
  let stopped = false
  return {
    port,
    url,
    query,
    async freshDatabase() {
      const name = `t${process.pid}_${++databases}`
      await query(`CREATE DATABASE ${name}`)
      return url(name)
    },
    async restart({ downMs = 0 } = {}) {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs))
      start()
    },
    async stop() {
      if (stopped) return
      stopped = true
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** A test file's PostgreSQL, as `postgresPerFile` gives it (filled in before the first test). */
export interface FilePostgres {
  readonly server: PostgresServer
  /** The connection URL of a fresh database. */
  readonly url: string
  /** That database's name. */
  readonly database: string
}

/**
 * Starts a server and a fresh database before the tests of the file that calls it (none when
 * `postgresSkip` says why not), and stops it after them.
 */
export function postgresPerFile(): FilePostgres {
  const state: { -readonly [K in keyof FilePostgres]?: FilePostgres[K] } = {}
  beforeAll(async () => {
    if (postgresSkip !== undefined) return
    state.server = await startPostgres()
    state.url = await state.server.freshDatabase()
    state.database = new URL(state.url).pathname.slice(1)
  })
  afterAll(async () => {
    await state.server?.stop()
  })
  return state as FilePostgres
}
