/**
 * @module `entistore serve --workers N`: one primary process forks N workers (node:cluster) that
 * share one port, each running the ordinary `serve` with its own datastore in memory. Coherent
 * only when the data is shared (`--postgres`): the CLI refuses N > 1 without it.
 *
 * The primary loads nothing and answers no request. It:
 * - prints what one worker says while it starts (the URL line keeps its usual form, printed once),
 *   then a line saying how many workers serve; the other workers' start-up lines, identical, are
 *   dropped, and every line said afterwards is printed with the worker's number;
 * - starts a worker again when one exits unexpectedly, after a delay that doubles with every
 *   recent exit, and gives up (stopping the others, exit 1) past a number of exits in a window: a
 *   worker that cannot stay up is a bug or a broken environment, not something to spin on;
 * - on the stop signal, asks every worker to stop gracefully (SIGTERM: each finishes its requests
 *   within its `--shutdown-timeout`), kills those still running after `stopTimeoutMs`, and exits
 *   0 only when every worker stopped cleanly.
 * A worker that fails before listening (a bad file) stops the start: its lines are printed and
 * the primary exits with its code, as a single process would.
 *
 * The primary also keeps the web server quotas' counts of all workers (quota-totals.ts): each
 * worker tells it what it counted, and hears what the others did (`PrimaryMessage`); and, for
 * `nbSessions` and `nbGuestSessions`, the sessions each holds, summed the same way.
 *
 * Workers talk to the primary through cluster's IPC channel (`WorkerMessage`); `superviseWorkers`
 * takes the forking as a function, so that tests drive it with fake workers and a fake clock.
 */
import cluster from 'node:cluster'
import type { CountEntry, SessionTotals } from '@entistore/rest'
import { realSchedule, type Schedule } from './chaos.js'
import { QuotaTotals, WorkerSessions } from './quota-totals.js'

/** What a worker sends the primary. */
export type WorkerMessage =
  | { readonly entistore: 'line'; readonly stream: 'out' | 'err'; readonly line: string }
  | { readonly entistore: 'ready'; readonly url: string }
  /** What its web server quotas counted in one turn (quota-totals.ts). */
  | { readonly entistore: 'counts'; readonly counts: readonly CountEntry[] }
  /** The sessions it holds now, when they changed. */
  | ({ readonly entistore: 'sessions' } & SessionTotals)

/** What the primary sends a worker: the other workers' quota counts by key, or their sessions. */
export type PrimaryMessage =
  | { readonly entistore: 'others'; readonly counts: readonly CountEntry[] }
  | ({ readonly entistore: 'sessions' } & SessionTotals)

/** What the primary hears of one worker. */
export interface WorkerEvents {
  message(message: unknown): void
  /** The process ended: its exit code, or the signal that ended it. */
  exit(code: number | null, signal: string | null): void
}

/** The primary's hold on one worker. */
export interface WorkerControl {
  /** cluster's worker id: 1, 2, … in the order of forking, never reused. */
  readonly id: number
  readonly pid: number | undefined
  /** Asks for a graceful stop (SIGTERM). */
  stop(): void
  /** Ends it now (SIGKILL). */
  kill(): void
  /** Sends it a message (absent: it hears none). */
  send?(message: PrimaryMessage): void
}

/** Starts one worker, telling `events` what it says and when it ends. */
export type ForkWorker = (events: WorkerEvents) => WorkerControl

export interface RestartPolicy {
  /** The delay before the first restart; each recent exit doubles it. @default 100 */
  readonly firstDelayMs?: number
  /** @default 10_000 */
  readonly maxDelayMs?: number
  /** More unexpected exits than this within `windowMs` stop everything. @default 5 */
  readonly maxExits?: number
  /** @default 60_000 */
  readonly windowMs?: number
}

export interface SuperviseOptions {
  readonly count: number
  readonly fork: ForkWorker
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  /** Resolves when every worker should stop. */
  readonly stopSignal: Promise<unknown>
  /** How long workers get to stop before they are killed (their shutdown timeout, and a margin). */
  readonly stopTimeoutMs: number
  readonly restart?: RestartPolicy
  /** @default setTimeout */
  readonly schedule?: Schedule
  /** Milliseconds now, for the restart window. @default Date.now */
  readonly now?: () => number
}

interface Worker {
  readonly control: WorkerControl
  ready: boolean
  /** Lines said before it was ready, kept to print if it fails then. */
  readonly lines: { stream: 'out' | 'err'; line: string }[]
  /** The worker whose start-up lines are printed as they come. */
  readonly speaker: boolean
  /** The worker it replaces, for the line saying so. */
  readonly replaces: number | undefined
}

const isMessage = (m: unknown): m is WorkerMessage =>
  typeof m === 'object' && m !== null && 'entistore' in m

/** `code 1`, `signal SIGKILL` */
const how = (code: number | null, signal: string | null): string =>
  signal === null ? `code ${code}` : `signal ${signal}`

