/**
 * @module The blocks of a sorted index (sorted-index.ts): its entries cut into runs of at most
 * `blockMax` consecutive entries, each run with arrays of its own, and the position of each run's
 * first entry. Here is what is done to the blocks as arrays, whatever the entries mean: make one,
 * grow one, split a full one, merge two small ones, mend them
 * after a delete, cut sorted arrays into blocks and read them back out, copy them all, and turn
 * their numeric keys into generic ones.
 *
 * Free functions over the arrays the index holds, not a class of their own: the index reaches a
 * block's arrays directly, with no object between them. The per-row steps stay in the index, where
 * V8 inlines them: the binary searches (with the comparison each caller gives), finding the block
 * of a position, and an entry moved in or out of a block. As calls of this file's, lookups were a
 * third slower and adds 5 to 10% (measured on 200k rows).
 *
 * Why blocks: an insert or a delete moves the rest of one block, at most a few KB, plus one add to
 * each later block's position; a full block splits in two, and two neighbours that would fit in
 * half a block merge. In one flat array, each create moved half of every index: at 200k rows, 65%
 * of a create's CPU (bench/README.md, the writes suite). A bulk load builds in one go, its blocks
 * views of the sorted arrays.
 *
 * Row ids live in an Int32Array (4 bytes a row instead of 8 for a JS array of small integers), and
 * numeric keys in a typed array too: a typed array never changes its element kind, and
 * `copyWithin` on it is a memmove. A JS array would not stay unboxed: V8 keeps element-kind
 * feedback per allocation site, so once any index of the process held text in an array made at
 * the same site, every numeric index's array was made generic too (each number boxed): at 1M rows
 * of fractional keys, a remove + add went from 0.25 ms to 5 ms. A block's typed arrays have room
 * for more entries than it holds, and double when full.
 */
import type { SortKey } from '../values/compare.js'
import { genericKeys, type Mode, type NumericKeys } from './sorted-entries.js'

/** Consecutive entries of the index: row ids, and their keys when the index holds them. */
export interface Block {
  // Row ids; the first `size` slots are used.
  rows: Int32Array
  // Numeric keys, parallel to `rows` (the slots of null entries hold nothing): numeric only.
  numbers: NumericKeys | undefined
  // The keys, `size` long: generic only.
  keys: SortKey[] | undefined
  size: number
}

/**
 * Whether an entry of a block comes before the one sought: true for a prefix of the entries.
 * `start` is the position of the block's first entry.
 */
export type Before = (block: Block, start: number, i: number) => boolean

/** An empty block with room for `capacity` entries, its keys held as `mode` says. */
export const newBlock = (capacity: number, mode: Mode): Block => ({
  rows: new Int32Array(capacity),
  numbers:
    mode === 'int32'
      ? new Int32Array(capacity)
      : mode === 'float64'
        ? new Float64Array(capacity)
        : undefined,
  keys: mode === 'generic' ? genericKeys(0) : undefined,
  size: 0,
})

// `block`'s typed arrays, the first `n` entries kept, in new ones of `capacity` entries.
function regrow(block: Block, n: number, capacity: number): void {
  const rows = new Int32Array(capacity)
  rows.set(block.rows.subarray(0, n))
  block.rows = rows
  const old = block.numbers
  if (old !== undefined) {
    const numbers =
      old instanceof Int32Array ? new Int32Array(capacity) : new Float64Array(capacity)
    numbers.set(old.subarray(0, n))
    block.numbers = numbers
  }
}

/** Room in `block` for one more entry: its arrays double, up to `blockMax`. */
export function growBlock(block: Block, blockMax: number): void {
  const n = block.size
  if (n < block.rows.length) return
  regrow(block, n, Math.min(blockMax, Math.max(16, n * 2)))
}

/**
 * Splits the full block `b` in two halves, each with room to grow; returns the block that entry
 * `i` of the full block goes into now (the first one keeps an entry at its end).
 */
export function splitBlock(
  blocks: Block[],
  starts: number[],
  b: number,
  i: number,
  blockMax: number,
  mode: Mode,
): number {
  const block = blocks[b]!
  const half = block.size >>> 1
  const next = newBlock(blockMax, mode)
  next.rows.set(block.rows.subarray(half, block.size))
  if (block.numbers !== undefined) next.numbers!.set(block.numbers.subarray(half, block.size))
  if (block.keys !== undefined) next.keys = block.keys.splice(half)
  next.size = block.size - half
  block.size = half
  blocks.splice(b + 1, 0, next)
  starts.splice(b + 1, 0, starts[b]! + half)
  return i > half ? b + 1 : b
}

