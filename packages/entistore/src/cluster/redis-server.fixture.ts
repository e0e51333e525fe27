/**
 * @module A real Redis server for a test file: started on a free port in a temporary folder, with
 * nothing saved (`--save '' --appendonly no`), stopped (and its folder removed) when the file is
 * done. No mock: the participant's Lua scripts, TTLs and pub/sub are Redis's own.
 *
 * Where `redis-server` is missing, a test file is skipped with the reason, unless it runs under CI
 * (`process.env.CI`), where a missing server is a failure: CI installs it (.ci/install-services.sh).
 * Test-only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const BINARY = process.env.REDIS_SERVER ?? 'redis-server'

/** Why the Redis tests cannot run here, or undefined when they can. Throws under CI instead. */
export function redisMissing(): string | undefined {
  const found = spawnSync(BINARY, ['--version'], { encoding: 'utf8' })
  if (found.status === 0) return undefined
  const why = `${BINARY} is not installed (.ci/install-services.sh installs it)`
  if (process.env.CI) throw new Error(`the Redis tests need a Redis server under CI: ${why}`)
  return why
}

/** A free TCP port on 127.0.0.1 (taken and let go: the server binds it next). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Resolves once something accepts connections on `port`, rejects after `ms`. */
async function accepting(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() > until)
      throw new Error(`redis-server did not listen on ${port} within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` */
  readonly url: string
  readonly port: number
  /** Kills the server (SIGKILL: a crash); its data is gone, as it saves nothing. */
  kill(): Promise<void>
  /** Starts it again on the same port, empty (after `kill`). */
  restart(): Promise<void>
  /** Stops it and removes its folder. */
  stop(): Promise<void>
}

/** Starts a Redis server for one test file. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-redis-'))
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
    const started = spawn(BINARY, [...args, '--dir', dir], { stdio: 'ignore' })
    child = started
    await accepting(port, 10_000)
  }
  const kill = async (): Promise<void> => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve())
      running.kill('SIGKILL')
    })
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: start,
    async stop() {
      await kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
