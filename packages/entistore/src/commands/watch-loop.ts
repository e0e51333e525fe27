/**
 * @module What `--watch` does for the commands that run once a change (`test --watch`, `bundle
 * --watch`): the files watched from before the first run, so that a change made while it runs is
 * heard; one run at a time, a change during a run running it once more after it; a run whose
 * project or data file cannot be loaded said (exit code 1) and the next change waited for; a
 * watch that fails said; until the stop signal (SIGINT, SIGTERM), then the last run's exit code.
 */
import { FileError } from '../files/file-error.js'
import type { CliIo } from './cli-io.js'

export interface WatchLoop {
  /** The files and folders watched (a folder stands for the files in it: serve/watch.ts). */
  readonly files: readonly string[]
  /** One run; its exit code. `first`: the run at start, before any change. */
  readonly run: (first: boolean) => Promise<number>
  /** Told each run's exit code (tests wait on it). */
  readonly onRun?: (code: number) => void
  /** The command, for the line that says watching stopped: `entistore test`. */
  readonly command: string
  /** What is watched, for the line after the first run: `Watching <it> for changes`. */
  readonly watching: string
  /** Said after a file's error, what a failed run left: ` (project.js is left as it was)`. */
  readonly afterFileError?: string
}

export async function whileWatching(loop: WatchLoop, io: CliIo): Promise<number> {
  const { watchFiles } = await import('../serve/watch.js')
  let code = 1
  let running: Promise<void> | undefined
  let again = false
  let first = true
  const guarded = async (isFirst: boolean): Promise<number> => {
    try {
      return await loop.run(isFirst)
    } catch (e) {
      if (!(e instanceof FileError)) throw e
      io.err(`entistore: ${e.message}${loop.afterFileError ?? ''}`)
      return 1
    }
  }
  const run = (): void => {
    if (running !== undefined) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        code = await guarded(first)
        first = false
        loop.onRun?.(code)
      } while (again)
    })().finally(() => (running = undefined))
  }
  const stop = watchFiles(loop.files, run, {
    debounceMs: io.watchDebounceMs ?? 100,
    onError: (e) => io.err(`${loop.command}: watching stopped: ${e.message}`),
  })
  run()
  await running
  io.out(`Watching ${loop.watching} for changes (Ctrl-C to stop)`)
  const { stopSignal } = await import('../serve/signals.js')
  await (io.stopSignal ?? stopSignal())
  stop()
  await running
  return code
}
