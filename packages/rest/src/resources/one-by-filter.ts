/**
 * @module The quick lane of a filter an index answers at once, holding no more entities than a
 * page sends: an equality (`GET /rest/Person?$filter="code='C0012345'"`, a unique code, the key;
 * `$filter="employerID=3"`, the rows of one parent) or a range of one sorted index with both bounds
 * (`$filter="code>='C1' AND code<'C2'"`), for a datastore where nothing is checked, as
 * read-by-key.ts's lane: the selection's envelope and its members are written at once, without
 * the machinery the general path runs for every query (its parameters read whole, its time budget,
 * its slices, a 4D process, the plan, the page a reply keeps, the reply's chunks). That machinery
 * is small in process (16 µs a request) but not under a server, where the other work between two
 * requests evicts it from the caches: with 2 MB read between two requests it took 22–26 µs, with
 * 8 MB 33–73. A 20-row range took 26 µs of it in process, more than its rows.
 *
 * Only what the lane can tell is cheap and answered the same takes it: a query string that is one
 * `$filter` and nothing else, whose filter is one `=` or `===` of one stored attribute with a
 * number or a text without a wildcard (`@`), or a lower and an upper bound of one attribute
 * (`>`/`>=` and `<`/`<=`), which an index answers now (a prepared query's direct lookup: core's
 * index-lookup.ts and range-lookup.ts), found to hold at most one row for the key or a unique
 * attribute (what uniqueness, checked folded as the equality compares, promises; asked all the
 * same) and otherwise at most the dataclass's default top (the rows a page holds, counted in the
 * index before any is read: more are paged, the general path's), written in full (no computed
 * attribute shown). Anything else (an error of any kind included) returns undefined, and the
 * general path answers the request from the start, so every other reply is its own. A property
 * test holds the two to the same replies (one-by-filter.prop.test.ts).
 */
import {
  filterSize,
  isPublic,
  parseCached,
  type ComparisonNode,
  type DataClassDef,
  type FilterNode,
  type DataClass,
  type Datastore,
  type EntitySelection,
} from '@entistore/core'
import type { EntityWriter } from '../serialize/entity.js'
import { envelopeClose, envelopeOpen } from '../serialize/selection.js'
import { formDecode, unquote } from '../url/query-string.js'
import type { QueryLimits } from '../url/query-limits.js'

/** The body of the answer to `path?query`, or undefined when the general path must answer. */
export type OneByFilter = (path: string, query: string) => string | undefined

// `$filter=` as clients write its name: as is, or form-encoded (`%24filter=`), any case.
const FILTER_NAME = /^(?:\$|%24)filter=/i

/** A dataclass's name as a path's last segment (no key, no attribute, no trailing slash). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The filter of a query string that holds `$filter` alone, or undefined. */
function onlyFilter(query: string): string | undefined {
  const match = FILTER_NAME.exec(query)
  if (match === null || query.includes('&', match[0].length)) return undefined
  try {
    return unquote(formDecode(query.slice(match[0].length), query))
  } catch {
    return undefined
  }
}

/**
 * What `c` compares, when it is an equality of one stored attribute of `def` with a value the
 * index lookup reads as it is: `unique` for the key or a unique attribute (one row at most),
 * `many` for any other (rows counted against a page before they are read).
 */
function equality(c: ComparisonNode, def: DataClassDef): 'unique' | 'many' | undefined {
  if (c.op !== 'eq' && c.op !== 'strictEq') return undefined
  const name = attributeOf(c)
  const attr = name === undefined ? undefined : def.storage.find((a) => a.name === name)
  if (attr === undefined) return undefined
  const v = c.value
  if (v.kind !== 'Literal') return undefined
  if (v.type !== 'number' && (v.type !== 'string' || v.value.includes('@'))) return undefined
  return attr.unique || attr === def.key ? 'unique' : 'many'
}

const LOWER: ReadonlySet<string> = new Set(['gt', 'ge'])
const UPPER: ReadonlySet<string> = new Set(['lt', 'le'])

