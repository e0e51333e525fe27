/**
 * @module The index lookup of a prepared query that is one equality or IN on an indexed attribute
 * (`name = :1`, `companyId in :1`), given values already of the attribute's type: the rows read
 * from the index, without binding, planning or the executor (prepared-query.ts says when it is
 * asked, and that the general path stays the reference for the result).
 */
import type { DataClassDef, SchemaDef } from '../../schema/definitions.js'
import type { Table } from '../../store/table.js'
import type { ValueType } from '../../schema/model-json.js'
import type { KeyValue } from '../../values/value-types.js'
import { Ast, type QueryNode } from '../../query/ast.js'
import { bindFilter } from '../../query/bind.js'
import type { SortKey } from '../../values/compare.js'
import { fold, foldLatin1 } from '../../values/fold.js'
import type { AttributeIndexes } from '../../indexes/index-set.js'
import type { SelectionRowIds } from '../../sets/row-ids.js'
import {
  equalCount,
  equalityAccess,
  equalRows,
  equalRowsOf,
  type EqualityAccess,
} from '../../query/planner.js'
import type { KeptReads } from '../../query/kept-reads.js'

/** What a lookup reads of its dataclass (a DataClass is one). */
export interface LookupTarget {
  readonly def: DataClassDef
  readonly table: Table
  readonly datastore: { readonly schema: SchemaDef }
}

/** What a prepared query reads from an index when it can, for the values of one run. */
export interface Lookup {
  /**
   * Rows for `params`, or undefined when the general path must answer; with `most`, also when more
   * rows than that match (counted first: an index's bucket or range is not copied to be refused).
   */
  rows(params: readonly unknown[], most?: number): SelectionRowIds | undefined
  /**
   * For one equality: the row id of its one row, -1 for none, or undefined when `rows` must answer
   * (several rows, or the general path).
   */
  one?(params: readonly unknown[]): number | undefined
  /** Whether an index can answer now (indexes can be created and dropped after preparing). */
  indexed(): boolean
}

/**
 * The index lookup of a query that is one `attr = value` or `attr === value` on a storage attribute
 * of the dataclass itself, or undefined for any other query.
 */
export function indexLookup(
  dc: LookupTarget,
  query: QueryNode,
  exposedOnly: boolean,
  reads: KeptReads,
): Lookup | undefined {
  const filter = query.filter
  if (filter?.kind !== 'Comparison') return
  const list = filter.op === 'in'
  if (filter.op !== 'eq' && filter.op !== 'strictEq' && !list) return
  // A path given as a placeholder is known only with the values: the general path binds it.
  if (filter.path.kind === 'Placeholder') return
  const value = filter.value
  if (value.kind === 'List' || (value.kind === 'Placeholder' && value.index === undefined)) return
  // An IN needs its list from a placeholder (`:1` holding an array): a literal list is rare.
  if (list && value.kind !== 'Placeholder') return
  // Resolve the path once, null standing in for the value: `= null` binds on every attribute type,
  // so this throws exactly the path errors the query would (unknown attribute, not exposed…). A
  // computed attribute's query function is not asked: its answer depends on the actual value.
  const shape = bindFilter(
    dc.datastore.schema,
    dc.def,
    { ...filter, op: list ? 'eq' : filter.op, value: Ast.literal({ type: 'null', value: null }) },
    { exposedOnly, computedQueries: false, reads },
  )
  if (shape.kind !== 'Comparison' || shape.operand.kind !== 'storage') return
  // `=` and IN honour wildcards (the general path then reads them as patterns), `===` does not.
  const keyOf = exactKey(shape.type, filter.op !== 'strictEq')
  // The stored attribute must be of the type values are coerced to (a declared foreign key of
  // another type than its target's key would be coerced differently by the general path).
  if (!keyOf || shape.type !== shape.operand.attr.type) return
  const { attr } = shape.operand
  const { folds } = shape
  const table = dc.table
  const read: (params: readonly unknown[]) => unknown =
    value.kind === 'Literal'
      ? () => value.value
      : (params) => (value.index <= params.length ? params[value.index - 1] : undefined)
  // The index to read, chosen again whenever indexes were created or dropped since.
  let version = -1
  let via: EqualityAccess | undefined
  let ix: AttributeIndexes | undefined
  const access = (): EqualityAccess | undefined => {
    if (table.indexes.version !== version) {
      version = table.indexes.version
      via = equalityAccess(table, dc.def, attr, folds)
      ix = table.indexes.of(attr.name)
    }
    return via
  }
  if (list)
    return {
      rows(params, most) {
        const keys = distinctKeys(read(params), keyOf)
        const through = keys && access()
        if (!through) return undefined
        if (most !== undefined) {
          let n = 0
          for (const k of keys!) n += equalCount(table, attr.name, through, k)
          if (n > most) return undefined
        }
        // Through a hash index the buckets are lent, copied only if the selection is read.
        return through === 'hash'
          ? ix!.hash!.lendRowsOf(keys!)
          : equalRowsOf(table, ix, through, keys!)
      },
      indexed: () => access() !== undefined,
    }
  return {
    rows(params, most) {
      const key = keyOf(read(params))
      if (key === undefined) return undefined
      const through = access()
      if (through === undefined) return undefined
      if (most !== undefined && equalCount(table, attr.name, through, key) > most) return undefined
      return equalRows(table, ix, through, key)
    },
    one(params) {
      const key = keyOf(read(params))
      if (key === undefined) return undefined
      const through = access()
      if (through === 'hash') {
        const row = ix!.hash!.only(key)
        return row === -2 ? undefined : row
      }
      return through === 'key' ? (table.rowIdOf(key as KeyValue) ?? -1) : undefined
    },
    indexed: () => access() !== undefined,
  }
}

