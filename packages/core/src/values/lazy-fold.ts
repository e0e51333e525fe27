/**
 * @module Index keys of texts that fold on comparison. Indexes compare texts by their fold
 * (fold.ts), and holding each row's folded copy cost 24 bytes a row for a unique code on 200,000
 * short rows. The fold of ASCII text is its lowercase, which a comparison can take one code unit
 * at a time, so an index holds an ASCII text as it is (the string the row stores: no bytes of its
 * own) and only other texts folded. Such a key is a *lazy key*:
 * - `lazyKey(s)` is `s` when ASCII, `fold(s)` otherwise;
 * - lowercasing the ASCII letters of a lazy key gives the fold: `foldLazy(lazyKey(s)) === fold(s)`.
 *   A folded text holds no ASCII capital (fold lowercases), so it is a lazy key of itself, and so
 *   is a query's folded operand: lazy keys and folded texts compare with each other here.
 */
import { sortKey, type SortKey } from './compare.js'
import { fold } from './fold.js'

const NON_ASCII = /[^\u0000-\u007f]/
const CAPITAL = /[A-Z]/

/** The lazy key of `s`: `s` itself when ASCII, its fold otherwise. */
export const lazyKey = (s: string): string => (NON_ASCII.test(s) ? fold(s) : s)

/**
 * The key of a stored value in an index: a lazy key for a text of an attribute compared folded
 * (`folds`), its sortKey otherwise.
 */
export const indexKey = (v: unknown, folds: boolean): SortKey =>
  folds && typeof v === 'string' ? lazyKey(v) : sortKey(v, folds)

/** Whether `s` is ASCII, when its lazy key is itself. */
export const isAscii = (s: string): boolean => !NON_ASCII.test(s)

/** The fold a lazy key stands for (a new string only when it holds a capital). */
export const foldLazy = (k: string): string => (CAPITAL.test(k) ? k.toLowerCase() : k)

/** Code unit `c` with an ASCII capital lowercased (for sorts that rank code units). */
export const lowerUnit = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c)
const lower = lowerUnit

/** Code-unit order of the folds of two lazy keys, with no string made. */
export function compareLazy(a: string, b: string): number {
  if (a === b) return 0
  const m = a.length
  const n = b.length
  const common = m < n ? m : n
  for (let i = 0; i < common; i++) {
    const x = lower(a.charCodeAt(i))
    const y = lower(b.charCodeAt(i))
    if (x !== y) return x < y ? -1 : 1
  }
  return m === n ? 0 : m < n ? -1 : 1
}

/** Whether two lazy keys stand for the same fold. */
export function equalLazy(a: string, b: string): boolean {
  if (a === b) return true
  const n = a.length
  if (n !== b.length) return false
  for (let i = 0; i < n; i++) if (lower(a.charCodeAt(i)) !== lower(b.charCodeAt(i))) return false
  return true
}

/** Whether the fold of lazy key `k` begins with `prefix` (folded). */
export function startsWithLazy(k: string, prefix: string): boolean {
  const n = prefix.length
  if (k.length < n) return false
  for (let i = 0; i < n; i++) if (lower(k.charCodeAt(i)) !== prefix.charCodeAt(i)) return false
  return true
}

/**
 * A 32-bit hash of the fold of lazy key `k` (FNV-1a over the lowered code units, from `seed`):
 * equal folds hash alike whichever lazy keys stand for them.
 */
export function hashLazy(k: string, seed = 0x811c9dc5): number {
  let h = seed
  for (let i = 0; i < k.length; i++) h = Math.imul(h ^ lower(k.charCodeAt(i)), 0x01000193)
  return h
}
