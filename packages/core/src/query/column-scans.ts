/**
 * @module Scans of one column that no index answers: a number compared with a number
 * (`salary > 5000`, the kernel compareNumbers) and folded text tested (`city = 'Paris'`,
 * `name = 'Jo@'`, the text kernels over the table's folded column). Each runs its kernel on
 * worker threads when the read runs in slices on a datastore with a pool (parallel-work.ts), else
 * here in steps, and reads the column in row order without touching the records (a record read a
 * row cost more than the test itself).
 */
import type { Table } from '../store/table.js'
import type { RowIds } from '../sets/row-ids.js'
import { FoldedColumn, foldedTester, type FoldedTexts } from '../store/folded-column.js'
import type { NumberOp } from '../parallel/kernels.js'
import { isShared, rowIdBuffer } from '../parallel/shared-arrays.js'
import type { BoundComparison } from './bound.js'
import { BUDGET_STEP } from './budget.js'
import { kernelWork } from './parallel-work.js'
import { columnOf, type TextForms } from './predicate.js'
import { type Work } from './slices.js'
import { steps } from './row-steps.js'

/** The kernel's operator of a comparison a numeric column answers (`columnOf`), if any. */
export function numberOp(c: BoundComparison): NumberOp | undefined {
  if (columnOf(c) !== 'numeric') return undefined
  return c.op === 'strictEq' ? 'eq' : (c.op as NumberOp)
}

/**
 * A scan of one numeric column. A null or deleted row reads NaN, which holds for none of these
 * operators: no check of the slot.
 */
export function* numberScan(
  table: Table,
  name: string,
  op: NumberOp,
  c: BoundComparison,
): Work<RowIds> {
  const column = table.numericColumn(name)
  const key = (c.value as { key: number }).key
  return yield* kernelRows('compareNumbers', { column, op, key }, table, isShared(column))
}

/**
 * A scan of one folded text column by `holds`, the test of one folded text (`only`: the one text
 * it holds for, `forms`: the texts, prefixes, suffixes and contained texts, when that is all it
 * is). Codes: each distinct text tested once, then the kernel compares integers; units: texts and
 * patterns sought go to their kernels, any other test (`a@b`, `<`) reads each row's text here. A test that holds for null reads the rows here too, checking each is live (a deleted
 * row reads null).
 */
export function* textScan(
  table: Table,
  column: FoldedTexts,
  holds: (folded: string | null) => boolean,
  only: string | undefined,
  forms?: TextForms,
): Work<RowIds> {
  if (column instanceof FoldedColumn && !holds(null)) {
    const shape = column.shape()
    if (shape.kind === 'codes') {
      // By stored code: a text's index + 1, 0 (null) accepted by none.
      const { texts } = shape
      const accept = new Uint8Array(texts.length + 1)
      if (only !== undefined) {
        const code = column.codeOf(only)
        if (code === undefined) return []
        accept[code] = 1
      } else for (let i = 0; i < texts.length; i++) accept[i + 1] = holds(texts[i]!) ? 1 : 0
      return yield* kernelRows('acceptCodes', { codes: shape.codes, accept }, table, column.shared)
    }
    const { starts, lengths, units } = shape
    if (only !== undefined)
      return yield* kernelRows(
        'equalUnits',
        { starts, lengths, units, text: unitsOf(only) },
        table,
        column.shared,
      )
    if (forms !== undefined && formCount(forms) <= KERNEL_FORMS)
      return yield* kernelRows(
        'matchUnits',
        {
          starts,
          lengths,
          units,
          exact: forms.exact.map(unitsOf),
          prefixes: forms.prefixes.map(unitsOf),
          suffixes: forms.suffixes.map(unitsOf),
          contains: forms.contains.map(unitsOf),
        },
        table,
        column.shared,
      )
  }
  const test = foldedTester(column, holds)
  const out: number[] = []
  // Deleted rows read null: a test that holds for null checks the slot.
  yield* steps(table.scanLength, (from, to) => {
    for (let i = from; i < to; i++) if (test(i) && table.has(i)) out.push(i)
  })
  return out
}

// Up to this many forms the kernel reads each row's units where they lie (parallel/unit-forms.ts:
// tables of first and last units, a window jumping along the text); past it, the per-row test
// makes each row's text and reads it once for them all (matchesAny's tries and automaton), the
// window's jumps being short and its candidates many. On 100k names: 10 patterns 17.8 → 3.1 ms,
// 32 patterns 19.8 → 10.2, 64 about even (23.0 against 21.7).
const KERNEL_FORMS = 48

const formCount = (f: TextForms): number =>
  f.exact.length + f.prefixes.length + f.suffixes.length + f.contains.length

function unitsOf(text: string): Uint16Array {
  const out = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i)
  return out
}

/** The rows `kernel` finds over every row of `table`, its parts' answers put end to end. */
function* kernelRows(kernel: string, args: unknown, table: Table, shared: boolean): Work<RowIds> {
  const parts: Int32Array[] = []
  let found = 0
  yield* kernelWork<Int32Array>(kernel, args, table.scanLength, shared, (rows) => {
    parts.push(rows)
    found += rows.length
  })
  if (parts.length === 1) return parts[0]!
  // One typed array (zeroed page by page), each part copied natively, a step a part: half of
  // 10M rows pushed one by one into an array held the thread for tens of milliseconds at once.
  const out = rowIdBuffer(found)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
    if (part.length > BUDGET_STEP) yield
  }
  return out
}
