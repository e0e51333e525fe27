/**
 * Runs an example as its README says (`npx tsx --conditions=source examples/<name>/server.ts`, or
 * another runtime's command: Bun, Deno), in a child process on a free port (PORT=0), waits for the
 * URL it prints, and stops it. The examples' tests use it so that CI exercises each one the way a
 * reader starts it: start, request, assert, stop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
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

export interface RunOptions {
  /**
   * The program and its arguments before the file.
   * @default node with tsx and the `source` condition, as the READMEs say
   */
  readonly command?: readonly [string, ...string[]]
  /** Arguments after the file. */
  readonly args?: readonly string[]
  /** More environment variables (PORT is 0 unless given). */
  readonly env?: Readonly<Record<string, string>>
  readonly timeoutMs?: number
}

const TSX: readonly [string, ...string[]] = [
  process.execPath,
  '--import',
  'tsx',
  '--conditions=source',
]

const installed = (path: string): string =>
  fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url))

const runtime = (path: string): string =>
  fileURLToPath(new URL(`../.runtimes/node_modules/${path}`, import.meta.url))

/**
 * Bun and Deno as the tests start them, from the binaries `.ci/install-runtimes.sh` installs into
 * .runtimes/ (npm's Linux x64 builds; not part of `npm install`, being 195 MB). `missing` says
 * which are not there, and `skipReason` how a test that needs them says so: on a machine without
 * them the tests are skipped under that name; in CI (CI=true) they fail, since CI installs them.
 * Bun runs the TypeScript sources and serves on $PORT; Deno serves the built packages (`npm test`
 * builds them first) on a free port, with no update check and its cache inside the repository's.
 */
export const RUNTIMES = {
  onThisPlatform: process.platform === 'linux' && process.arch === 'x64',
  bun: runtime('@oven/bun-linux-x64/bin/bun'),
  deno: runtime('@deno/linux-x64-glibc/deno'),
  get missing(): string[] {
    return [...(existsSync(this.bun) ? [] : ['Bun']), ...(existsSync(this.deno) ? [] : ['Deno'])]
  },
  /** Whether the tests on Bun and Deno run here: on Linux x64, with both installed, or in CI. */
  get run(): boolean {
    return this.onThisPlatform && (this.missing.length === 0 || process.env.CI === 'true')
  },
  /** The line a skipped suite is named with, or a CI run fails with. */
  get skipReason(): string {
    return this.onThisPlatform
      ? `${this.missing.join(' and ')} not installed: bash .ci/install-runtimes.sh installs them`
      : `Bun and Deno are installed for Linux x64 only (this is ${process.platform} ${process.arch})`
  },
  get onBun(): RunOptions {
    return { command: [this.bun, 'run', '--conditions=source'] }
  },
  get onDeno(): RunOptions {
    return {
      command: [this.deno, 'serve', '--port', '0', '--allow-read', '--allow-env'],
      env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: installed('.cache/deno') },
    }
  },
}

/** Starts `file` (relative to the repository root). */
export async function runExample(file: string, options: RunOptions = {}): Promise<RunningExample> {
  const [program, ...before] = options.command ?? TSX
  const timeoutMs = options.timeoutMs ?? 20_000
  const child: ChildProcess = spawn(program, [...before, file, ...(options.args ?? [])], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
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
