/**
 * @module For tests that kill servers: `entistore serve` in a child process, on a free port: the
 * built CLI when `npm run build` is current (the test command builds first), else the sources
 * (cli-child.fixture.ts under tsx), so that an edit is tested without a build either way. The crash tests of the journal and
 * of PostgreSQL start, SIGKILL and restart them, the tests of SIGTERM and --workers stop them and
 * read their exit codes (startCli); `stopChildren` ends those still running.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'

import { staleBuild } from '../../../../tools/build-freshness.ts'

const CHILD = fileURLToPath(new URL('./cli-child.fixture.ts', import.meta.url))
const BIN = fileURLToPath(new URL('../../bin/entistore.js', import.meta.url))
// tsx's loader, found from this package, so that the child runs TypeScript sources.
const TSX = createRequire(import.meta.url).resolve('tsx')

let built: boolean | undefined
/**
 * Node's arguments that run `script` (the CLI by default), before the command's own. The CLI from
 * the sources under tsx took 1.2 s of CPU to its URL line, the built one 0.5 s (its ~430 modules
 * bundled, compiled from Node's cache), and the suite starts it about a hundred times: the build
 * is used whenever no source is newer than it (asked once a process).
 */
export function cliCommand(script?: string): string[] {
  built ??= staleBuild().length === 0
  return script === undefined && built
    ? [BIN]
    : ['--import', TSX, '--conditions=source', script ?? CHILD]
}

const children: ChildProcess[] = []

export interface CliProcess {
  readonly child: ChildProcess
  /** The `http://127.0.0.1:PORT` of the URL line. */
  readonly url: string
  /** Everything written so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** The exit code (or the signal that ended it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves once stdout holds `text`; rejects if the process exits first. */
  readonly printed: (text: string) => Promise<void>
}

/**
 * Runs `script` (the CLI by default) with `args` (the whole command line: `serve …`); resolves
 * once its stdout shows the URL line and `ready` (a line printed after it, when the test needs
 * it), rejects if it exits before. For tests of signals, exit codes, several processes.
 */
export function startCli(
  args: readonly string[],
  options: {
    readonly script?: string
    readonly ready?: string
    /**
     * The largest file the process may write, in the shell's `ulimit -f` blocks (512 or 1024
     * bytes): a write past it fails with EFBIG, as on a full disk (POSIX only).
     */
    readonly fileSizeLimit?: number
  } = {},
): Promise<CliProcess> {
  const command = [process.execPath, ...cliCommand(options.script), ...args]
  const child =
    options.fileSizeLimit === undefined
      ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(
          '/bin/sh',
          ['-c', `ulimit -f ${options.fileSizeLimit} && exec "$@"`, 'sh', ...command],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        )
  children.push(child)
  let out = ''
  let err = ''
  const waiting: { text: string; resolve: () => void }[] = []
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d
    for (const w of waiting.filter((w) => out.includes(w.text))) {
      waiting.splice(waiting.indexOf(w), 1)
      w.resolve()
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  const printed = (text: string): Promise<void> =>
    out.includes(text)
      ? Promise.resolve()
      : new Promise((resolve, reject) => {
          waiting.push({ text, resolve })
          void exited.then(({ code }) =>
            reject(
              new Error(`the server exited (${code}) before printing "${text}": ${out}${err}`),
            ),
          )
        })
  return printed('/rest/$catalog')
    .then(() => printed(options.ready ?? ''))
    .then(() => ({
      child,
      url: /http:\/\/127\.0\.0\.1:\d+/.exec(out)![0],
      stdout: () => out,
      stderr: () => err,
      exited,
      printed,
    }))
}

/**
 * Starts `entistore serve <args> --port 0`; resolves with its URL once it listens and its output
 * holds `ready` (the line that says what it loaded).
 */
export async function startServe(
  args: readonly string[],
  ready: string,
): Promise<{ child: ChildProcess; url: string }> {
  const { child, url } = await startCli(['serve', ...args, '--port', '0'], { ready })
  return { child, url }
}

/** Kills the children still running. */
export function stopChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
}

/** What a write load sent and what was acknowledged (see itemWriteLoad). */
export interface WriteLoad {
  /** Names whose write got a 200. */
  readonly acknowledged: Set<string>
  /** Every `$atomic` batch sent, acknowledged or not, by its first name. */
  readonly batches: Map<string, string[]>
  /** Every name sent. */
  readonly sent: Set<string>
}

/**
 * Clients creating Items (`{ name }`, a unique name each; every third request an `$atomic` batch
 * of three) as fast as the servers answer: client `c` writes to `urls[c % urls.length]`. After
 * each reply, `afterReply(load)` may return true to stop every client (then it is the caller's
 * to kill a server); a client whose connection dies stops too.
 */
export async function itemWriteLoad(
  urls: readonly string[],
  clients: number,
  afterReply: (load: WriteLoad) => boolean,
): Promise<WriteLoad> {
  const load: WriteLoad = { acknowledged: new Set(), batches: new Map(), sent: new Set() }
  let stopped = false
  const client = async (c: number): Promise<void> => {
    const url = urls[c % urls.length]!
    for (let i = 0; !stopped; i++) {
      const names = i % 3 === 2 ? [0, 1, 2].map((j) => `b${c}-${i}-${j}`) : [`w${c}-${i}`]
      names.forEach((n) => load.sent.add(n))
      if (names.length > 1) load.batches.set(names[0]!, names)
      const atomic = names.length > 1 ? '&$atomic=true' : ''
      const body = names.length > 1 ? names.map((name) => ({ name })) : { name: names[0] }
      try {
        const reply = await fetch(`${url}/rest/Item?$method=update${atomic}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
        await reply.arrayBuffer()
        if (reply.status === 200) names.forEach((n) => load.acknowledged.add(n))
      } catch {
        return // the connection died with the server
      }
      if (!stopped && afterReply(load)) stopped = true
    }
  }
  await Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
  return load
}

/** The small model the child-process tests serve: `shop`, one dataclass `Item` (ID, name). */
export const SHOP_MODEL = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}

/**
 * A temporary folder holding `model.json` (SHOP_MODEL) and `data.json` (one Item per name),
 * removed after the test file, the children still running stopped first.
 */
export function shopFiles(
  prefix: string,
  names: readonly string[],
): { folder: string; model: string; data: string } {
  const folder = mkdtempSync(join(tmpdir(), `entistore-${prefix}-`))
  afterAll(() => {
    stopChildren()
    rmSync(folder, { recursive: true, force: true })
  })
  const model = join(folder, 'model.json')
  const data = join(folder, 'data.json')
  writeFileSync(model, JSON.stringify(SHOP_MODEL))
  writeFileSync(data, JSON.stringify({ Item: names.map((name) => ({ name })) }))
  return { folder, model, data }
}
