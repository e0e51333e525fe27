/**
 * @module A hash index: comparison key → row ids. Equality and IN lookups in O(1) whatever the
 * table size. String keys are folded, so `name = 'élodie'` finds "Elodie" as the query engine's
 * equality does. Null values are indexed too (under `null`) for `= null`.
 *
 * An open-addressing table (linear probing) of the distinct keys, in two typed arrays: each slot
 * holds the row id (plus one) of a key held by one row, or the number of a group (row ids) for a
 * key held by several, and beside it the key's 32-bit hash. The keys themselves are not held: a
 * slot's key is read from its (first) row through the index's key reader, and only when the hashes
 * match. A Map entry per key cost 37 bytes a row on 200,000 unique codes (the Map's table alone),
 * this 8 bytes a slot, with at least one slot in five free.
 *
 * A group is a plain array while it is small, and past GROUP_TYPED rows an Int32Array outside the
 * JS heap (RowList): a full garbage collection marks every slot of every array it finds, and at 10M
 * rows the groups of three hash indexes (a few hundred keys each) were 300 MB of small integers on
 * the heap, most of the 200-500 ms each full collection held the event loop.
 *
 * Writes never read the row they change: `remove` knows a key held by one row by its row id, and
 * reads another row of a group (the table may already hold a row's new value, or none). Growing
 * and deleting move slots by their stored hashes, reading no key.
 */
import { DeferredRowIds } from '../sets/row-ids.js'
import type { SortKey } from '../values/compare.js'
import { equalLazy, foldLazy } from '../values/lazy-fold.js'
import {
  type RowIds,
  RowList,
  concatBuckets,
  type Group,
  at,
  setAt,
  view,
  toArray,
  EMPTY,
  EMPTY_GROUP,
  GROUP_TYPED,
} from './hash-groups.js'
import { hashKey, moveSlots, type KeyReader, EMPTY_SLOT } from './hash-key.js'
// A slot value <= GROUP holds group GROUP - slot, i.e. group g is stored as GROUP - g.
const GROUP = -1
const MIN_CAPACITY = 16
// A move to a larger table under way (HashIndex.prepare): its slots are written (faulted in) up to
// `touched`, and the current table's slots before `next` are moved.
interface Growing {
  readonly slots: Int32Array<ArrayBuffer>
  readonly hashes: Int32Array<ArrayBuffer>
  touched: number
  next: number
}

/** How many slots `prepare` moves between two asks of `more()` by default: about 50 µs. */
export const GROW_PIECE = 4096

export class HashIndex {
  readonly attribute: string
  readonly folds: boolean
  // Replaced while `fill` runs by a reader of the keys it was given.
  #read: KeyReader
  // A power of two long; EMPTY_SLOT, a row id + 1, or GROUP - g.
  #slots = new Int32Array(MIN_CAPACITY)
  #hashes = new Int32Array(MIN_CAPACITY)
  #used = 0
  // Row ids of the keys held by several rows; freed numbers are in #free, their arrays empty.
  #groups: Group[] = []
  #free: number[] = []
  // After `copy`, the groups are shared with the copy until written: group g is this index's own
  // when owned[g] is 1 or g >= owned.length. Undefined: all are.
  #owned: Uint8Array | undefined
  // A move to a larger table begun by `prepare` and not finished: the slots of the current table
  // before `next` are in `slots`/`hashes` too. The current table answers reads meanwhile; a write
  // finishes the move first (#settle), as it could move a slot already moved.
  #growing: Growing | undefined

  constructor(attribute: string, folds: boolean, read: KeyReader) {
    this.attribute = attribute
    this.folds = folds
    this.#read = read
  }

  /** Number of distinct keys. */
  get distinct(): number {
    return this.#used
  }

  /** Whether a move to a larger table, begun by `prepare`, is under way. */
  get growing(): boolean {
    return this.#growing !== undefined
  }