/** Moves block `b + 1`'s entries to the end of block `b`, and drops it. */
export function mergeBlocks(blocks: Block[], starts: number[], b: number, blockMax: number): void {
  const block = blocks[b]!
  const next = blocks[b + 1]!
  const n = block.size
  const total = n + next.size
  if (block.rows.length < total) regrow(block, n, blockMax)
  block.rows.set(next.rows.subarray(0, next.size), n)
  if (block.numbers !== undefined) block.numbers.set(next.numbers!.subarray(0, next.size), n)
  if (block.keys !== undefined) for (let i = 0; i < next.size; i++) block.keys.push(next.keys![i]!)
  block.size = total
  blocks.splice(b + 1, 1)
  starts.splice(b + 1, 1)
}

/**
 * After an entry left block `b`: no empty block, and no two neighbours that would fit in half a
 * block, so that deletes cannot leave the index in many small blocks.
 */
export function mendBlocks(blocks: Block[], starts: number[], b: number, blockMax: number): void {
  const block = blocks[b]!
  const small = blockMax >>> 1
  if (block.size === 0) {
    blocks.splice(b, 1)
    starts.splice(b, 1)
  } else if (b + 1 < blocks.length && block.size + blocks[b + 1]!.size <= small)
    mergeBlocks(blocks, starts, b, blockMax)
  else if (b > 0 && blocks[b - 1]!.size + block.size <= small)
    mergeBlocks(blocks, starts, b - 1, blockMax)
}

/**
 * Sorted entries cut into blocks of `step` entries, each a view of the arrays given (copied on its
 * first write), so that taking them costs no copy.
 */
export function blocksOf(
  size: number,
  step: number,
  rows: Int32Array,
  numbers: NumericKeys | undefined,
  keys: SortKey[] | undefined,
): { blocks: Block[]; starts: number[] } {
  const blocks: Block[] = []
  const starts: number[] = []
  for (let s = 0; s < size; s += step) {
    const e = Math.min(size, s + step)
    starts.push(s)
    blocks.push({
      rows: rows.subarray(s, e),
      numbers: numbers?.subarray(s, e),
      keys: keys?.slice(s, e),
      size: e - s,
    })
  }
  return { blocks, starts }
}

/** The `size` entries of `blocks` in new arrays: the keys as `keyAt` gives them, and the row ids. */
export function contentOf(
  blocks: readonly Block[],
  size: number,
  keyAt: (position: number) => SortKey,
): [SortKey[], Int32Array] {
  const rows = new Int32Array(size)
  const keys = new Array<SortKey>(size)
  let at = 0
  for (const block of blocks) {
    rows.set(block.rows.subarray(0, block.size), at)
    for (let i = 0; i < block.size; i++) keys[at + i] = keyAt(at + i)
    at += block.size
  }
  return [keys, rows]
}

/** `count` row ids from entry `i` of block `b` on, written into `out` from `at`. */
export function copyRows(
  blocks: readonly Block[],
  b: number,
  i: number,
  out: number[] | Int32Array,
  at: number,
  count: number,
): void {
  const last = at + count
  for (let p = at; p < last; b++, i = 0) {
    const block = blocks[b]!
    const rows = block.rows
    const stop = Math.min(block.size, i + last - p)
    for (; i < stop; i++) out[p++] = rows[i]!
  }
}

/** Independent copies of `blocks` (store snapshots): each block's typed arrays copied, a memcpy. */
export const copyBlocks = (blocks: readonly Block[]): Block[] =>
  blocks.map((b) => ({
    rows: b.rows.slice(0, b.size),
    numbers: b.numbers?.slice(0, b.size),
    keys: b.keys?.slice(),
    size: b.size,
  }))

/**
 * Numeric keys turned into generic ones, for good (a key arrived that is neither a number nor
 * null): the first `nulls` positions become null keys.
 */
export function toGeneric(
  blocks: readonly Block[],
  starts: readonly number[],
  nulls: number,
): void {
  blocks.forEach((block, b) => {
    const keys = genericKeys(block.size)
    for (let i = 0; i < block.size; i++)
      keys[i] = starts[b]! + i < nulls ? null : block.numbers![i]!
    block.keys = keys
    block.numbers = undefined
  })
}
