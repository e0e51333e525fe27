/**
 * @module The attributes one binding read (a ReadCheck that keeps them), for what keeps a bound
 * query to run it again later, maybe for another view: a prepared query's index lookup and order,
 * a live feed's filter. Each run asks the view acting then about every one of them (`check`), as a
 * binding for that view would have.
 *
 * Only what the binding read is kept, never what a computed attribute's function answered for a
 * view: a bound query that holds such an answer (`fromCode`) is bound again for each run instead.
 */
import type { ReadCheck } from '../access/read-check.js'
import type { AttributeDef, DataClassDef } from '../schema/definitions.js'
import type { BoundFilter, BoundOrderKey } from './bound.js'

export class KeptReads implements ReadCheck {
  // A binding reads a few attributes: a list searched, not a Map a binding.
  readonly #reads: (readonly [DataClassDef, AttributeDef])[] = []

  needRead(dc: DataClassDef, attr: AttributeDef): void {
    for (const [d, a] of this.#reads) if (d === dc && a === attr) return
    this.#reads.push([dc, attr])
  }

  /** Asks `check` (the view acting now; undefined: nothing is checked) about each attribute read. */
  check(check: ReadCheck | undefined): void {
    if (check === undefined) return
    for (const [dc, attr] of this.#reads) check.needRead(dc, attr)
  }
}

/**
 * Whether a bound filter or order holds what a computed attribute's `query` or `orderBy` function
 * answered, or the default it took when the function answered null: application code that may
 * answer each view differently (it may read the session).
 */
export function fromCode(
  filter: BoundFilter | null,
  order: readonly BoundOrderKey[] = [],
): boolean {
  return (
    order.some(
      (k) =>
        k.computed !== undefined ||
        (k.operand.kind === 'calculated' && k.operand.attr.orderBy !== undefined),
    ) ||
    (filter !== null && filterFromCode(filter))
  )
}

function filterFromCode(node: BoundFilter): boolean {
  switch (node.kind) {
    case 'Computed':
      return true
    case 'Comparison':
      return node.operand.kind === 'calculated' && node.operand.attr.query !== undefined
    case 'Join':
    case 'ReverseJoin':
      return filterFromCode(node.inner)
    case 'Not':
      return filterFromCode(node.operand)
    case 'Logical':
      return node.operands.some(filterFromCode)
    default:
      return false
  }
}
