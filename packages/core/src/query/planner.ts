/**
 * @module The planner: chooses, for each comparison, the index that can answer it, and estimates
 * how many rows each part returns so that an AND starts from its most selective indexed part.
 * Estimates are exact for index lookups (a bucket size, a binary-search range) and the table size for
 * scans; a join scales its inner estimate by the ratio of the two tables' sizes.
 */
import type { Table } from '../store/table.js'
import type { SortedIndex } from '../indexes/sorted-index.js'
import type { AttributeIndexes } from '../indexes/index-entry.js'
import type { BoundComparison, BoundFilter, CmpValue } from './bound.js'
import {
  isIndexed,
  leafPlan,
  type Access,
  type AndPlan,
  type LeafPlan,
  type PlanNode,
  type QueryPlan,
} from './plan.js'
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import type { KeyValue } from '../store/entity-record.js'
import type { SortKey } from '../values/compare.js'

export type TableOf = (dc: DataClassDef) => Table

export function planQuery(
  dc: DataClassDef,
  filter: BoundFilter | null,
  tableOf: TableOf,
): QueryPlan {
  return { dataClass: dc, root: filter ? planNode(filter, tableOf) : null, source: filter }
}

function planNode(node: BoundFilter, tableOf: TableOf): PlanNode {
  switch (node.kind) {
    case 'Comparison':
      return planLeaf(node, tableOf)
    case 'Linked':
      return { kind: 'Linked', bound: node, estimate: tableOf(node.dataClass).size }
    case 'Join': {
      const inner = planNode(node.inner, tableOf)
      const ratio = tableOf(node.dataClass).size / Math.max(1, tableOf(node.target).size)
      return {
        kind: 'Join',
        bound: node,
        inner,
        estimate: Math.ceil(inner.estimate * Math.max(1, ratio)),
      }
    }
    case 'ReverseJoin': {
      const inner = planNode(node.inner, tableOf)
      return {
        kind: 'ReverseJoin',
        bound: node,
        inner,
        estimate: Math.min(inner.estimate, tableOf(node.dataClass).size),
      }
    }
    case 'Computed': {
      const inner = planNode(node.inner, tableOf)
      return { kind: 'Computed', bound: node, inner, estimate: inner.estimate }
    }
    case 'Not': {
      const operand = planNode(node.operand, tableOf)
      return { kind: 'Not', operand, estimate: tableSize(node, tableOf) }
    }
    case 'Logical': {
      if (node.op === 'And') return planAnd(node.operands, tableOf)
      const operands = node.operands.map((o) => planNode(o, tableOf))
      const estimate =
        node.op === 'Or'
          ? Math.min(
              operands.reduce((n, o) => n + o.estimate, 0),
              tableSize(node, tableOf),
            )
          : operands[0]!.estimate
      return { kind: node.op, operands, estimate }
    }
  }
}

/** An AND: the cheapest indexed operand drives, the rest filter its rows, cheapest first. */
function planAnd(input: readonly BoundFilter[], tableOf: TableOf): AndPlan {
  const partners = boundPartners(input, tableOf)
  const searched = new Map<BoundComparison, PairRange>()
  const operands = input.map((o) => {
    const partner = o.kind === 'Comparison' ? partners.get(o) : undefined
    return partner ? pairedLeaf(o as BoundComparison, partner, searched) : planNode(o, tableOf)
  })
  const indexed = operands.filter(isIndexed).sort((a, b) => a.estimate - b.estimate)
  const driver = indexed[0]
  const other =
    driver?.kind === 'Leaf' && driver.access.kind === 'sorted'
      ? driver.access.otherBound
      : undefined
  const rest = operands
    .filter((o) => o !== driver)
    .map((o): PlanNode =>
      o.kind === 'Leaf' && o.bound === other ? leafPlan(o.bound, o.access, o.estimate, true) : o,
    )
    .sort((a, b) => a.estimate - b.estimate)
  const ordered = driver ? [driver, ...rest] : rest
  const estimate = Math.min(...operands.map((o) => o.estimate))
  return { kind: 'And', operands: ordered, driven: driver !== undefined, estimate }
}

function dataClassOf(node: BoundFilter): DataClassDef {
  switch (node.kind) {
    case 'Comparison':
    case 'Linked':
    case 'Join':
    case 'ReverseJoin':
    case 'Computed':
      return node.dataClass
    case 'Not':
      return dataClassOf(node.operand)
    case 'Logical':
      return dataClassOf(node.operands[0]!)
  }
}