  /**
   * Makes room for `n` distinct keys in pieces: moves the keys to a larger table while `more()`
   * says so (asked every `piece` slots) and returns whether the room is made. Call it again
   * to go on; reads meanwhile answer from the current table, and a write finishes the move at once. What a build in slices calls before
   * adding a batch of rows: growing by doubling inside `add` moves every key in one piece, 84 ms
   * for the 6.5M distinct names of 10M rows, measured holding the server's event loop.
   */
  prepare(n: number, more: () => boolean, piece = GROW_PIECE): boolean {
    if (this.#growing === undefined) {
      const capacity = this.#capacityFor(n)
      if (capacity <= this.#slots.length) return true
      const slots = new Int32Array(capacity)
      const hashes = new Int32Array(capacity)
      this.#growing = { slots, hashes, touched: 0, next: 0 }
    }
    const growing = this.#growing
    const old = this.#slots
    const oldHashes = this.#hashes
    const { slots, hashes } = growing
    // A new table's memory is the system's zero pages until first written: written at random by
    // the moves and adds after it, each of its pages cost a fault (a 16M-slot table, 40-50 ms
    // inside a few thousand adds). Written once in order first, a piece at a time.
    while (growing.touched < slots.length) {
      const end = Math.min(slots.length, growing.touched + piece * 16)
      slots.fill(EMPTY_SLOT, growing.touched, end)
      hashes.fill(0, growing.touched, end)
      growing.touched = end
      if (!more()) return false
    }
    while (growing.next < old.length) {
      const end = Math.min(old.length, growing.next + piece)
      moveSlots(old, oldHashes, growing.next, end, slots, hashes)
      growing.next = end
      if (end < old.length && !more()) return false
    }
    this.#slots = slots
    this.#hashes = hashes
    this.#growing = undefined
    return true
  }

  // Finishes a move begun by `prepare`: the other methods read and write the current table only.
  #settle(): void {
    if (this.#growing !== undefined) this.prepare(0, () => true)
  }

  #capacityFor(n: number): number {
    let capacity = this.#slots.length
    while (n * 5 > capacity * 4) capacity *= 2
    return capacity
  }

  /** Number of rows holding `key`. */
  count(key: SortKey): number {
    const s = this.#slots[this.#find(key, hashKey(key))]!
    return s === EMPTY_SLOT ? 0 : s > 0 ? 1 : this.#groups[GROUP - s]!.length
  }

