/**
 * @module The `entistore` command run on a corpus project as a 4D team would run it: `check
 * --project` to its end, `test --project` on its own tests, and `serve --project` on a free port
 * until the probes are done. Both are
 * the built command (packages/entistore/bin), never the library: what a user meets.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { componentsDir } from './manifest.ts'

// ENTISTORE_BIN runs another build (an older commit's, for the figures before a change).
const BIN =
  process.env.ENTISTORE_BIN ??
  fileURLToPath(new URL('../../packages/entistore/bin/entistore.js', import.meta.url))

export interface CheckRun {
  readonly exitCode: number | null
  /** What would stop or degrade serve, as `file:line:column: message` (the start-up's problems). */
  readonly problems: readonly { file: string; line: number; message: string }[]
  /** The code's problems, per file, as `check --json` sorts them. */
  readonly files: readonly CheckedFile[]
  /** What it said, one line a problem, as the text output says it. */
  readonly output: string
  readonly ms: number
  readonly timedOut: boolean
}

export interface CheckedFile {
  readonly file: string
  /** What 4D's syntax check would refuse: a line that does not parse, a wrong argument count. */
  readonly syntaxErrors: readonly { line: number; message: string }[]
  /** What parses but cannot run here, by name. */
  readonly notRunnable: readonly { line: number; name: string; message: string }[]
}

interface CheckJson {
  readonly startup?: readonly {
    file: string
    line?: number
    column?: number
    severity: string
    message: string
  }[]
  readonly files: readonly CheckedFile[]
  readonly unchecked?: readonly { folder: string; what: string }[]
}

/** `--components <folder>`: the components the projects load, when they are reconstructed. */
const withComponents = (): string[] =>
  existsSync(componentsDir()) ? ['--components', componentsDir()] : []

export async function runCheck(folder: string, timeoutMs = 180_000): Promise<CheckRun> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [BIN, 'check', '--project', folder, ...withComponents(), '--json'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, timeoutMs)
  const exitCode = await new Promise<number | null>((done) => child.on('close', done))
  clearTimeout(timer)
  let json: CheckJson = { files: [] }
  try {
    json = JSON.parse(out) as CheckJson
  } catch {
    // It ended before its report (a crash, a timeout): what it said is in `output`.
  }
  const problems = (json.startup ?? []).map((p) => ({
    file: p.file,
    line: p.line ?? 0,
    message: p.severity === 'warning' ? `warning: ${p.message}` : p.message,
  }))
  const output = [
    ...problems.map((p) => `${p.file}:${p.line}: ${p.message}`),
    ...json.files.flatMap((f) => f.syntaxErrors.map((e) => `${f.file}:${e.line}: ${e.message}`)),
    ...(json.unchecked ?? []).map((u) => `${u.folder}: not checked: ${u.what}`),
    err,
  ].join('\n')
  return {
    exitCode,
    problems,
    files: json.files,
    output,
    ms: performance.now() - started,
    timedOut,
  }
}

/** What `entistore test --project` found and said, its counts from its summary line. */
export interface TestRun {
  readonly exitCode: number | null
  /** None: the project holds no test by the conventions (test_… methods, …Test classes). */
  readonly found: number
  readonly passed: number
  readonly failed: number
  readonly errors: number
  readonly timedOut: number
}

/** `entistore test --project` on the project, as its team's CI would run it. */
export async function runTests(folder: string, timeoutMs = 180_000): Promise<TestRun> {
  const child = spawn(process.execPath, [BIN, 'test', '--project', folder, ...withComponents()], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const exitCode = await new Promise<number | null>((done) => child.on('close', done))
  clearTimeout(timer)
  const summary =
    /^Tests: (\d+) passed, (\d+) failed(?:, (\d+) errors?)?(?:, (\d+) timed out)?/m.exec(out)
  const n = (i: number): number => Number(summary?.[i] ?? 0)
  const [passed, failed, errors, timedOut] = [n(1), n(2), n(3), n(4)]
  return { exitCode, found: passed + failed + errors + timedOut, passed, failed, errors, timedOut }
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
  const args = [
    'serve',
    '--project',
    folder,
    ...withComponents(),
    '--port',
    '0',
    '--quiet',
    '--no-explorer',
    ...extra,
  ]
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
