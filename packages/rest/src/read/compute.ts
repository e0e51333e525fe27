/**
 * @module `$compute`: aggregates of one attribute over the selection a read names.
 *
 * `GET /rest/Employee/salary?$compute=$all` (or Qodly's `/rest/Employee?$attributes=salary&…`)
 * answers `{"salary": {"count", "sum", "average", "min", "max"}}` (`{"count", "min", "max"}` for
 * texts, dates and booleans); one keyword (`count`, `sum`, `average`, `min`, `max`) answers the bare
 * value. The min and max of dates are ISO 8601 date-times, as the spec says, date-only ones too
 * (midnight UTC), although a read writes those as `!!YYYY-MM-DD!!`. The core computes from columns
 * and indexes (core `query/aggregate.ts`); `$filter` applies, `$top`, `$skip` and `$orderby` do
 * not. Nothing of the selection is ordered or read as entities.
 */
import {
  aliasTarget,
  fail,
  parseDate,
  type AliasAttributeDef,
  type AttributeDef,
  type DataClass,
} from '@entistore/core'
import type { Reply } from '../reply.js'
import { isShown, shownNames } from '../serialize/entity.js'
import type { ComputedRead } from './read-request.js'

type Keyword = '$all' | 'count' | 'sum' | 'average' | 'min' | 'max'
const KEYWORDS: ReadonlyMap<string, Keyword> = new Map(
  (['$all', 'count', 'sum', 'average', 'min', 'max'] as const).map((k) => [k, k]),
)

export function computeReply(read: ComputedRead, keyword: string): Reply {
  // Keywords are matched without regard to case, as the parameters' names are.
  const op = KEYWORDS.get(keyword.toLowerCase()) ?? fail('ComputeKeywordUnknown', [keyword])
  const path = onePath(read, `$compute=${keyword}`)
  const { selection } = read
  const form = extremeForm(read.dc, path)
  let body: unknown
  switch (op) {
    case '$all': {
      const a = selection.aggregates(path)
      const all =
        a.sum === undefined
          ? { count: a.count, min: form(a.min), max: form(a.max) }
          : { count: a.count, sum: a.sum, average: a.average, min: form(a.min), max: form(a.max) }
      body = { [path]: all }
      break
    }
    case 'count':
      body = selection.count(path)
      break
    case 'sum':
      body = selection.sum(path)
      break
    case 'average':
      body = selection.average(path)
      break
    case 'min':
      body = form(selection.min(path))
      break
    case 'max':
      body = form(selection.max(path))
  }
  // A bare value (235000, "Adams", null) is JSON text of its own, not an object.
  return { status: 200, body: JSON.stringify(body) }
}

/**
 * The one attribute path a computation reads, from the URL's path or `$attributes`: 1816 when
 * there is none, 9050 for more than one, 1500 when its attribute is unknown or hidden (a hidden
 * attribute does not exist for REST, nor does a relation to a hidden dataclass or an alias through
 * one: see `isShown`).
 */
export function onePath(read: ComputedRead, operation: string): string {
  const paths = read.paths ?? []
  if (paths.length === 0)
    fail('EmptyAttributeList', [
      `${operation} needs one attribute, in the path (/rest/${read.dc.name}/attribute?${operation}) or in $attributes`,
    ])
  const path = paths[0]!
  if (paths.length > 1 || path === '*')
    fail('AggregateNotApplicable', [
      operation,
      paths.join(','),
      read.dc.name,
      'it reads one attribute: name one only',
    ])
  const name = path.split('.')[0]!.replace(/\[\]$/, '').trim()
  const attr = read.dc.def.attributesByName.get(name)
  if (!attr || !isShown(read.dc.datastore.schema, attr))
    fail('AttributeNotFound', [name, read.dc.name, shownNames(read.dc)])
  return path
}

/**
 * How a value of `path` is written: date-only values (of the attribute or of an alias ending on
 * one) as the read form writes them, `!!YYYY-MM-DD!!`; everything else as it is.
 */
export function valueForm(dc: DataClass, path: string): (v: unknown) => unknown {
  return readsDateOnly(dc, path) ? (v) => (typeof v === 'string' ? `!!${v}!!` : v) : (v) => v
}

/**
 * How the min or max of `path` is written: a date-only value (`YYYY-MM-DD`) as the ISO 8601
 * date-time of its midnight UTC, the form date-time values have everywhere in the API (and how
 * the core reads `!!YYYY-MM-DD!!` into a date-time); everything else, date-times included, as it is.
 */
function extremeForm(dc: DataClass, path: string): (v: unknown) => unknown {
  return readsDateOnly(dc, path)
    ? (v) => (typeof v === 'string' ? (parseDate(v, false) ?? v) : v)
    : (v) => v
}

/** Whether `path` names a date-only attribute, or an alias that ends on one. */
function readsDateOnly(dc: DataClass, path: string): boolean {
  const attr = dc.def.attributesByName.get(path)
  const end = attr?.kind === 'alias' ? aliasEnd(dc, attr) : attr
  return end?.kind === 'storage' && end.type === 'date' && end.dateOnly
}

function aliasEnd(dc: DataClass, alias: AliasAttributeDef): AttributeDef | undefined {
  const target = aliasTarget((n) => dc.datastore.schema.byName.get(n), dc.def, alias.path)
  return target?.many === false ? target.attr : undefined
}
