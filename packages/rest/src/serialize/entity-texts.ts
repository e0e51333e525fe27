/**
 * @module The texts of entities as a read by key sends them (`GET /rest/Employee(3)`), kept for
 * the next read of the same version: a hot entity's reply is then a text already made, not a
 * rendering (each value escaped by JSON.stringify). Writing a 600-byte entity with a long
 * accented text was about half of what the REST core spent on such a read.
 *
 * Texts, not their UTF-8 bytes: a small Buffer is a slice of an 8 KiB slab of node's pool, and one
 * slice kept holds its whole slab, so a cache of bytes that evicts and takes in entries held far
 * more than its bound (66.7 MB of ArrayBuffers for a 32 MiB bound after 1M random reads of 200k
 * rows, 3.3× the bytes it counted, and growing with the churn). A text is counted at two bytes a
 * character.
 *
 * Bounded in bytes (an `lru-cache` with `maxSize`): the least recently read versions go first.
 * A version is let in only at its row's third read within a while (a doorkeeper of two steps: the
 * last rows read once and twice at each of 65,536 places), and once the cache is full, only one
 * such row in eight (LET_IN_WHEN_FULL). Reads spread over a table larger than the bound gain
 * little from the cache (30% of them found their version, random keys over 200k rows) and paid an
 * insertion and an eviction for each row let in: letting rows in at their second read, the reads
 * were 1.0–1.4 µs slower than with no cache at all, now 0.4–0.9 µs (the doorkeeper's own work, in
 * process, 4 runs of 800k reads), while reads of which 80% go to 1% of the rows take 2.57 µs
 * against 3.44 without the cache.
 * A version is named by its dataclass, row id and stamp, which no other version shares while the
 * data only moves forward; a restore can bring back an older stamp, so every write also drops the
 * texts of the rows it changed, and a load or a restore drops them all (a commit listener, made
 * with the first text kept). Each version may be kept in several views (EntityWriter.viewOf):
 * the attributes written, as a session's rights and `$attributes` choose them. A dataclass with
 * computed attributes or aliases, whose values other data decides, is rendered each time.
 */
import { LRUCache } from 'lru-cache'
import type { Change, CommitInfo, DataClassDef, Datastore, Entity } from '@entistore/core'

/** The text a version was rendered to, with what names that version. */
interface Held {
  readonly stamp: number
  readonly timestamp: number
  readonly text: string
}

// Places of the doorkeeper (a power of two): how many rows read once are remembered.
const DOOR_SLOTS = 65_536
// A place's marks (see EntityTexts.#doors).
const LET_IN = 0
const ONCE = 1
const TWICE = 2

// What a kept entry costs besides its text (two bytes a character, what V8 keeps at most: one
// when every character is Latin-1, but telling which took a scan of each text let in): the entry
// object, the string's header, the cache's slot. Counted so that many tiny entities cannot hold
// far more than the bound says.
const ENTRY_OVERHEAD = 160

// Once the cache is full, one row in this many that passed the doorkeeper is let in. Letting one
// in pushes another out, which cost about 10 µs (the insertion, the eviction, and the collector
// carrying the new entry into the old generation): reads spread evenly over a table larger than
// the bound, 6% of them let in, were a microsecond slower than with no cache, for the 30% that
// found their version. A row read again and again still gets in after a few more reads.
const LET_IN_WHEN_FULL = 8

export class EntityTexts {
  readonly #ds: Datastore
  // By row (a number) for the view a reader who may see everything gets, else by view and row.
  readonly #cache: LRUCache<number | string, Held>
  // A dataclass's place in the schema: keys are numbers (row id × dataclasses + place), which the
  // cache's Map hashes without making a string per read.
  readonly #places = new Map<DataClassDef, number>()
  readonly #stride: number
  // At each place of the doorkeeper, three marks side by side (a read at random then waits for
  // one cache line, not three arrays' lines): the last row let in (LET_IN: the cache is asked only
  // for it), the last row read once (ONCE) and the last read twice (TWICE), each as its key + 1
  // (0: none). Most reads of a table larger than the bound are of rows not kept, and asking the
  // cache cost them about a microsecond (a lookup in a Map of some 76,000 entries, spread over
  // memory); a row let in and then pushed out of its place by another is rendered, not looked
  // up, until it is let in again.
  readonly #doors = new Int32Array(3 * DOOR_SLOTS)
  readonly #maxBytes: number
  // Rows read thrice that found the cache full (see LET_IN_WHEN_FULL).
  #candidates = 0
  #listening = false

  constructor(ds: Datastore, maxBytes: number) {
    this.#ds = ds
    this.#cache = new LRUCache<number | string, Held>({
      maxSize: maxBytes,
    })
    this.#maxBytes = maxBytes
    ds.schema.dataClasses.forEach((def, i) => this.#places.set(def, i))
    this.#stride = Math.max(1, ds.schema.dataClasses.length)
  }

  /** Bytes now counted (entries' overhead included), at most the bound. */
  get heldBytes(): number {
    return this.#cache.calculatedSize
  }

  /** Versions now held. */
  get size(): number {
    return this.#cache.size
  }

  /**
   * The text of `entity` in `view` when this version was kept, else `render()`'s, kept when its
   * row was read twice recently before (the doorkeeper).
   */
  text(entity: Entity, render: () => string, view = ''): string {
    const { dataClass, rowId, stamp, timestamp } = entity
    return this.textOf(dataClass.def, rowId, stamp, timestamp, render, view)!
  }

  /**
   * `text` for the version of row `rowId` of `def` with `stamp` and `timestamp`, read without its
   * entity (a row rendered from its load's columns). When `render` gives undefined (the caller
   * renders the row another way), so does this, and the row's reads are not counted.
   */
  textOf(
    def: DataClassDef,
    rowId: number,
    stamp: number,
    timestamp: number,
    render: () => string | undefined,
    view = '',
  ): string | undefined {
    const key = this.#key(def, rowId)
    // Fibonacci hashing: consecutive row ids land far apart.
    const door = 3 * (Math.imul(key | 0, 0x9e3779b1) >>> 16)
    // Keys past 2^31 share their door with others (a row read less often may then be let in).
    const mark = (key + 1) | 0
    const at = view === '' ? key : `${view}:${key}`
    const doors = this.#doors
    if (doors[door + LET_IN] === mark) {
      const held = this.#cache.get(at)
      if (held !== undefined && held.stamp === stamp && held.timestamp === timestamp)
        return held.text
    }
    const text = render()
    if (text === undefined) return undefined
    if (doors[door + TWICE] !== mark) {
      if (doors[door + ONCE] === mark) doors[door + TWICE] = mark
      else doors[door + ONCE] = mark
      return text
    }
    // Full: letting a version in pushes another out. One candidate in LET_IN_WHEN_FULL is.
    const size = 2 * text.length + ENTRY_OVERHEAD
    if (
      this.#cache.calculatedSize + size > this.#maxBytes &&
      ++this.#candidates % LET_IN_WHEN_FULL !== 0
    )
      return text
    if (!this.#listening) {
      this.#listening = true
      this.#ds.onCommit(this.#drop, { loadRows: false })
    }
    this.#cache.set(at, { stamp, timestamp, text }, { size })
    doors[door + LET_IN] = mark
    return text
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