  /** Row ids holding `key` (in no particular order). They may be shared: do not modify them. */
  get(key: SortKey): RowIds {
    const s = this.#slots[this.#find(key, hashKey(key))]!
    return s === EMPTY_SLOT ? EMPTY : s > 0 ? [s - 1] : view(this.#groups[GROUP - s]!)
  }

  /**
   * The row id of the one row holding `key`, -1 when none does, -2 when several do: a lookup by a
   * unique key with nothing allocated (`rows` makes an array of its one row).
   */
  only(key: SortKey): number {
    const s = this.#slots[this.#find(key, hashKey(key))]!
    return s === EMPTY_SLOT ? -1 : s > 0 ? s - 1 : -2
  }

  /** Row ids holding `key`, as a new array the caller owns. */
  rows(key: SortKey): number[] {
    const s = this.#slots[this.#find(key, hashKey(key))]!
    return s === EMPTY_SLOT ? [] : s > 0 ? [s - 1] : toArray(this.#groups[GROUP - s]!)
  }

  /**
   * The row ids holding any of `keys` (distinct keys), in one new array sized once: an IN's
   * buckets found, counted, then copied, where an array a key concatenated after copied each twice.
   */
  rowsOf(keys: readonly SortKey[]): number[] {
    const found: (number | Group)[] = []
    return concatBuckets(found, this.#bucketsOf(keys, false, found))
  }

  /**
   * The row ids holding any of `keys` (distinct keys), as `rowsOf` lists them but copied only when
   * read: the buckets are lent, and a write to a lent bucket first copies it (copy-on-write, as
   * after `copy`), so the list made later is the one of now. One bucket of several rows is not
   * copied even then: the list is the bucket itself (a view of it past GROUP_TYPED rows).
   */
  lendRowsOf(keys: readonly SortKey[]): DeferredRowIds | readonly number[] {
    const found: (number | Group)[] = []
    const total = this.#bucketsOf(keys, true, found)
    // None or one row: a list as cheap as the deferral (a unique key's answer).
    if (total <= 1) return total === 0 ? EMPTY : concatBuckets(found, total)
    if (found.length === 1) {
      const only = found[0] as Group
      return new DeferredRowIds(total, () => (only instanceof RowList ? only.view() : only))
    }
    return new DeferredRowIds(total, () => concatBuckets(found, total))
  }

  // Puts in `found` the buckets of `keys`: a row id for a key of one row, else its group (lent
  // when `lend`). Returns how many row ids they hold.
  #bucketsOf(keys: readonly SortKey[], lend: boolean, found: (number | Group)[]): number {
    let total = 0
    for (const key of keys) {
      const s = this.#slots[this.#find(key, hashKey(key))]!
      if (s === EMPTY_SLOT) continue
      if (s > 0) {
        found.push(s - 1)
        total++
      } else {
        const g = this.#groups[GROUP - s]!
        if (lend) this.#lend(GROUP - s)
        found.push(g)
        total += g.length
      }
    }
    return total
  }

  add(key: SortKey, rowId: number): void {
    this.#insert(key, rowId, false)
  }

  /**
   * Adds `rowId` under `key` unless a row holds `key` already: then false, and nothing is added. A
   * data load's unique claim: one probe, where `count` then `add` hashed and compared twice (the
   * claims of a unique name were 12% of a load, CPU profile).
   */
  addNew(key: SortKey, rowId: number): boolean {
    return this.#insert(key, rowId, true)
  }

  #insert(key: SortKey, rowId: number, onlyNew: boolean): boolean {
    this.#settle()
    const h = hashKey(key)
    if ((this.#used + 1) * 5 > this.#slots.length * 4) this.#resize(this.#slots.length * 2)
    const i = this.#find(key, h)
    const slots = this.#slots
    const s = slots[i]!
    if (s === EMPTY_SLOT) {
      slots[i] = rowId + 1
      this.#hashes[i] = h
      this.#used++
    } else if (onlyNew) return false
    else if (s > 0) slots[i] = GROUP - this.#newGroup(s - 1, rowId)
    else this.#push(GROUP - s, rowId)
    return true
  }

  remove(key: SortKey, rowId: number): void {
    this.#settle()
    const h = hashKey(key)
    const slots = this.#slots
    const hashes = this.#hashes
    const mask = slots.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!
      if (s === EMPTY_SLOT) return
      if (hashes[i] !== h) continue
      // A row is under one key: the slot holding it alone is that key's.
      if (s > 0) {
        if (s - 1 === rowId) return this.#vacate(i)
        continue
      }
      const g = this.#groups[GROUP - s]!
      const first = at(g, 0)
      if (!this.#holds(first !== rowId ? first : at(g, 1), key)) continue
      const found = g.lastIndexOf(rowId)
      if (found < 0) return
      const own = this.#own(GROUP - s)
      // Order inside a group does not matter: swap-remove keeps deletion O(1) after the search.
      const last = own.pop()!
      if (found < own.length) setAt(own, found, last)
      if (own.length === 1) {
        slots[i] = at(own, 0) + 1
        this.#freeGroup(GROUP - s)
      }
      return
    }
  }

  clear(): void {
    this.#growing = undefined
    this.#slots = new Int32Array(MIN_CAPACITY)
    this.#hashes = new Int32Array(MIN_CAPACITY)
    this.#used = 0
    this.#groups = []
    this.#free = []
    this.#owned = undefined
  }

  /**
   * Replaces the content with `keys[i]` held by `rows[i]` (bulk builds): the keys are compared as
   * given, not read back from the rows.
   */
  fill(keys: readonly SortKey[], rows: ArrayLike<number>): void {
    this.clear()
    let top = 0
    for (let i = 0; i < rows.length; i++) if (rows[i]! > top) top = rows[i]!
    const at = new Int32Array(top + 1)
    for (let i = 0; i < rows.length; i++) at[rows[i]!] = i
    const read = this.#read
    this.#read = (rowId) => keys[at[rowId]!]!
    try {
      this.#fillFromCounts(keys, rows, at)
    } finally {
      this.#read = read
    }
  }

  /**
   * `fill`'s work, in bulk: the distinct keys first, each in a slot under its first row, counting
   * the rows of each; then each group made once with room for its rows and filled in row order,
   * as `add` row by row would have left it. Added row by row, a key of many rows (a city, a
   * group's id) grew its group by doubling, moved it to an Int32Array at GROUP_TYPED rows and
   * doubled that. `at[rowId]` is the position of row `rowId` in `rows`.
   */
  #fillFromCounts(keys: readonly SortKey[], rows: ArrayLike<number>, at: Int32Array): void {
    const n = rows.length
    // The position in `rows` of the first row of each row's key, and the rows of each key by the
    // position of its first row.
    const head = new Int32Array(n)
    const counts = new Int32Array(n)
    let grouped = 0
    for (let i = 0; i < n; i++) {
      const key = keys[i]!
      const h = hashKey(key)
      if ((this.#used + 1) * 5 > this.#slots.length * 4) this.#resize(this.#slots.length * 2)
      const slot = this.#find(key, h)
      const s = this.#slots[slot]!
      if (s === EMPTY_SLOT) {
        this.#slots[slot] = rows[i]! + 1
        this.#hashes[slot] = h
        this.#used++
      }
      const j = s === EMPTY_SLOT ? i : at[s - 1]!
      head[i] = j
      counts[j] = counts[j]! + 1
      if (counts[j] === 2) grouped++
    }
    if (grouped === 0) return
    // A group for each key of several rows, numbered in the order of their first rows.
    const groupOf = new Int32Array(n)
    const groups = this.#groups
    for (let j = 0; j < n; j++) {
      const c = counts[j]!
      if (c < 2) continue
      groupOf[j] = groups.length
      groups.push(c > GROUP_TYPED ? RowList.sized(c) : [])
    }
    for (let i = 0; i < n; i++) {
      const j = head[i]!
      if (counts[j]! > 1) groups[groupOf[j]!]!.push(rows[i]!)
    }
    // The slot of each grouped key, found again (one probe a key of several rows), names its group.
    for (let j = 0; j < n; j++) {
      if (counts[j]! < 2) continue
      const key = keys[j]!
      this.#slots[this.#find(key, hashKey(key))] = GROUP - groupOf[j]!
    }
  }

  /**
   * An independent copy (store snapshots): the slots are copied, a memcpy; the groups are shared
   * until either side writes one, which copies it first. Reads the keys with the same reader.
   */
  copy(): HashIndex {
    const out = new HashIndex(this.attribute, this.folds, this.#read)
    out.#slots = this.#slots.slice()
    out.#hashes = this.#hashes.slice()
    out.#used = this.#used
    out.#groups = this.#groups.slice()
    out.#free = this.#free.slice()
    const n = this.#groups.length
    this.#owned = n === 0 ? undefined : new Uint8Array(n)
    out.#owned = n === 0 ? undefined : new Uint8Array(n)
    return out
  }

  /** Every (key, row ids) pair, for consistency checks; texts folded. */
  *entries(): IterableIterator<[SortKey, number[]]> {
    const slots = this.#slots
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!
      if (s === EMPTY_SLOT) continue
      const rows = s > 0 ? [s - 1] : toArray(this.#groups[GROUP - s]!)
      const key = this.#read(rows[0]!)
      yield [typeof key === 'string' && this.folds ? foldLazy(key) : key, rows]
    }
  }

  // The slot of `key` (hash `h`), or the free slot where it would go.
  #find(key: SortKey, h: number): number {
    const slots = this.#slots
    const hashes = this.#hashes
    const mask = slots.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!
      if (s === EMPTY_SLOT) return i
      if (hashes[i] === h && this.#holds(s > 0 ? s - 1 : at(this.#groups[GROUP - s]!, 0), key))
        return i
    }
  }

  // Whether row `rowId` holds `key`: compared where it is stored when it can be, else read.
  #holds(rowId: number, key: SortKey): boolean {
    const compare = this.#read.compare
    if (compare !== undefined && this.folds && typeof key === 'string') {
      const told = compare(rowId, key)
      if (told !== undefined) return told === 0
    }
    return this.#same(this.#read(rowId), key)
  }

  #same(a: SortKey, b: SortKey): boolean {
    if (a === b) return true
    if (typeof a === 'string') return this.folds && typeof b === 'string' && equalLazy(a, b)
    // NaN is NaN, as in a Map.
    return a !== a && b !== b
  }

  // Empties slot `i`, then moves back the slots after it that probing would no longer reach
  // (backward-shift deletion: no tombstones, so lookups never slow down after deletes).
  #vacate(i: number): void {
    const slots = this.#slots
    const hashes = this.#hashes
    const mask = slots.length - 1
    for (let j = (i + 1) & mask; slots[j] !== EMPTY_SLOT; j = (j + 1) & mask) {
      const home = hashes[j]! & mask
      // The entry at j stays when its home is cyclically within (i, j].
      if (i <= j ? i < home && home <= j : i < home || home <= j) continue
      slots[i] = slots[j]!
      hashes[i] = hashes[j]!
      i = j
    }
    slots[i] = EMPTY_SLOT
    this.#used--
  }

  #resize(capacity: number): void {
    const oldSlots = this.#slots
    const oldHashes = this.#hashes
    const slots = new Int32Array(capacity)
    const hashes = new Int32Array(capacity)
    moveSlots(oldSlots, oldHashes, 0, oldSlots.length, slots, hashes)
    this.#slots = slots
    this.#hashes = hashes
  }

