/**
 * @module The aggregates of a selection (4D's count, sum, average, min, max, distinct), read from
 * columns and indexes with no entity read (query/aggregate.ts), for the EntitySelection's members.
 * It imports the public classes as types only: it stays out of orda's import circle.
 */
import { sliceable } from '../../query/slices.js'
import {
  aggregateWork,
  distinctWork,
  resolveAggregatePath,
  type AggregateOp,
  type Aggregates,
  type AggregatePath,
  type AggregateValue,
  type DistinctOptions,
} from '../../query/aggregate.js'
import { sortKey } from '../../values/compare.js'
import type { RowIds } from '../../sets/row-ids.js'
import type { AttributeDef, SchemaDef } from '../../schema/definitions.js'
import type { Table } from '../../store/table.js'
import type { StoredValues } from '../../store/entity-record.js'
import { needPathText } from '../restrict/access-checks.js'
import type { RestrictedClass, RestrictedDatastore } from '../restrict/restricted-class.js'
import { fail } from '../../errors/datastore-error.js'

// 4D counts values of booleans, texts, numbers and dates only.
const NOT_SCALAR = new Set(['object', 'image', 'blob'])

/**
 * A dataclass as the aggregates read it: restrict's (what the session may read), with the rows
 * it sees, its attributes and entities. Named by these members, which DataClass has, and not by
 * its class, which aggregates through this file.
 */
export interface AggregatedClass extends RestrictedClass {
  readonly datastore: RestrictedDatastore & { readonly schema: SchemaDef }
  seenTable(): Table
  attribute(name: string): AttributeDef
  entityAt(
    rowId: number,
  ): { readonly values: StoredValues; valueOf(attr: AttributeDef): unknown } | null
}

/** One distinct value and how many entities have it (4D's `dk count values`). */
export interface CountedValue {
  readonly value: AggregateValue
  readonly count: number
}

/** `operation` (or `$all`) of `path` over `rows` of `dc`. */
export function aggregateOf(
  dc: AggregatedClass,
  rows: RowIds,
  path: string,
  operation: AggregateOp | '$all',
): Aggregates {
  needPathText(dc, path)
  const only = operation === '$all' ? undefined : operation
  const resolved = pathOf(dc, path, operation)
  // A pass over many rows goes in slices when the request runs in a slice scope (slices.ts); a
  // result kept while rows changed is computed again.
  return sliceable(`aggregate ${dc.name} ${path} ${operation}`, () =>
    aggregateWork(dc.seenTable(), rows, resolved, {
      ...(only ? { only } : {}),
      whole: () => dc.seenTable().isOrderedRowIds(rows),
    }),
  )
}

/** The distinct values at `path` over `rows` of `dc`, ascending, nulls left out. */
export function distinctOf(
  dc: AggregatedClass,
  rows: RowIds,
  path: string,
  options: DistinctOptions,
): AggregateValue[] {
  needPathText(dc, path)
  const resolved = pathOf(dc, path, 'distinct')
  return sliceable(`distinct ${dc.name} ${path} ${options.diacritical === true}`, () =>
    distinctWork(dc.seenTable(), rows, resolved, {
      diacritical: options.diacritical,
      whole: () => dc.seenTable().isOrderedRowIds(rows),
    }),
  )
}

/**
 * Each distinct value of a storage attribute with the number of entities that have it (4D's
 * `distinct(path; dk count values)`), in the order of `distinctOf`.
 */
export function countValues(
  dc: AggregatedClass,
  rows: RowIds,
  name: string,
  options: DistinctOptions,
): CountedValue[] {
  const attr = dc.attribute(name)
  if (attr.kind !== 'storage' || NOT_SCALAR.has(attr.type) || attr.vector)
    fail('AggregateNotApplicable', [
      'distinct count',
      name,
      dc.name,
      'not a scalar storage attribute',
    ])
  const values = distinctOf(dc, rows, name, options)
  const fold = options.diacritical !== true
  const counts = new Map<unknown, number>(values.map((v) => [sortKey(v, fold), 0]))
  for (const row of rows) {
    const k = sortKey(dc.entityAt(row)?.values[name] ?? null, fold)
    const n = counts.get(k)
    if (n !== undefined) counts.set(k, n + 1)
  }
  return values.map((value) => ({ value, count: counts.get(sortKey(value, fold))! }))
}

function pathOf(dc: AggregatedClass, path: string, operation: string): AggregatePath {
  return resolveAggregatePath(
    {
      def: dc.def,
      dataClass: (name) => dc.datastore.schema.byName.get(name),
      computed: (attr) => (rowId) => dc.entityAt(rowId)?.valueOf(attr) ?? null,
    },
    path,
    operation,
  )
}
