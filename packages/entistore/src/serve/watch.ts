/**
 * @module The CLI's `--watch`: the model and data files are loaded again when they change, and the
 * running server is pointed at the new datastore (RunningServer.replace): same port, same options.
 *
 * Changes are debounced: an editor's save (write, then rename, sometimes several writes) and a
 * script writing both files reload once, `debounceMs` after the last event. The directories are
 * watched rather than the files, because a file replaced by a rename (atomic saves, our own
 * `--save`) is a new file that a watch on the old one never sees. A reload that fails keeps the
 * previous datastore serving; a reload that finds the same bytes as the ones served does nothing.
 *
 * A folder among the files (a 4D project's Classes folder, a folder of CSV files) stands for the
 * files in it, not its subfolders: one added, changed or removed is a change of the folder.
 */
import { createHash } from 'node:crypto'
import { createReadStream, statSync, watch, type FSWatcher } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { Datastore } from '@entistore/core'

/** Whether `path` is a folder now (one that does not exist is taken as a file to come). */
const isFolder = (path: string): boolean =>
  statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false

/** The files directly in `folder`, sorted: what a watched folder stands for. */
async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(folder, e.name))
    .sort()
}

/** Timers, injectable so that a test decides when the debounce delay has passed. */
export interface Timers {
  readonly set: (fn: () => void, ms: number) => unknown
  readonly clear: (handle: unknown) => void
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** A debounced function: `cancel()` drops a call still waiting. */
export interface Debounced {
  (): void
  cancel(): void
}

/** Calls `fn` once `ms` have passed without another call. */
export function debounce(fn: () => void, ms: number, timers: Timers = realTimers): Debounced {
  let pending: unknown
  let armed = false
  const call = (): void => {
    if (armed) timers.clear(pending)
    armed = true
    pending = timers.set(() => {
      armed = false
      fn()
    }, ms)
  }
  return Object.assign(call, {
    cancel: () => {
      if (armed) timers.clear(pending)
      armed = false
    },
  })
}

export interface WatchOptions {
  /** @default 100 */
  readonly debounceMs?: number
  readonly timers?: Timers
  /**
   * Told when a watch fails (its directory deleted or no longer readable, the system out of
   * watches): watching stops, and whoever watched decides what to say. Without it, the error of
   * an FSWatcher would end the process.
   */
  readonly onError?: (error: Error) => void
  /** Makes one directory's watcher. @default fs.watch */
  readonly watch?: (
    dir: string,
    listener: (event: string, name: string | null) => void,
  ) => FSWatcher
}

/**
 * Calls `onChange` (debounced) when any of `files` is written, created, renamed over or deleted,
 * or, for a folder, any file in it.
 * Returns the function that stops watching: after it, `onChange` is not called any more, not even
 * for a change seen just before.
 */
export function watchFiles(
  files: readonly string[],
  onChange: () => void,
  options: WatchOptions = {},
): () => void {
  const changed = debounce(onChange, options.debounceMs ?? 100, options.timers)
  // Each directory watched, with the names heard in it (undefined: any, for a watched folder).
  const namesByDir = new Map<string, Set<string> | undefined>()
  for (const file of files) {
    const path = resolve(file)
    if (isFolder(path)) {
      namesByDir.set(path, undefined)
      continue
    }
    if (namesByDir.has(dirname(path)) && namesByDir.get(dirname(path)) === undefined) continue
    const names = namesByDir.get(dirname(path)) ?? new Set<string>()
    names.add(basename(path))
    namesByDir.set(dirname(path), names)
  }
  const watchers: FSWatcher[] = []
  let stopped = false
  const stop = (): void => {
    stopped = true
    changed.cancel()
    for (const w of watchers) w.close()
  }
  const makeWatcher = options.watch ?? ((dir, listener) => watch(dir, listener))
  try {
    for (const [dir, names] of namesByDir) {
      const watcher = makeWatcher(dir, (_event, name) => {
        // A null file name (some systems) could be any file: reloading is the safe answer.
        if (!stopped && (name === null || names === undefined || names.has(name))) changed()
      })
      watchers.push(watcher)
      watcher.on('error', (error: Error) => {
        if (stopped) return
        stop()
        options.onError?.(error)
      })
    }
  } catch (e) {
    // The second directory failing (ENOSPC) must not leave the first one watched.
    stop()
    throw e
  }
  return stop
}

/**
 * What tells a file's versions apart without reading it: inode, size, and the times of its last
 * write and status change, to the nanosecond (a rename over it, an edit in place, a write that
 * restores the old modification time: the status change time cannot be set back). A file that
 * cannot be read stands as itself; a folder, as the names and stamps of its files.
 */
export function fileStamps(files: readonly string[]): Promise<string[]> {
  const stamp = (f: string): Promise<string> =>
    stat(f, { bigint: true }).then(
      async (s) =>
        s.isDirectory()
          ? (await Promise.all((await filesIn(f)).map(async (g) => `${g}=${await stamp(g)}`))).join(
              '\n',
            )
          : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
      (e: NodeJS.ErrnoException) => `unreadable: ${e.code ?? e.message}`,
    )
  return Promise.all(files.map(stamp))
}

/** What one reload did. */
export type ReloadOutcome =
  | { readonly kind: 'reloaded'; readonly ds: Datastore }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'failed'; readonly error: unknown }