const tableSize = (node: BoundFilter, tableOf: TableOf): number => tableOf(dataClassOf(node)).size

/** Chooses the access of one comparison and estimates its result size. */
function planLeaf(c: BoundComparison, tableOf: TableOf): PlanNode {
  const table = tableOf(c.dataClass)
  const scan = leafPlan(c, SCAN, table.size)
  if (c.operand.kind !== 'storage') return scan
  const attr = c.operand.attr
  const ix = table.indexes.of(attr.name)
  const leaf = (access: Access, estimate: number | (() => number)): PlanNode =>
    leafPlan(c, access, estimate)
  const v = c.value

  const exactKeys = (value: CmpValue): boolean =>
    value.kind === 'null' ||
    (value.kind === 'value' && !value.pattern) ||
    (value.kind === 'list' && value.items.every(exactKeys))
  const keysOf = (value: CmpValue): CmpValue[] =>
    value.kind === 'list' ? [...value.items] : [value]

  switch (c.op) {
    case 'eq':
    case 'strictEq':
    case 'in': {
      const wildcard = c.op !== 'strictEq' && !exactKeys(v)
      if (!wildcard) {
        // The key map holds no nulls: `key = null` reads the sorted index (it finds nothing).
        const via = equalityAccess(table, c.dataClass, attr, c.folds, v.kind === 'null')
        if (!via) return scan
        // The exact count of each value's rows, made only if read: an IN alone in its query
        // never reads it (counting five buckets was a fifth of such a query, CPU profile).
        const n = (): number =>
          keysOf(v).reduce(
            (sum, k) => sum + equalCount(table, attr.name, via, k.kind === 'value' ? k.key : null),
            0,
          )
        const access: Access =
          via === 'sorted' ? { kind: 'sorted', verify: false } : { kind: 'hash', via }
        return leaf(access, v.kind === 'list' ? n : n())
      }
      // Wildcards: a literal prefix (`ab@`) narrows a sorted index; the pattern is re-checked per row.
      if (
        ix?.sorted &&
        c.folds &&
        c.op !== 'in' &&
        v.kind === 'value' &&
        v.pattern &&
        v.pattern.prefix !== ''
      ) {
        const range = ix.sorted.prefix(v.pattern.prefix)
        return leaf({ kind: 'sorted', verify: true, range }, range[1] - range[0])
      }
      return scan
    }
    case 'begin': {
      if (!ix?.sorted || v.kind !== 'value' || !v.pattern) return scan
      const range = ix.sorted.prefix(v.pattern.prefix)
      return leaf({ kind: 'sorted', verify: false, range }, range[1] - range[0])
    }
    case 'lt':
    case 'gt':
    case 'le':
    case 'ge': {
      if (!ix?.sorted || v.kind !== 'value') return scan
      const range = rangeOf(c, ix.sorted)
      return leaf({ kind: 'sorted', verify: false, range }, range[1] - range[0])
    }
    case 'ne':
    case 'strictNe':
    case 'contains':
      return scan
  }
}

/** How exact equality on `attr` is answered without a scan, if it can be. */
export type EqualityAccess = 'key' | 'hash' | 'sorted'

/**
 * The index that answers `attr = key` exactly: the table's key map for an unfolded primary key
 * (folded string keys go through their hash index), else a hash index, else a sorted index.
 */
export function equalityAccess(
  table: Table,
  dc: DataClassDef,
  attr: StorageAttributeDef,
  folds: boolean,
  nullKey = false,
): EqualityAccess | undefined {
  if (attr === dc.key && !folds && !nullKey) return 'key'
  const ix = table.indexes.of(attr.name)
  return ix?.hash ? 'hash' : ix?.sorted ? 'sorted' : undefined
}

/** How many rows hold `key`, through `via` (an exact count: the planner's estimate). */
export function equalCount(table: Table, name: string, via: EqualityAccess, key: SortKey): number {
  if (via === 'key') return table.rowIdOf(key as KeyValue) === undefined ? 0 : 1
  const ix = table.indexes.of(name)!
  if (via === 'hash') return ix.hash!.count(key)
  const [s, e] = ix.sorted!.equal(key)
  return e - s
}

/**
 * The rows holding `key` through `via` (`ix`: the attribute's indexes, unused for the key map): a
 * new array (the caller may keep it).
 */
export function equalRows(
  table: Table,
  ix: AttributeIndexes | undefined,
  via: EqualityAccess,
  key: SortKey,
): number[] {
  if (via === 'key') {
    const rowId = table.rowIdOf(key as KeyValue)
    return rowId === undefined ? [] : [rowId]
  }
  if (via === 'hash') return ix!.hash!.rows(key)
  const [s, e] = ix!.sorted!.equal(key)
  return ix!.sorted!.rows(s, e)
}