  #newGroup(a: number, b: number): number {
    const g = this.#free.length > 0 ? this.#free.pop()! : this.#groups.length
    this.#groups[g] = [a, b]
    const owned = this.#owned
    if (owned !== undefined && g < owned.length) owned[g] = 1
    return g
  }

  #freeGroup(g: number): void {
    this.#groups[g] = EMPTY_GROUP
    this.#free.push(g)
  }

  // Marks group g as shared, so that the next write to it writes a copy (#own): a lent group is
  // never changed again. Groups numbered past #owned's end are owned: it grows to hold g's mark.
  #lend(g: number): void {
    let owned = this.#owned
    if (owned === undefined || g >= owned.length) {
      const grown = new Uint8Array(this.#groups.length).fill(1)
      if (owned !== undefined) grown.set(owned)
      this.#owned = owned = grown
    }
    owned[g] = 0
  }

  // Group g, made this index's own first if it is shared with a copy or lent.
  #own(g: number): Group {
    const owned = this.#owned
    if (owned !== undefined && g < owned.length && owned[g] === 0) {
      owned[g] = 1
      this.#groups[g] = this.#groups[g]!.slice()
    }
    return this.#groups[g]!
  }

  // Adds `rowId` to group g, moving it to an Int32Array once it reaches GROUP_TYPED rows.
  #push(g: number, rowId: number): void {
    const own = this.#own(g)
    if (own instanceof RowList || own.length < GROUP_TYPED) own.push(rowId)
    else {
      const list = RowList.from(own)
      list.push(rowId)
      this.#groups[g] = list
    }
  }
}
