/**
 * @module Approximate nearest-neighbour indexes of vector attributes (an Entistore extension: 4D
 * answers vector searches exactly, and so does Entistore unless a search asks for approximation).
 *
 * The index itself comes from a package (HNSW through `hnswlib-node`: the `entistore` package
 * loads it when it is installed, as pictures load sharp); core only says what it needs
 * (`NearestIndex`) and keeps one in step with the data (`NearestIndexes`): built the first time a
 * search asks for it, in steps that let other work in, then told of every commit. A search asked
 * while it is being built scans exactly; a restore of the data drops the indexes (the next search
 * builds them again).
 */
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { Vector, type VectorMetric } from '../values/vector.js'

/** What an index is made for. */
export interface NearestIndexSpec {
  readonly dataClass: string
  readonly attribute: string
  readonly dims: number
  readonly metric: VectorMetric
  /** Rows it should have room for at first (it grows past it). */
  readonly capacity: number
}

/** An approximate nearest-neighbour index of one attribute for one metric, by row id. */
export interface NearestIndex {
  /** Adds (or replaces) row `rowId`'s vector. */
  add(rowId: number, vector: Float32Array): void
  /** Removes row `rowId` (a row it does not hold is ignored). */
  remove(rowId: number): void
  /** Up to `k` row ids, the nearest first, searching with a candidate list of `ef` (≥ k). */
  search(query: Float32Array, k: number, ef: number): number[]
  /** For plans: `HNSW (hnswlib-node, M=16)`. */
  readonly description: string
}

/** Makes an index (`undefined` when no package provides one: searches then stay exact). */
export type NearestIndexFactory = (spec: NearestIndexSpec) => NearestIndex

/** What the indexes read of the data. */
export interface NearestSource {
  /** The live row ids of `dataClass` and the reader of an attribute by row id. */
  rows(dataClass: string): readonly number[]
  reader(dataClass: string, attribute: string): (rowId: number) => unknown
  /**
   * Tells `listener` of each committed change of a row (its values, undefined once deleted), or
   * that the data was restored to an earlier moment (`restored`); answers the stop.
   */
  onChange(
    listener: (
      dataClass: string,
      rowId: number,
      values: Readonly<Record<string, unknown>> | undefined,
      restored: boolean,
    ) => void,
  ): () => void
  /** Runs `step` until it answers true, letting other work in between (setImmediate). */
  inSteps(step: () => boolean): void
}

/**
 * How long one turn of a build may add rows, in milliseconds, and how many it adds between two
 * looks at the time: an HNSW insert costs about a millisecond at 256 dimensions, so a fixed
 * count of rows a turn held the event loop for seconds.
 */
const BUILD_SLICE_MS = 4
const BUILD_CHECK = 8

const now = (): number => globalThis.performance.now()

interface Entry {
  readonly index: NearestIndex
  readonly attribute: StorageAttributeDef
  /** Row ids still to add (the build), from `next`; done once next reaches its end. */
  readonly pending: readonly number[]
  next: number
  /** Resolves once built. */
  readonly built: Promise<void>
  /** The dimensions of the index: a vector of another size is not in it. */
  readonly dims: number
}

/** The state of the index a search would use. */
export type NearestState =
  | { readonly kind: 'ready'; readonly index: NearestIndex }
  | { readonly kind: 'building'; readonly done: number; readonly of: number }
  | { readonly kind: 'none'; readonly why: string }

export class NearestIndexes {
  readonly #factory: NearestIndexFactory | undefined
  readonly #source: NearestSource
  readonly #entries = new Map<string, Entry>()
  #stop: (() => void) | undefined

  constructor(factory: NearestIndexFactory | undefined, source: NearestSource) {
    this.#factory = factory
    this.#source = source
  }

  /**
   * The index of `attr` of `dc` for `metric` with `dims` dimensions: ready, or being built (the
   * build starts now if it had not), or none (no package, or no vector to size it by).
   */
  state(dc: DataClassDef, attr: StorageAttributeDef, metric: VectorMetric): NearestState {
    if (!this.#factory)
      return {
        kind: 'none',
        why: 'no approximate index package installed (npm install hnswlib-node)',
      }
    const id = `${dc.name}.${attr.name}.${metric}`
    let entry = this.#entries.get(id)
    if (!entry) {
      const made = this.#start(dc, attr, metric)
      if (!made) return { kind: 'none', why: 'no vector stored yet' }
      entry = made
      this.#entries.set(id, entry)
    }
    if (entry.next < entry.pending.length)
      return { kind: 'building', done: entry.next, of: entry.pending.length }
    return { kind: 'ready', index: entry.index }
  }

  /**
   * Settles once the index of `attr` for `metric` is built (its build started now if it had not);
   * at once when there is none to build.
   */
  ready(dc: DataClassDef, attr: StorageAttributeDef, metric: VectorMetric): Promise<void> {
    this.state(dc, attr, metric)
    return this.#entries.get(`${dc.name}.${attr.name}.${metric}`)?.built ?? Promise.resolve()
  }

  /** Drops every index (a restore, or the datastore closing). */
  clear(): void {
    this.#entries.clear()
    this.#stop?.()
    this.#stop = undefined
  }

  #start(dc: DataClassDef, attr: StorageAttributeDef, metric: VectorMetric): Entry | undefined {
    const rows = this.#source.rows(dc.name)
    const read = this.#source.reader(dc.name, attr.name)
    let dims = 0
    for (const r of rows) {
      const v = read(r)
      if (v instanceof Vector) {
        dims = v.length
        break
      }
    }
    if (dims === 0) return undefined
    const index = this.#factory!({
      dataClass: dc.name,
      attribute: attr.name,
      dims,
      metric,
      capacity: Math.max(1024, rows.length),
    })
    let done = (): void => undefined
    const built = new Promise<void>((resolve) => (done = resolve))
    const entry: Entry = { index, attribute: attr, pending: rows, next: 0, dims, built }
    this.#listen()
    this.#source.inSteps(() => {
      const until = now() + BUILD_SLICE_MS
      const rows = entry.pending
      while (entry.next < rows.length) {
        const end = Math.min(rows.length, entry.next + BUILD_CHECK)
        for (let i = entry.next; i < end; i++) add(entry, rows[i]!, read(rows[i]!))
        entry.next = end
        if (now() >= until) break
      }
      if (entry.next < rows.length) return false
      done()
      return true
    })
    return entry
  }

  // One listener for every index: a changed row is replaced in the indexes of its dataclass (a row
  // the build has not reached yet is added by the build, as it reads the row then).
  #listen(): void {
    if (this.#stop) return
    this.#stop = this.#source.onChange((dataClass, rowId, values, restored) => {
      if (restored) return this.clear()
      for (const [id, entry] of this.#entries) {
        if (!id.startsWith(`${dataClass}.${entry.attribute.name}.`)) continue
        if (values === undefined) entry.index.remove(rowId)
        else add(entry, rowId, values[entry.attribute.name])
      }
    })
  }
}

function add(entry: Entry, rowId: number, value: unknown): void {
  if (value instanceof Vector && value.length === entry.dims)
    entry.index.add(rowId, value.toFloat32Array())
  else entry.index.remove(rowId)
}
