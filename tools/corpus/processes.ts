/**
 * @module The `entistore` command run on a corpus project as a 4D team would run it: `check
 * --project` to its end, and `serve --project` on a free port until the probes are done. Both are
 * the built command (packages/entistore/bin), never the library: what a user meets.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// ENTISTORE_BIN runs another build (an older commit's, for the figures before a change).
const BIN =
  process.env.ENTISTORE_BIN ??
  fileURLToPath(new URL('../../packages/entistore/bin/entistore.js', import.meta.url))

export interface CheckRun {
  readonly exitCode: number | null
  /** `file:line:column: message` lines, as printed. */
  readonly problems: readonly { file: string; line: number; message: string }[]
  readonly summary: string
  /** Everything it printed. */
  readonly output: string
  readonly ms: number
  readonly timedOut: boolean
}

const PROBLEM = /^(.+?):(\d+):(\d+): (.*)$/

export async function runCheck(folder: string, timeoutMs = 180_000): Promise<CheckRun> {
  const started = performance.now()
  const child = spawn(process.execPath, [BIN, 'check', '--project', folder], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, timeoutMs)
  const exitCode = await new Promise<number | null>((done) => child.on('close', done))
  clearTimeout(timer)
  const lines = out.split('\n').filter((l) => l !== '')
  const problems = lines.flatMap((l) => {
    const m = PROBLEM.exec(l)
    return m ? [{ file: m[1]!, line: Number(m[2]), message: m[4]! }] : []
  })
  return {
    exitCode,
    problems,
    summary: lines.at(-1) ?? '',
    output: out,
    ms: performance.now() - started,
    timedOut,
  }
}

export interface Server {
  /** `http://127.0.0.1:port`. */
  readonly origin: string
  /** What it said before it listened: its notes and problems, one a line. */
  readonly said: readonly string[]
  readonly startMs: number
  stop(): Promise<void>
}

export class StartFailure extends Error {
  constructor(
    message: string,
    readonly said: readonly string[],
  ) {
    super(message)
  }
}

/** `serve --project folder` on a free port, once it listens; a StartFailure if it exits first. */
export async function startServer(
  folder: string,
  extra: readonly string[] = [],
  timeoutMs = 120_000,
): Promise<Server> {
  const started = performance.now()
  const args = ['serve', '--project', folder, '--port', '0', '--quiet', '--no-explorer', ...extra]
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const said: string[] = []
  let pending = ''
  const onText = (d: string): void => {
    pending += d
    const lines = pending.split('\n')
    pending = lines.pop()!
    said.push(...lines.filter((l) => l.trim() !== ''))
  }
  child.stdout.setEncoding('utf8').on('data', onText)
  child.stderr.setEncoding('utf8').on('data', onText)
  const exited = new Promise<number | null>((done) => child.on('close', done))
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const listening = said.find((l) => l.startsWith('Entistore serving'))
    if (listening !== undefined) {
      const origin = /(http:\/\/[^/\s]+)\/rest\//.exec(listening)![1]!
      return {
        origin,
        said: said.filter((l) => l !== listening),
        startMs: performance.now() - started,
        stop: async () => {
          child.kill('SIGTERM')
          await exited
        },
      }
    }
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('wait'), 50))])
    if (code !== 'wait' || Date.now() > deadline) {
      if (code === 'wait') child.kill('SIGKILL')
      onText('\n')
      const last = said.filter((l) => !/^\s+at /.test(l)).at(-1) ?? `exit ${String(code)}`
      throw new StartFailure(code === 'wait' ? 'did not listen in time' : last, said)
    }
  }
}
