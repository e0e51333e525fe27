/**
 * @module The UTF-8 bytes of entities as a read by key sends them (`GET /rest/Employee(3)`), kept
 * for the next read of the same version: a hot entity's reply is then a copy of bytes, not a
 * rendering (each value escaped by JSON.stringify) and an encoding. Writing a 600-byte entity
 * with a long accented text was about half of what the REST core spent on such a read.
 *
 * Bounded in bytes (an `lru-cache` with `maxSize`): the least recently read versions go first.
 * A version is let in only at its row's second read within a while (a doorkeeper: the last row read
 * at each of 65,536 places): reads spread over a table larger than the bound (random keys over
 * 200k rows) each paid an insertion and an eviction, and made the reads of a 32 MiB cache slower
 * than none (7.6 against 5.5 µs a read in process); a row read once is rendered as text, as
 * without a cache.
 * A version is named by its dataclass, row id and stamp, which no other version shares while the
 * data only moves forward; a restore can bring back an older stamp, so every write also drops the
 * bytes of the rows it changed, and a load or a restore drops them all (a commit listener, made
 * with the first bytes kept). Each version may be kept in several views (EntityWriter.viewOf):
 * the attributes written, as a session's rights and `$attributes` choose them. A dataclass with
 * computed attributes or aliases, whose values other data decides, is rendered each time.
 */
import { LRUCache } from 'lru-cache'
import type { Change, CommitInfo, DataClassDef, Datastore, Entity } from '@entistore/core'

/** The bytes a version was rendered to, with what names that version. */
interface Held {
  readonly stamp: number
  readonly timestamp: number
  readonly bytes: Uint8Array
}

// Places of the doorkeeper (a power of two): how many rows read once are remembered.
const DOOR_SLOTS = 65_536

// What a kept entry costs besides its bytes: the entry object, the Buffer's header, the cache's
// slot. Counted so that many tiny entities cannot hold far more than the bound says.
const ENTRY_OVERHEAD = 160

export class EntityTexts {
  readonly #ds: Datastore
  // By row (a number) for the view a reader who may see everything gets, else by view and row.
  readonly #cache: LRUCache<number | string, Held>
  // A dataclass's place in the schema: keys are numbers (row id × dataclasses + place), which the
  // cache's Map hashes without making a string per read.
  readonly #places = new Map<DataClassDef, number>()
  readonly #stride: number
  // The last row read at each place, as its key + 1 (0: none): who was read once already.
  readonly #door = new Int32Array(DOOR_SLOTS)
  #listening = false

  constructor(ds: Datastore, maxBytes: number) {
    this.#ds = ds
    this.#cache = new LRUCache<number | string, Held>({
      maxSize: maxBytes,
      sizeCalculation: (held) => held.bytes.byteLength + ENTRY_OVERHEAD,
    })
    ds.schema.dataClasses.forEach((def, i) => this.#places.set(def, i))
    this.#stride = Math.max(1, ds.schema.dataClasses.length)
  }

  /** Bytes now held (entries' overhead included), at most the bound. */
  get heldBytes(): number {
    return this.#cache.calculatedSize
  }

  /** Versions now held. */
  get size(): number {
    return this.#cache.size
  }

  /**
   * The bytes of `entity` in `view` when this version was kept, else `render()`'s text, kept as
   * bytes when its row was read recently before (the doorkeeper).
   */
  bytes(entity: Entity, render: () => string, view = ''): Uint8Array | string {
    const key = this.#key(entity.dataClass.def, entity.rowId)
    const at = view === '' ? key : `${view}:${key}`
    const held = this.#cache.get(at)
    if (held !== undefined && held.stamp === entity.stamp && held.timestamp === entity.timestamp)
      return held.bytes
    const text = render()
    // Fibonacci hashing: consecutive row ids land far apart.
    const slot = Math.imul(key | 0, 0x9e3779b1) >>> 16
    // Keys past 2^31 share their door with others (a row read once may then be let in).
    const mark = (key + 1) | 0
    if (this.#door[slot] !== mark) {
      this.#door[slot] = mark
      return text
    }
    const bytes = Buffer.from(text)
    if (!this.#listening) {
      this.#listening = true
      this.#ds.onCommit(this.#drop, { loadRows: false })
    }
    this.#cache.set(at, { stamp: entity.stamp, timestamp: entity.timestamp, bytes })
    return bytes
  }

  #key(def: DataClassDef, rowId: number): number {
    return rowId * this.#stride + (this.#places.get(def) ?? 0)
  }

  // Told of every commit, before any read sees it (the store's listeners run inside the commit).
  readonly #drop = (changes: readonly Change[], info: CommitInfo): void => {
    if (this.#cache.size === 0) return
    if (info.kind === 'load' || info.kind === 'restore') {
      this.#cache.clear()
      return
    }
    // Another view of a changed row stays until it is read (its stamp tells it is old) or
    // evicted: a row's stamp only grows between two restores, and a restore drops them all.
    for (const change of changes)
      if (change.op !== 'insert')
        this.#cache.delete(this.#key(change.table.def, change.before.rowId))
  }
}
