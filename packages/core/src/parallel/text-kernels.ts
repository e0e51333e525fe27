/**
 * @module Kernels over a folded text column (store/folded-column.ts), for scans of text that no
 * index answers: `acceptCodes` over its codes (the test of each distinct text made once by the
 * caller), `equalUnits` over its code units (one text sought, `code = 'AB12'`). Like every kernel,
 * pure functions of typed arrays: the calling thread runs the same code without a pool.
 */
import { CHECK_ROWS, checkCancel } from './cancel.js'
import { RowIdsFound } from './row-ids-found.js'

export interface AcceptCodesArgs {
  /** A code a row, 0 for null (and deleted rows). */
  readonly codes: Int32Array
  /** 1 for the codes whose text the test holds for; a code past its end holds for none. */
  readonly accept: Uint8Array
}

/** The row ids in [from, to) whose code `accept` says yes to, ascending. */
export function acceptCodes(
  args: AcceptCodesArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): Int32Array {
  const { codes, accept } = args
  const found = new RowIdsFound()
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    // A view of the chunk, bounded by its own length (kernels.ts: no bounds check).
    const v = codes.subarray(at, Math.min(to, at + CHECK_ROWS))
    for (let i = 0; i < v.length; i++) if (accept[v[i]!] === 1) found.add(at + i)
  }
  return found.rows()
}

export interface EqualUnitsArgs {
  /** Where each row's text starts in `units`. */
  readonly starts: Int32Array
  /** Each row's text length in units + 1, 0 for null (and deleted rows). */
  readonly lengths: Int32Array
  readonly units: Uint8Array | Uint16Array
  /** The folded text sought, as code units. */
  readonly text: Uint16Array
}

/** The row ids in [from, to) whose text is `text`, ascending. */
export function equalUnits(
  args: EqualUnitsArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): Int32Array {
  const { starts, lengths, units, text } = args
  // Lengths are stored + 1.
  const n = text.length + 1
  const first = text.length > 0 ? text[0]! : 0
  const found = new RowIdsFound()
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let r = at; r < end; r++) {
      if (lengths[r] !== n) continue
      const s = starts[r]!
      // Most rows of the same length differ at their first unit.
      if (n > 1 && units[s] !== first) continue
      let i = 1
      while (i < n - 1 && units[s + i] === text[i]) i++
      if (i >= n - 1) found.add(r)
    }
  }
  return found.rows()
}

/** The texts a test of equality with wildcards holds for, as code units (see `matchUnits`). */
export interface UnitForms {
  readonly exact: readonly Uint16Array[]
  readonly prefixes: readonly Uint16Array[]
  readonly suffixes: readonly Uint16Array[]
  readonly contains: readonly Uint16Array[]
}

export interface MatchUnitsArgs extends UnitForms {
  readonly starts: Int32Array
  readonly lengths: Int32Array
  readonly units: Uint8Array | Uint16Array
}

// Whether `units` from `at` holds `sought`.
function holdsAt(units: Uint8Array | Uint16Array, at: number, sought: Uint16Array): boolean {
  for (let i = 0; i < sought.length; i++) if (units[at + i] !== sought[i]) return false
  return true
}

/**
 * The row ids in [from, to) whose text is one of `exact`, starts with one of `prefixes`, ends
 * with one of `suffixes` or contains one of `contains` (`code = 'AB@'`, `'@42@'`), ascending.
 */
export function matchUnits(
  args: MatchUnitsArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): Int32Array {
  const { starts, lengths } = args
  const found = new RowIdsFound()
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let r = at; r < end; r++) {
      const n = lengths[r]! - 1
      if (n >= 0 && matches(args, starts[r]!, n)) found.add(r)
    }
  }
  return found.rows()
}

// Whether the text of `n` units from `s` is one of the forms of `f`.
function matches(f: MatchUnitsArgs, s: number, n: number): boolean {
  const { units } = f
  for (const t of f.exact) if (t.length === n && holdsAt(units, s, t)) return true
  for (const t of f.prefixes) if (t.length <= n && holdsAt(units, s, t)) return true
  for (const t of f.suffixes) if (t.length <= n && holdsAt(units, s + n - t.length, t)) return true
  for (const t of f.contains) {
    if (t.length === 0) return true
    const first = t[0]
    for (let i = s, last = s + n - t.length; i <= last; i++)
      if (units[i] === first && holdsAt(units, i, t)) return true
  }
  return false
}
