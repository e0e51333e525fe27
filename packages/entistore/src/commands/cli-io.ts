/**
 * @module What a command talks to: where its lines go, and the hooks tests use to drive a
 * server the CLI started (its stop signal, its saves and reloads, fake workers, a manual clock).
 * The process's own stdout, stderr and signals by default (cli.ts).
 */
import type { Schedule } from '../serve/chaos.js'
import type { LoadFilesOptions } from '../load/load-files.js'
import type { SaveResult } from '../persist/save.js'
import type { RunningServer, ServeOptions } from '../serve/serve.js'
import type { ReloadOutcome } from '../serve/watch.js'
import type { ForkWorker } from '../serve/workers.js'
import type { RequestLogEntry, RequestLogFormat } from '../serve/request-log.js'

export interface CliIo {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  /**
   * Where the request log's lines go (`serve`, without --quiet). @default out; in a worker of
   * `--workers N`, the process's own stdout (worker-io.ts)
   */
  readonly log?: (line: string) => void
  /**
   * Takes the request log's entries instead of `log` (the CLI's own io: its logging thread, which
   * makes and writes the lines off the serving thread: log-output/threaded-log.ts). `worker`: the
   * cluster worker's number under `--workers`. @default lines made here, given to `log`
   */
  readonly requestLog?: (
    format: RequestLogFormat,
    worker: number | undefined,
  ) => Promise<(entry: RequestLogEntry) => void>
  /** Resolves when the server should stop. @default the first SIGINT or SIGTERM */
  readonly stopSignal?: Promise<void>
  /** Told once `serve` loaded its files, before it serves them (tests change the files there). */
  readonly onLoaded?: () => void
  /** Receives the server once it listens (tests use it). */
  readonly onListening?: (server: RunningServer) => void
  /**
   * Calls `save` whenever the data should be saved now (`--save`); returns the function that stops
   * listening. @default on SIGUSR2
   */
  readonly saveSignal?: (save: () => void) => () => void
  /** Told about every `--save` (tests wait on it). */
  readonly onSave?: (result: SaveResult | Error) => void
  /** Told about every `--watch` reload (tests wait on it). */
  readonly onReload?: (outcome: ReloadOutcome) => void
  /**
   * Runs `fn` after `ms` milliseconds, for `--delay` (tests end delays themselves); returns the
   * function that cancels it. @default setTimeout
   */
  readonly schedule?: Schedule
  /** Told the exit code of each run of `test --watch` and `bundle --watch` (tests wait on it). */
  readonly onWatchRun?: (code: number) => void
  /** How long `--watch` waits after the last change before reloading. @default 100 */
  readonly watchDebounceMs?: number
  /** Starts one worker of `--workers N` (tests give fake ones). @default node:cluster's fork */
  readonly forkWorker?: ForkWorker
  /**
   * Options of the datastore each `serve` process loads (a manual clock, how session ids are
   * made), for tests that serve through the CLI's own path what they serve in process (the
   * conformance suite against `--workers 3`). The workers of `--workers N` run the same script,
   * so each gets them too. @default none
   */
  readonly datastoreOptions?: Pick<LoadFilesOptions, 'clock' | 'sessions'>
  /**
   * For the same tests: the REST handler's body limits, and a wrapper put around its interface,
   * outside the cluster's. @default none
   */
  readonly serveOptions?: Pick<ServeOptions, 'maxBodyBytes' | 'maxUploadBytes' | 'wrapCore'>
}