/**
 * The distinct keys of an IN's list, in the order first given (the general path's order), or
 * undefined when the general path must answer: not an array, empty, or an item that needs more
 * than `keyOf` (coercion, null, a wildcard).
 */
function distinctKeys(
  raw: unknown,
  keyOf: (raw: unknown) => SortKey | undefined,
): SortKey[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  const keys: SortKey[] = []
  for (const item of raw as unknown[]) {
    const key = keyOf(item)
    if (key === undefined) return undefined
    keys.push(key)
  }
  // A few values compared pairwise; a long list through a Set.
  if (keys.length > 16) return [...new Set(keys)]
  return keys.filter((k, i) => keys.indexOf(k) === i)
}

/**
 * The index key of a raw value that needs no coercion for an attribute of `type`, or undefined
 * (coercion, wildcards, null and errors are the general path's). Same keys as bind's `scalar`.
 */
export function exactKey(
  type: ValueType | undefined,
  wildcards: boolean,
): ((raw: unknown) => SortKey | undefined) | undefined {
  switch (type) {
    case 'string':
      return (raw) => (typeof raw === 'string' ? exactTextKey(raw, wildcards) : undefined)
    case 'byte':
    case 'word':
    case 'long':
    case 'long64':
    case 'number':
      // -0 is stored and coerced as 0.
      return (raw) =>
        typeof raw === 'number' && Number.isFinite(raw) ? (raw === 0 ? 0 : raw) : undefined
    case 'bool':
      return (raw) => (typeof raw === 'boolean' ? raw : undefined)
    default:
      return undefined
  }
}

/**
 * `fold(raw)`, or undefined when `raw` holds a wildcard that `=` honours. One pass over the code
 * units finds wildcards, non-ASCII text and capitals at once: lowercase ASCII (the usual key) is
 * its own key, nothing allocated. Non-ASCII text is scanned to its end too, then folded as what the
 * scan saw (Latin-1 or not), where it was searched again for wildcards (two `includes`), then for
 * non-ASCII and non-Latin-1 characters (`fold`'s two tests): ≈10 ns of the ≈200 a key of 16
 * accented characters takes here (2026-11-26), most of which is reading and folding its characters.
 */
function exactTextKey(raw: string, wildcards: boolean): string | undefined {
  let lower = true
  let ascii = true
  let latin1 = true
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c >= 128) {
      ascii = false
      if (c > 255) latin1 = false
    } else if (c === 64 /* @ */ || c === 42 /* * */) {
      if (wildcards) return undefined
    } else if (c >= 65 && c <= 90) lower = false
  }
  if (!ascii) return latin1 ? foldLatin1(raw) : fold(raw)
  return lower ? raw : raw.toLowerCase()
}
