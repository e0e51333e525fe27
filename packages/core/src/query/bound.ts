/**
 * @module The bound filter: the AST resolved against a dataclass. Attribute paths are attributes,
 * relations and object steps; values are coerced to the attribute's type and placeholders filled.
 * The planner reads this tree; the naive evaluator and the executor both run its comparisons.
 */
import type { ComparisonOp, LogicalOp } from './ast.js'
import type { SortKey } from '../values/compare.js'
import type { PatternShape } from '../values/fold.js'
import type { ValueType } from '../schema/model-json.js'
import type { Vector, VectorMetric } from '../values/vector.js'
import type { NearestIndex } from '../indexes/nearest-index.js'
import type { ScoreBoard } from './score-board.js'
import type {
  CalculatedAttributeDef,
  ComputedQueryOperator,
  DataClassDef,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
  StorageAttributeDef,
} from '../schema/definitions.js'

/** One step into an object attribute: a property, optionally fanned out over an array (`[]`, `[a]`). */
export interface ObjectStep {
  readonly name: string
  readonly each?: { readonly letter: string | null }
}

/** What a comparison reads from an entity. */
export type Operand =
  | { readonly kind: 'storage'; readonly attr: StorageAttributeDef }
  | {
      readonly kind: 'object'
      readonly attr: StorageAttributeDef
      readonly steps: readonly ObjectStep[]
    }
  | { readonly kind: 'calculated'; readonly attr: CalculatedAttributeDef }

/** A comparison value, ready to compare: `key` is the sort key (strings folded). */
export type CmpValue =
  | { readonly kind: 'null' }
  | {
      readonly kind: 'value'
      readonly key: SortKey
      /** The value as written after coercion, for plans. */
      readonly shown: string | number | boolean
      /** Set when the value holds wildcards and the operator honours them. */
      readonly pattern?: {
        readonly match: (folded: string) => boolean
        readonly prefix: string
        readonly shape: PatternShape
      }
    }
  | { readonly kind: 'list'; readonly items: readonly CmpValue[] }
  | VectorCmpValue

/** The value of a vector search (query/vector-search.ts): what its scan computes and compares. */
export interface VectorCmpValue {
  readonly kind: 'vector'
  readonly query: Vector
  readonly metric: VectorMetric
  readonly threshold: number
  /** For plans: `0.8 (cosine similarity to a vector of 256 dimensions)`. */
  readonly shown: string
  /** The scores its scan keeps for an order by similarity (vector-scan.ts). */
  readonly scores: ScoreBoard
  /** Asked for by the search (`"approximate": true`): an approximate index may answer it. */
  readonly approximate?: { readonly ef: number }
  /** The approximate index that answers it, once the query found one ready (run-query.ts). */
  readonly index?: NearestIndex
}

/** The similarity an order key on a vector attribute sorts by: its filter's vector and metric. */
export interface Similarity {
  readonly query: Vector
  readonly metric: VectorMetric
  /** The scores the search kept, read instead of scoring again. */
  readonly scores?: ScoreBoard
}

export interface BoundComparison {
  readonly kind: 'Comparison'
  readonly dataClass: DataClassDef
  readonly operand: Operand
  readonly op: ComparisonOp
  readonly value: CmpValue
  /** The type values were coerced to (the attribute's; the target key's for `relation = x`); none inside objects. */
  readonly type: ValueType | undefined
  /** Whether string sort keys of the operand are folded (strings) or compared as stored (dates, uuids). */
  readonly folds: boolean
}

/** `employer.name = x`: the entities whose relatedEntity points at an entity matching `inner`. */
export interface BoundJoin {
  readonly kind: 'Join'
  readonly dataClass: DataClassDef
  readonly relation: RelatedEntityAttributeDef
  readonly target: DataClassDef
  readonly inner: BoundFilter
}

/** `staff.lastName = x`: the entities that have at least one related entity matching `inner`. */
export interface BoundReverseJoin {
  readonly kind: 'ReverseJoin'
  readonly dataClass: DataClassDef
  readonly relation: RelatedEntitiesAttributeDef
  readonly target: DataClassDef
  readonly inner: BoundFilter
  /** The class indexes of the path (`actor{2}`): another reference of the relation (link-relations.ts). */
  readonly reference?: string
}

/**
 * Comparisons on the same element of a collection (`places[a].kind = 1 AND places[a].city = 2`):
 * true when one element satisfies all of them. Their operands' steps start after the collection.
 */
export interface BoundLinked {
  readonly kind: 'Linked'
  readonly dataClass: DataClassDef
  readonly attr: StorageAttributeDef
  /** The steps down to and including the lettered collection. */
  readonly prefix: readonly ObjectStep[]
  readonly comparisons: readonly BoundComparison[]
}

/**
 * A comparison on a computed attribute that its query function replaced: `inner` is the filter it
 * returned, bound in the same dataclass. The comparison itself is kept for plans.
 */
export interface BoundComputed {
  readonly kind: 'Computed'
  readonly dataClass: DataClassDef
  readonly attr: CalculatedAttributeDef
  /** The operator as the query function received it. */
  readonly operator: ComputedQueryOperator
  /** The value as the query function received it. */
  readonly value: unknown
  readonly inner: BoundFilter
}

export interface BoundLogical {
  readonly kind: 'Logical'
  readonly op: LogicalOp
  readonly operands: readonly BoundFilter[]
}

export interface BoundNot {
  readonly kind: 'Not'
  readonly operand: BoundFilter
}

export type BoundFilter =
  | BoundComparison
  | BoundJoin
  | BoundReverseJoin
  | BoundLinked
  | BoundComputed
  | BoundLogical
  | BoundNot

/** A bound `order by` key: a path of relatedEntity steps ending on a storage or calculated attribute. */
export interface BoundOrderKey {
  readonly relations: readonly RelatedEntityAttributeDef[]
  readonly operand: Operand
  readonly descending: boolean
  readonly folds: boolean
  /** `employer.name` */
  readonly text: string
  /**
   * Set on the keys a computed attribute's orderBy function gave: the sort they replace
   * (`fullName` descending), one object shared by the keys of one replacement, for plans.
   */
  readonly computed?: { readonly text: string; readonly descending: boolean }
  /** Set on a key on a vector attribute: it sorts by similarity (vector-search.ts). */
  readonly similarity?: Similarity
}