/** Runs `count` workers until `stopSignal`; resolves to the primary's exit code. */
export function superviseWorkers(options: SuperviseOptions): Promise<number> {
  const { count, out, err } = options
  const schedule = options.schedule ?? realSchedule
  const now = options.now ?? Date.now
  const policy = {
    firstDelayMs: 100,
    maxDelayMs: 10_000,
    maxExits: 5,
    windowMs: 60_000,
    ...options.restart,
  }
  const workers = new Set<Worker>()
  const totals = new QuotaTotals(now)
  const sessions = new WorkerSessions()
  const restarts = new Set<() => void>()
  const exits: number[] = []
  let phase: 'starting' | 'running' | 'stopping' = 'starting'
  let code = 0
  let cancelKill: (() => void) | undefined
  let done!: (code: number) => void
  const finished = new Promise<number>((resolve) => (done = resolve))

  const say = (stream: 'out' | 'err', line: string): void => (stream === 'out' ? out : err)(line)

  const start = (speaker: boolean, replaces?: number): void => {
    // The events may come before fork returns (a fake worker): `worker` is set first thing.
    let worker!: Worker
    const control = options.fork({
      message: (m) => (isMessage(m) ? heard(worker, m) : undefined),
      exit: (c, signal) => exited(worker, c, signal),
    })
    worker = { control, ready: false, lines: [], speaker, replaces }
    workers.add(worker)
  }

  /** Worker `from`'s sessions are `mine` now: every other worker hears the sum of the others'. */
  const sessionsOf = (from: number, mine: SessionTotals | undefined): void => {
    const toHear = sessions.set(from, mine)
    for (const w of workers) {
      const others = toHear(w.control.id)
      if (others !== undefined) w.control.send?.({ entistore: 'sessions', ...others })
    }
  }

  const heard = (worker: Worker, m: WorkerMessage): void => {
    if (m.entistore === 'sessions') return sessionsOf(worker.control.id, m)
    if (m.entistore === 'counts') {
      const toHear = totals.add(worker.control.id, m.counts)
      for (const w of workers) {
        const counts = toHear(w.control.id)
        if (counts !== undefined) w.control.send?.({ entistore: 'others', counts })
      }
      return
    }
    if (m.entistore === 'line') {
      if (worker.ready) say(m.stream, `[worker ${worker.control.id}] ${m.line}`)
      else if (worker.speaker) say(m.stream, m.line)
      else worker.lines.push({ stream: m.stream, line: m.line })
      return
    }
    worker.ready = true
    worker.lines.length = 0
    // One started again hears of the sessions the others hold.
    if (sessions.told)
      worker.control.send?.({ entistore: 'sessions', ...sessions.othersOf(worker.control.id) })
    if (phase === 'stopping') return
    if (worker.replaces !== undefined)
      out(
        `Worker ${worker.control.id} (pid ${worker.control.pid}) serves, in place of worker ${worker.replaces}`,
      )
    if (phase === 'starting' && [...workers].every((w) => w.ready)) {
      phase = 'running'
      const port = new URL(m.url).port
      const pids = [...workers].map((w) => w.control.pid).join(', ')
      out(
        `Workers: ${count} processes share port ${port} (pids ${pids}; primary ${process.pid}); ` +
          'one that exits is started again, SIGTERM stops them all',
      )
    }
  }

  const exited = (worker: Worker, c: number | null, signal: string | null): void => {
    workers.delete(worker)
    const { id, pid } = worker.control
    if (sessions.told) sessionsOf(id, undefined)
    if (phase === 'stopping') {
      // SIGTERM before the worker listened to it (still loading) ends it as asked: nothing lost.
      if (c !== 0 && signal !== 'SIGTERM') code = 1
      if (workers.size === 0) finish()
      return
    }
    if (phase === 'starting' && !worker.ready) {
      // It could not start (a file, the port): say why, once, and stop, as one process would.
      for (const { stream, line } of worker.lines) say(stream, line)
      err(`entistore: worker ${id} (pid ${pid}) exited with ${how(c, signal)} before listening`)
      stopAll(c === null || c === 0 ? 1 : c)
      return
    }
    const at = now()
    exits.push(at)
    while (exits[0]! <= at - policy.windowMs) exits.shift()
    if (exits.length > policy.maxExits) {
      err(
        `entistore: worker ${id} (pid ${pid}) exited with ${how(c, signal)}: ` +
          `${exits.length} exits within ${policy.windowMs / 1000} s, stopping`,
      )
      stopAll(1)
      return
    }
    const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** (exits.length - 1))
    err(
      `entistore: worker ${id} (pid ${pid}) exited with ${how(c, signal)}; ` +
        `starting another in ${delay} ms`,
    )
    const cancel = schedule(() => {
      restarts.delete(cancel)
      start(false, id)
    }, delay)
    restarts.add(cancel)
  }

  const finish = (): void => {
    cancelKill?.()
    done(code)
  }

  const stopAll = (exitCode: number): void => {
    if (phase === 'stopping') return
    phase = 'stopping'
    code = exitCode
    for (const cancel of restarts) cancel()
    restarts.clear()
    if (workers.size === 0) return finish()
    for (const w of workers) w.control.stop()
    cancelKill = schedule(() => {
      err(
        `entistore: ${workers.size} worker(s) still running ${options.stopTimeoutMs} ms after ` +
          'SIGTERM: killed',
      )
      code = 1
      for (const w of workers) w.control.kill()
    }, options.stopTimeoutMs)
  }

  for (let i = 0; i < count; i++) start(i === 0)
  void options.stopSignal.then(() => stopAll(code))
  return finished
}

/** Forks a cluster worker running this process's script and arguments (node:cluster's default). */
export const clusterFork: ForkWorker = (events) => {
  const worker = cluster.fork()
  worker.on('message', events.message)
  worker.on('exit', events.exit)
  // A send to a worker that just died: its exit event tells the rest.
  worker.on('error', () => {})
  return {
    id: worker.id,
    pid: worker.process.pid,
    stop: () => worker.process.kill('SIGTERM'),
    kill: () => worker.process.kill('SIGKILL'),
    send: (message) => void worker.send(message),
  }
}