/** The rows holding any of `keys` (distinct) through `via`, in one new array. */
export function equalRowsOf(
  table: Table,
  ix: AttributeIndexes | undefined,
  via: EqualityAccess,
  keys: readonly SortKey[],
): number[] {
  if (via === 'hash') return ix!.hash!.rowsOf(keys)
  // concat, not push(...): one key may hold a million row ids, more than a call takes as arguments.
  return ([] as number[]).concat(...keys.map((k) => equalRows(table, ix, via, k)))
}

const SCAN: Access = { kind: 'scan' }

const LOWER: ReadonlySet<string> = new Set(['gt', 'ge'])
const UPPER: ReadonlySet<string> = new Set(['lt', 'le'])

/** A range comparison with a key on an attribute with a sorted index: what can pair. */
interface RangeBound {
  readonly c: BoundComparison
  readonly attr: StorageAttributeDef
  readonly key: SortKey
  readonly lower: boolean
  readonly sorted: SortedIndex
}

/** `o` as a bound that can pair, or undefined (another comparison, a null, a path, no index). */
function rangeBound(o: BoundFilter, tableOf: TableOf): RangeBound | undefined {
  if (o.kind !== 'Comparison' || !(LOWER.has(o.op) || UPPER.has(o.op))) return undefined
  if (o.operand.kind !== 'storage' || o.value.kind !== 'value') return undefined
  const sorted = tableOf(o.dataClass).indexes.of(o.operand.attr.name)?.sorted
  if (sorted === undefined) return undefined
  return { c: o, attr: o.operand.attr, key: o.value.key, lower: LOWER.has(o.op), sorted }
}

/** A bound's partner and the index both read. */
interface Partner {
  readonly other: BoundComparison
  readonly sorted: SortedIndex
}

/**
 * The other bound of each range comparison of an AND on the same indexed attribute (a lower bound
 * for an upper one, a key of the same type), so that `a >= 1 AND a < 9` reads one range of the
 * index. Found before either leaf is planned: a one-sided range costs searches of its own (an
 * upper bound alone searches for the end of the nulls too, reading a row's key at each step), two
 * to four times the two a pair needs.
 */
function boundPartners(
  operands: readonly BoundFilter[],
  tableOf: TableOf,
): Map<BoundComparison, Partner> {
  const bounds = operands.flatMap((o) => rangeBound(o, tableOf) ?? [])
  const partners = new Map<BoundComparison, Partner>()
  for (const b of bounds) {
    const p = bounds.find(
      (p) => p.attr === b.attr && p.lower !== b.lower && typeof p.key === typeof b.key,
    )
    if (p) partners.set(b.c, { other: p.c, sorted: b.sorted })
  }
  return partners
}

/** The range a pair's two bounds select, kept by whichever leaf of the pair searched it. */
interface PairRange {
  readonly other: BoundComparison
  readonly range: [number, number]
}

/**
 * A range leaf with its partner's bound: the range both select, searched once for the pair. The
 * partner's leaf stays as a filter (every row passes it) so that the plan keeps the query's items;
 * the AND marks it covered when this one drives.
 */
function pairedLeaf(
  c: BoundComparison,
  { other, sorted }: Partner,
  searched: Map<BoundComparison, PairRange>,
): LeafPlan {
  const theirs = searched.get(other)
  let range = theirs?.other === c ? theirs.range : undefined
  if (!range) {
    range = rangeOf(c, sorted, other)
    searched.set(c, { other, range })
  }
  return leafPlan(
    c,
    { kind: 'sorted', verify: false, otherBound: other, range },
    range[1] - range[0],
  )
}

/** The positions of a range comparison (with an optional opposite bound) in a sorted index. */
export function rangeOf(
  c: BoundComparison,
  sorted: SortedIndex,
  otherBound?: BoundComparison,
): [number, number] {
  const bound = (b: BoundComparison) =>
    b.value.kind === 'value'
      ? { key: b.value.key, inclusive: b.op === 'le' || b.op === 'ge' }
      : undefined
  const bounds = otherBound ? [c, otherBound] : [c]
  const lower = bounds.find((b) => LOWER.has(b.op))
  const upper = bounds.find((b) => UPPER.has(b.op))
  if (c.value.kind !== 'value' || (!lower && !upper)) return [0, 0]
  return sorted.range(lower && bound(lower), upper && bound(upper))
}
