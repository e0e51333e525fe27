/**
 * @module Kernels over a folded text column (store/folded-column.ts), for scans of text that no
 * index answers: `acceptCodes` over its codes (the test of each distinct text made once by the
 * caller), `equalUnits` over its code units (one text sought, `code = 'AB12'`), `matchUnits` over
 * them for texts, prefixes, suffixes and contained texts (unit-forms.ts). Like every kernel, pure
 * functions of typed arrays: the calling thread runs the same code without a pool.
 */
import { CHECK_ROWS, checkCancel } from './cancel.js'
import { RowIdsFound } from './row-ids-found.js'
import { formTables, holds, holdsOneByOne, type FormTables, type UnitForms } from './unit-forms.js'

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

export interface MatchUnitsArgs extends UnitForms {
  readonly starts: Int32Array
  readonly lengths: Int32Array
  readonly units: Uint8Array | Uint16Array
}

// Up to this many forms, each is tried in turn (unit-forms.ts `holdsOneByOne`), unless one is a
// contained text the window would jump over.
const ONE_BY_ONE = 2

// The tables of one scan's forms, made at its first range (a scan calls the kernel a range at a
// time, on this thread or a worker's copy of the arguments).
const tablesOf = new WeakMap<MatchUnitsArgs, FormTables>()

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
  const { starts, lengths, units } = args
  const few = args.exact.length + args.prefixes.length + args.suffixes.length + args.contains.length
  // A contained text of 3 units or more is sought by the window, which jumps, even alone.
  const byTables = few > ONE_BY_ONE || args.contains.some((t) => t.length >= 3)
  let tables = byTables ? tablesOf.get(args) : undefined
  if (tables === undefined && byTables)
    tablesOf.set(args, (tables = formTables(args, units instanceof Uint16Array)))
  // One or two texts or prefixes, none empty (`begin 'ap'`, `code = 'AB@'`): a row whose first
  // unit begins neither is passed over here (the hand loop's `startsWith` costs about as much).
  const anchored =
    few <= ONE_BY_ONE &&
    args.suffixes.length === 0 &&
    args.contains.length === 0 &&
    args.exact.every((t) => t.length > 0) &&
    args.prefixes.every((t) => t.length > 0)
  const firstUnits = [...args.exact, ...args.prefixes].map((t) => t[0]!)
  const a = firstUnits[0] ?? -1
  const b = firstUnits[1] ?? a
  const found = new RowIdsFound()
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let r = at; r < end; r++) {
      const n = lengths[r]! - 1
      if (n < 0) continue
      if (anchored && (n === 0 || (units[starts[r]!] !== a && units[starts[r]!] !== b))) continue
      const yes =
        tables === undefined
          ? holdsOneByOne(args, units, starts[r]!, n)
          : holds(tables, units, starts[r]!, n)
      if (yes) found.add(r)
    }
  }
  return found.rows()
}
