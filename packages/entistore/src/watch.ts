/**
 * @module The CLI's `--watch`: the model and data files are loaded again when they change, and the
 * running server is pointed at the new datastore (RunningServer.replace): same port, same options.
 *
 * Changes are debounced: an editor's save (write, then rename, sometimes several writes) and a
 * script writing both files reload once, `debounceMs` after the last event. The directories are
 * watched rather than the files, because a file replaced by a rename (atomic saves, our own
 * `--save`) is a new file that a watch on the old one never sees. A reload that fails keeps the
 * previous datastore serving; a reload that finds the same bytes as the ones served does nothing.
 */
import { watch, type FSWatcher } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import type { Datastore } from '@entistore/core'

/** Timers, injectable so that a test decides when the debounce delay has passed. */
export interface Timers {
  readonly set: (fn: () => void, ms: number) => unknown
  readonly clear: (handle: unknown) => void
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** Calls `fn` once `ms` have passed without another call. */
export function debounce(fn: () => void, ms: number, timers: Timers = realTimers): () => void {
  let pending: unknown
  let armed = false
  return () => {
    if (armed) timers.clear(pending)
    armed = true
    pending = timers.set(() => {
      armed = false
      fn()
    }, ms)
  }
}

/**
 * Calls `onChange` (debounced) when any of `files` is written, created, renamed over or deleted.
 * Returns the function that stops watching.
 */
export function watchFiles(
  files: readonly string[],
  onChange: () => void,
  options: { readonly debounceMs?: number; readonly timers?: Timers } = {},
): () => void {
  const changed = debounce(onChange, options.debounceMs ?? 100, options.timers)
  const namesByDir = new Map<string, Set<string>>()
  for (const file of files) {
    const path = resolve(file)
    const names = namesByDir.get(dirname(path)) ?? new Set<string>()
    names.add(basename(path))
    namesByDir.set(dirname(path), names)
  }
  const watchers: FSWatcher[] = [...namesByDir].map(([dir, names]) =>
    // A null file name (some systems) could be any file: reloading is the safe answer.
    watch(dir, (_event, name) => {
      if (name === null || names.has(name)) changed()
    }),
  )
  return () => {
    for (const w of watchers) w.close()
  }
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
  #served: readonly string[] | undefined
  #running: Promise<void> | undefined
  #again = false

  constructor(options: ReloaderOptions) {
    this.#options = options
  }

  /** Records the files' current text as the one served (at start, and after our own `--save`). */
  async noteServed(): Promise<void> {
    this.#served = await this.#texts()
  }

  /** Records that `file` now holds `text`, as served: our own `--save` must not reload. */
  noteWritten(file: string, text: string): void {
    const i = this.#options.files.findIndex((f) => resolve(f) === resolve(file))
    if (i < 0 || this.#served === undefined) return
    this.#served = this.#served.map((t, j) => (j === i ? text : t))
  }

  /** Reloads now (or after the reload running now); resolves once done. */
  request(): Promise<void> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    this.#running = this.#run().finally(() => {
      this.#running = undefined
      if (this.#again) {
        this.#again = false
        void this.request()
      }
    })
    return this.#running
  }

  async #texts(): Promise<string[]> {
    // A file that cannot be read is left to load() to report, with its name and the reason.
    return Promise.all(this.#options.files.map((f) => readFile(f, 'utf8').catch(() => '\0')))
  }

  async #run(): Promise<void> {
    const { load, replace, onOutcome } = this.#options
    const texts = await this.#texts()
    if (this.#served !== undefined && texts.every((t, i) => t === this.#served![i])) {
      onOutcome({ kind: 'unchanged' })
      return
    }
    let ds: Datastore
    try {
      ds = await load()
    } catch (error) {
      onOutcome({ kind: 'failed', error })
      return
    }
    replace(ds)
    this.#served = texts
    onOutcome({ kind: 'reloaded', ds })
  }
}