export interface ReloaderOptions {
  /** The files the served datastore is made from (model, then data if any). */
  readonly files: readonly string[]
  /** Makes a datastore from the files (loadDatastoreFiles); throws FileError for a bad one. */
  readonly load: () => Promise<Datastore>
  /** Serves the new datastore (RunningServer.replace). */
  readonly replace: (ds: Datastore) => void
  /** Told about each reload, whatever it did. */
  readonly onOutcome: (outcome: ReloadOutcome) => void
}

/**
 * Reloads the files on request, one reload at a time: a request during a reload runs once more
 * after it, so the last change is never missed and never loaded twice at once.
 */
export class Reloader {
  readonly #options: ReloaderOptions
  // A digest of each file's bytes as served.
  #served: readonly string[] | undefined
  #running: Promise<void> | undefined
  #again = false

  constructor(options: ReloaderOptions) {
    this.#options = options
  }

  /**
   * Records the files' current bytes as the ones served (at start). `loaded`: the files'
   * `fileStamps` taken before the served datastore was loaded from them. The digests are read
   * after the load (off the start-up's path), so a change made since would be taken as served and
   * never loaded: when the stamps read after the digests differ from `loaded`, nothing is taken
   * as served and the files are loaded again. Start watching before this, so that a change made
   * after it is heard.
   */
  async noteServed(loaded?: readonly string[]): Promise<void> {
    const digests = await this.#digests()
    if (loaded !== undefined) {
      const now = await fileStamps(this.#options.files)
      if (now.some((stamp, i) => stamp !== loaded[i])) {
        this.#served = undefined
        await this.request()
        return
      }
    }
    this.#served = digests
  }

  /**
   * Records that `file` now holds the bytes whose SHA-256 is `digest` (save.ts' `Written`), as
   * served: our own `--save` must not reload.
   */
  noteWritten(file: string, digest: string): void {
    const i = this.#options.files.findIndex((f) => resolve(f) === resolve(file))
    if (i < 0 || this.#served === undefined) return
    this.#served = this.#served.map((t, j) => (j === i ? digest : t))
  }

  /** Reloads now (or after the reload running now); resolves once done, never rejects. */
  request(): Promise<void> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    this.#running = this.#run()
      .then((outcome) => this.#report(outcome))
      .finally(() => {
        this.#running = undefined
        if (this.#again) {
          this.#again = false
          void this.request()
        }
      })
    return this.#running
  }

  /**
   * Tells onOutcome. A request runs from a file watcher, where nobody awaits it: what onOutcome
   * throws is told to it once more as a failed outcome, and then dropped rather than left to end
   * the process as an unhandled rejection.
   */
  #report(outcome: ReloadOutcome): void {
    const { onOutcome } = this.#options
    try {
      onOutcome(outcome)
    } catch (error) {
      if (outcome.kind === 'failed') return
      try {
        onOutcome({ kind: 'failed', error })
      } catch {
        // Nothing is left to tell it to.
      }
    }
  }

  /**
   * A digest of each file's bytes, read as a stream: a data file may be larger than a string can
   * be, and the event loop runs between its chunks. A file that cannot be read is left to load()
   * to report, with its name and the reason. A folder's digest is that of its files' names and
   * digests.
   */
  #digests(): Promise<string[]> {
    const digest = (f: string): Promise<string> =>
      isFolder(f)
        ? filesIn(f).then(
            async (inside) => {
              const hash = createHash('sha256')
              for (const g of inside) hash.update(`${basename(g)}\0${await digest(g)}\0`)
              return hash.digest('hex')
            },
            () => '\0',
          )
        : new Promise<string>((done) => {
            const hash = createHash('sha256')
            createReadStream(f)
              .on('data', (chunk) => hash.update(chunk))
              .on('end', () => done(hash.digest('hex')))
              .on('error', () => done('\0'))
          })
    return Promise.all(this.#options.files.map(digest))
  }

  async #run(): Promise<ReloadOutcome> {
    const { load, replace } = this.#options
    try {
      const texts = await this.#digests()
      if (this.#served !== undefined && texts.every((t, i) => t === this.#served![i]))
        return { kind: 'unchanged' }
      // A load or a replace that throws leaves the previous datastore served.
      const ds = await load()
      replace(ds)
      this.#served = texts
      return { kind: 'reloaded', ds }
    } catch (error) {
      return { kind: 'failed', error }
    }
  }
}
