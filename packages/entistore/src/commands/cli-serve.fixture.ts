/**
 * `entistore serve` run in process by the CLI's tests (main() with an injected CliIo): started on a
 * free port, its lines, reloads and saves collected, stopped by the test.
 */
import { main, type CliIo } from '../cli.js'
import type { SaveResult } from '../persist/save.js'
import type { RunningServer } from '../serve/serve.js'
import type { ReloadOutcome } from '../serve/watch.js'

/** What a command run in process said, and its exit code. */
export interface CliRun {
  readonly code: number
  readonly out: string[]
  readonly err: string[]
}

/** Runs the command in process; a server it starts is stopped as soon as it listens. */
export async function runCli(argv: string[]): Promise<CliRun> {
  const out: string[] = []
  const err: string[] = []
  let stop!: () => void
  const io: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stopSignal: new Promise<void>((resolve) => (stop = resolve)),
    onListening: () => stop(),
  }
  const code = await main(argv, io)
  return { code, out, err }
}

/** Values pushed by callbacks, taken in order by awaiting `next()`. */
export class Queue<T> {
  readonly #items: T[] = []
  readonly #waiting: ((item: T) => void)[] = []
  push = (item: T): void => {
    const w = this.#waiting.shift()
    if (w) w(item)
    else this.#items.push(item)
  }
  next(): Promise<T> {
    const item = this.#items.shift()
    if (item !== undefined) return Promise.resolve(item)
    return new Promise((resolve) => this.#waiting.push(resolve))
  }
  /** The values pushed and not taken yet. */
  rest(): T[] {
    return this.#items.splice(0)
  }
}

export interface Started {
  readonly server: RunningServer
  readonly url: string
  readonly out: string[]
  readonly err: string[]
  readonly reloads: Queue<ReloadOutcome>
  readonly saves: Queue<SaveResult | Error>
  /** Asks for a save, as SIGUSR2 does. */
  readonly saveNow: () => void
  /** Stops the server; resolves to the exit code. */
  readonly stop: () => Promise<number>
}

/** Starts `argv` (a `serve` command line) on a free port; `extra` overrides the CliIo. */
export async function startServe(argv: string[], extra: Partial<CliIo> = {}): Promise<Started> {
  const out: string[] = []
  const err: string[] = []
  const reloads = new Queue<ReloadOutcome>()
  const saves = new Queue<SaveResult | Error>()
  let stop!: () => void
  let saveNow: () => void = () => {
    throw new Error('no --save')
  }
  let listening!: (s: RunningServer) => void
  const started = new Promise<RunningServer>((resolve) => (listening = resolve))
  const done = main([...argv, '--port', '0'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stopSignal: new Promise((resolve) => (stop = resolve)),
    onListening: (s) => listening(s),
    onReload: reloads.push,
    onSave: saves.push,
    saveSignal: (save) => {
      saveNow = save
      return () => {}
    },
    watchDebounceMs: 20,
    ...extra,
  })
  const server = await Promise.race([
    started,
    done.then((code) => {
      throw new Error(`exited with ${code}: ${err.join('\n')}`)
    }),
  ])
  return {
    server,
    url: server.url,
    out,
    err,
    reloads,
    saves,
    saveNow: () => saveNow(),
    stop: () => {
      stop()
      return done
    },
  }
}

/**
 * The next reload outcome that `wanted` accepts. One write can be seen as several events (a
 * truncate, then the bytes) that the debounce does not always join: the extra ones end as
 * `unchanged` (read again after the reload) or `failed` (a half-written file), and are skipped. A
 * `reloaded` that is not the one wanted is a real mistake and fails the test.
 */
export async function nextOutcome(
  reloads: Queue<ReloadOutcome>,
  wanted: (o: ReloadOutcome) => boolean,
): Promise<ReloadOutcome> {
  for (;;) {
    const outcome = await reloads.next()
    if (wanted(outcome)) return outcome
    if (outcome.kind === 'reloaded') throw new Error('reloaded when no reload was expected')
  }
}

/** The message of a failed reload; empty for the other outcomes. */
export const message = (o: ReloadOutcome): string =>
  o.kind === 'failed' ? (o.error as Error).message : ''