/** The one attribute `c` compares, by name, when its path is one (no relation, no placeholder). */
const attributeOf = (c: FilterNode): string | undefined =>
  c.kind === 'Comparison' && c.path.kind === 'AttributePath' && c.path.segments.length === 1
    ? c.path.segments[0]!.name
    : undefined

/**
 * Whether `f` is a lower and an upper bound of one attribute with literal values (`code>='C1' AND
 * code<'C2'`): the shape of a range lookup. The index, the types and the values are the lookup's
 * to judge; the shape spares every other filter the preparing.
 */
function boundPair(f: FilterNode): boolean {
  if (f.kind !== 'Logical' || f.op !== 'And' || f.operands.length !== 2) return false
  const [a, b] = f.operands as [FilterNode, FilterNode]
  if (a.kind !== 'Comparison' || b.kind !== 'Comparison') return false
  if (!((LOWER.has(a.op) && UPPER.has(b.op)) || (UPPER.has(a.op) && LOWER.has(b.op)))) return false
  const name = attributeOf(a)
  return (
    name !== undefined &&
    attributeOf(b) === name &&
    a.value.kind === 'Literal' &&
    b.value.kind === 'Literal'
  )
}

export function oneByFilterLane(
  ds: Datastore,
  basePath: string,
  writer: EntityWriter,
  limits: QueryLimits,
  maxReplyBytes: number,
): OneByFilter {
  const columns = writer.columns
  return (path, query) => {
    if (path.length <= basePath.length + 1 || !path.startsWith(basePath)) return undefined
    if (path.charCodeAt(basePath.length) !== 0x2f /* / */) return undefined
    const name = path.slice(basePath.length + 1)
    if (!NAME.test(name)) return undefined
    const dc = ds.findDataClass(name)
    if (dc === undefined || !isPublic(dc.def) || dc.def.defaultTopSize < 1) return undefined
    const filter = onlyFilter(query)
    if (filter === undefined || filter.length > limits.maxFilterLength) return undefined
    let body: string | undefined
    try {
      const node = parseCached(filter, '$filter')
      const f = node.filter
      if (node.orderBy.length > 0 || f === null) return undefined
      const equal = f.kind === 'Comparison' ? equality(f, dc.def) : undefined
      if (equal === undefined && !boundPair(f)) return undefined
      const unique = equal === 'unique'
      // Within the query limits as the general path reads them (an embedder may set them low).
      if (filterSize(f).depth > limits.maxFilterDepth) return undefined
      // An index still being built is as if absent here: the general path waits for it.
      body = ds.withoutUnbuiltIndexes(() => {
        const prepared = dc.prepare(node, { exposedOnly: true })
        if (!prepared.direct) return undefined
        const most = unique ? 1 : dc.def.defaultTopSize
        const found = unique ? prepared.select() : prepared.lookupSelect([], most)
        if (found === undefined || found.length > most) return undefined
        let text = envelopeOpen(dc, found.length, 0)
        const rows = found.rowIds
        for (let i = 0; i < rows.length; i++) {
          const member = memberText(dc, rows[i]!, found, i)
          if (member === undefined) return undefined
          text += i === 0 ? member : `,${member}`
        }
        return text + envelopeClose(found.length)
      })
    } catch {
      return undefined
    }
    // A reply that might be past the limit (three bytes a character at most) is the general
    // path's to refuse.
    return body !== undefined && body.length <= maxReplyBytes / 3 ? body : undefined
  }

  /** Member `i` of `found` (row `rowId`): from its load's columns, else from its entity. */
  function memberText(
    dc: DataClass,
    rowId: number,
    found: EntitySelection,
    i: number,
  ): string | undefined {
    const text = columns?.memberOf(dc, rowId)
    if (text !== undefined) return text
    const entity = found.at(i)
    return entity && writer.viewOf(entity) === '' ? writer.member(entity) : undefined
  }
}
