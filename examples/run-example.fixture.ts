/**
 * Runs an example as its README says (`npx tsx --conditions=source examples/<name>/server.ts`), in a
 * child process on a free port (PORT=0), waits for the URL it prints, and stops it. The examples'
 * tests use it so that CI exercises each one the way a reader starts it: start, request, assert, stop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface RunningExample {
  /** The first `http://host:port` the example printed. */
  readonly url: string
  /** Everything it printed so far (stdout and stderr). */
  output(): string
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
}

/** Starts `file` (relative to the repository root) with tsx and the given extra arguments. */
export async function runExample(
  file: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  timeoutMs = 20_000,
): Promise<RunningExample> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', file, ...args],
    { cwd: root, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${file} printed no URL within ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const read = (chunk: Buffer): void => {
      out += chunk.toString()
      const found = /http:\/\/[^\s/]+/.exec(out)
      if (found) {
        clearTimeout(timer)
        resolve(found[0])
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${file} exited (${code}) before printing a URL:\n${out}`))
    })
  })
  return {
    url,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
