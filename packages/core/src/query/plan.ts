/**
 * @module The query plan: the bound filter annotated with how each part is executed. The tree keeps
 * the query's logical shape (4D's `__queryPlan` shows that shape), and each node says its access:
 *
 * - a comparison is a `Leaf` read through an index (`hash`, `sorted`, or the table's `key` map) or by
 *   a `scan`, with the estimated number of matches;
 * - `And` runs its cheapest indexed operand first (the driver) and filters that candidate list with
 *   the other operands in order of increasing estimate; with no indexed operand it scans once;
 * - `Or` is the union, `Except` the difference, `Not` the complement of their operands' results;
 * - `Join`/`ReverseJoin` run their inner plan on the related dataclass and map the result back
 *   through the foreign-key index (never a scan of the other side);
 * - `Computed` is a comparison on a computed attribute that its query function replaced: it runs
 *   the plan of the filter the function returned, and stays in the tree so that plans show both.
 */
import type {
  BoundComparison,
  BoundComputed,
  BoundFilter,
  BoundJoin,
  BoundLinked,
  BoundReverseJoin,
} from './bound.js'
import type { DataClassDef } from '../schema/definitions.js'

/** How a comparison reaches its rows. */
export type Access =
  | { readonly kind: 'scan' }
  /** Equality or IN through the hash index (or the key map); `verify` re-checks each row (wildcards). */
  | { readonly kind: 'hash'; readonly via: 'hash' | 'key' }
  /** A range, a prefix (`begin`, `abc@`) or equality through the sorted index. */
  /**
   * A range, a prefix (`begin`, `abc@`) or equality through the sorted index. `otherBound` is the
   * opposite bound on the same attribute from the same AND (`a >= 1 AND a < 9`): the index then
   * reads one range instead of one half-line filtered by the other.
   */
  | {
      readonly kind: 'sorted'
      readonly verify: boolean
      readonly otherBound?: BoundComparison
      /**
       * The positions the planner found in the sorted index for a range or a prefix (its estimate
       * came from them): the executor reads them instead of searching again. A plan is run on the
       * table state it was made on.
       */
      readonly range?: readonly [number, number]
    }

export interface LeafPlan {
  readonly kind: 'Leaf'
  readonly bound: BoundComparison
  readonly access: Access
  readonly estimate: number
  /** True when the AND's driver already read this bound (`otherBound`): every row passes it. */
  readonly covered: boolean
}

export interface LinkedPlan {
  readonly kind: 'Linked'
  readonly bound: BoundLinked
  readonly estimate: number
}

export interface JoinPlan {
  readonly kind: 'Join'
  readonly bound: BoundJoin
  readonly inner: PlanNode
  readonly estimate: number
}

export interface ReverseJoinPlan {
  readonly kind: 'ReverseJoin'
  readonly bound: BoundReverseJoin
  readonly inner: PlanNode
  readonly estimate: number
}

export interface ComputedPlan {
  readonly kind: 'Computed'
  readonly bound: BoundComputed
  readonly inner: PlanNode
  readonly estimate: number
}

export interface AndPlan {
  readonly kind: 'And'
  /** Operands in execution order: the driver first when there is one. */
  readonly operands: readonly PlanNode[]
  /** True when operands[0] is read through an index and the others filter its rows. */
  readonly driven: boolean
  readonly estimate: number
}

export interface SetPlan {
  readonly kind: 'Or' | 'Except'
  readonly operands: readonly PlanNode[]
  readonly estimate: number
}

export interface NotPlan {
  readonly kind: 'Not'
  readonly operand: PlanNode
  readonly estimate: number
}

export type PlanNode =
  LeafPlan | LinkedPlan | JoinPlan | ReverseJoinPlan | ComputedPlan | AndPlan | SetPlan | NotPlan

export interface QueryPlan {
  readonly dataClass: DataClassDef
  /** null: every entity (no filter). */
  readonly root: PlanNode | null
  readonly source: BoundFilter | null
}

/**
 * A leaf plan. Every leaf is made here, with all its fields, so that leaves share one shape (and
 * an object spread, slow in V8, is never needed to change one).
 */
export function leafPlan(
  bound: BoundComparison,
  access: Access,
  estimate: number | (() => number),
  covered = false,
): LeafPlan {
  if (typeof estimate === 'number') return { kind: 'Leaf', bound, access, estimate, covered }
  // Counted when first read (an AND ordering its operands, an explain), once: a leaf that is the
  // whole query runs without it.
  let counted: number | undefined
  return {
    kind: 'Leaf',
    bound,
    access,
    get estimate() {
      return (counted ??= estimate())
    },
    covered,
  }
}

/** True when a node finds its rows without looking at every row of its dataclass. */
export function isIndexed(node: PlanNode): boolean {
  switch (node.kind) {
    case 'Leaf':
      return node.access.kind !== 'scan'
    case 'Linked':
    case 'Not':
      return false
    case 'Join':
    case 'ReverseJoin':
      return true
    case 'Computed':
      return isIndexed(node.inner)
    case 'And':
      return node.driven
    case 'Or':
      return node.operands.every(isIndexed)
    case 'Except':
      return isIndexed(node.operands[0]!)
  }
}
