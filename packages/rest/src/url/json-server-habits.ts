/**
 * @module json-server's query parameters (`_sort`, `_page`, `views_gte`, `q`…), which a front-end
 * developer used to json-server sends out of habit: 4D ignores every name without `$`, so such a
 * read answered every entity, unsorted, with no hint. A read of a dataclass that sends one is
 * refused with 9023, whose message gives the 4D parameters that do what was asked
 * (`$orderby="views desc"`, `$skip`, `$top`, `$filter`, `$expand`).
 *
 * The rule is by name only, the same for the server and the request log (which names the habits
 * it sees): json-server's own names (0.17's and 1.0's), and a name ending in one of its operators
 * (`_gt`, `_gte`, `_lt`, `_lte`, `_ne`, `_like`). Every other name without `$` is ignored, as 4D
 * does: cache busters (`_=1700000000`), tracking tags. json-server's `title=hello` (a plain
 * attribute name) cannot be told from them, and is ignored too. See docs/coming-from-json-server.md.
 */
import { fail } from '@entistore/core'
import { parseQueryString, type RawParam } from './query-string.js'

/** json-server's names that are not operators on an attribute. */
const RESERVED = new Set([
  '_sort',
  '_order',
  '_page',
  '_limit',
  '_per_page',
  '_start',
  '_end',
  '_embed',
  '_expand',
  'q',
])

/** `views_gte`, `author.name_like`: an attribute path (json-server's), then its operator. */
const OPERATOR = /^[A-Za-z_][\w$]*(?:\.[\w$]+|\[\d+\])*_(gte?|lte?|ne|like)$/

/** The 4D comparison of each json-server operator. */
const COMPARISON: Record<string, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=', ne: '!=' }

/** Whether `name` is one of json-server's parameters. */
export function isJsonServerName(name: string): boolean {
  return RESERVED.has(name) || OPERATOR.test(name)
}

/** The names of the parameters of a query string that are json-server's, in order, each once. */
export function jsonServerNames(params: readonly RawParam[]): string[] {
  const names = new Set<string>()
  for (const { name } of params) if (isJsonServerName(name)) names.add(name)
  return [...names]
}

/**
 * The json-server names of a request target's query (`/rest/Post?_sort=views`), for its log line;
 * none when it has no query, or one that cannot be read (the reply said so).
 */
export function jsonServerNamesOf(target: string): string[] {
  const query = target.indexOf('?')
  if (query < 0) return []
  try {
    return jsonServerNames(parseQueryString(target.slice(query + 1)))
  } catch {
    return []
  }
}

/** One translation: the json-server parameters, and the 4D parameter that does their work. */
export interface HabitTranslation {
  readonly habits: readonly string[]
  readonly fourD: string
  /** What the 4D form does otherwise. */
  readonly note?: string
}

/**
 * Refuses a read that sends json-server's parameters (9023), its message giving the 4D parameter
 * of each and, when there are several, the query string of them all.
 */
export function refuseJsonServerHabits(params: readonly RawParam[]): void {
  const translations = translateHabits(params)
  if (translations.length === 0) return
  const each = translations
    .map((t) => `${t.habits.join(', ')} → ${t.fourD}${t.note === undefined ? '' : ` (${t.note})`}`)
    .join('; ')
  const all = translations.length > 1 ? `?${translations.map((t) => t.fourD).join('&')}` : ''
  fail('JsonServerParameters', [each, all])
}

/**
 * What the json-server parameters of `params` ask, as 4D parameters: one translation for each
 * kind (the filter, the order, the page, the relations), in that order. Empty when none is there.
 */
export function translateHabits(params: readonly RawParam[]): HabitTranslation[] {
  const last = new Map<string, string>()
  for (const { name, value } of params) if (isJsonServerName(name)) last.set(name, value)
  if (last.size === 0) return []
  const out: HabitTranslation[] = []
  const names = [...last.keys()]
  const got = (name: string) => last.get(name)

  const filters = names.filter((n) => n === 'q' || OPERATOR.test(n))
  if (filters.length > 0)
    out.push({
      habits: filters,
      fourD: `$filter="${filters.map((n) => condition(n, got(n)!)).join(' AND ')}"`,
      ...(last.has('q')
        ? { note: 'q: 4D searches an attribute at a time, join them with OR' }
        : {}),
    })

  const sort = got('_sort')
  const order = got('_order')
  if (sort !== undefined || order !== undefined)
    out.push({
      habits: names.filter((n) => n === '_sort' || n === '_order'),
      fourD: `$orderby="${orderBy(sort ?? 'attribute', order)}"`,
    })

  const page = window(got)
  if (page !== undefined)
    out.push({
      habits: names.filter((n) => ['_page', '_limit', '_per_page', '_start', '_end'].includes(n)),
      fourD: page,
    })

  const related = names.filter((n) => n === '_embed' || n === '_expand')
  if (related.length > 0)
    out.push({
      habits: related,
      fourD: `$expand=${related.map((n) => got(n)!).join(',')}`,
    })
  return out
}

/** A value in a 4D filter: a number as written, any other text in single quotes, cut at 100. */
function literal(value: string): string {
  const text = value.length > 100 ? `${value.slice(0, 100)}…` : value
  return /^-?\d+(\.\d+)?$/.test(text) ? text : `'${text.replace(/['\\]/g, '\\$&')}'`
}

/** One json-server condition as 4D's: `views >= 100`, `title = '@server@'` (a contains). */
function condition(name: string, value: string): string {
  // json-server's `q` searches every field; 4D compares one attribute at a time.
  if (name === 'q') return `attribute = ${literal(`@${value}@`)}`
  const [, op] = OPERATOR.exec(name)!
  const path = name.slice(0, -(op!.length + 1))
  // `_like` is a regular expression in json-server; 4D matches `@` as any run of characters.
  return op === 'like'
    ? `${path} = ${literal(`@${value}@`)}`
    : `${path} ${COMPARISON[op!]} ${literal(value)}`
}

/** `_sort=user,-views&_order=desc,asc` (json-server 0.17's and 1.0's) as `user desc, views asc`. */
function orderBy(sort: string, order: string | undefined): string {
  const orders = (order ?? '').split(',').map((o) => o.trim().toLowerCase())
  return sort
    .split(',')
    .map((field, i) => {
      const f = field.trim()
      const desc = f.startsWith('-') || orders[i] === 'desc'
      return `${desc ? f.replace(/^-/, '') : f} ${desc ? 'desc' : 'asc'}`
    })
    .join(', ')
}

/** A whole number, or undefined. */
function count(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined
}

/**
 * json-server's page (`_page` and `_limit` or `_per_page`, 10 by default) or slice (`_start`,
 * `_end` or `_limit`, as Array.slice) as `$skip` and `$top`.
 */
function window(got: (name: string) => string | undefined): string | undefined {
  const limit = count(got('_limit') ?? got('_per_page'))
  const page = count(got('_page'))
  const start = count(got('_start'))
  const end = count(got('_end'))
  const any = ['_page', '_limit', '_per_page', '_start', '_end'].some((n) => got(n) !== undefined)
  if (!any) return undefined
  let skip = start ?? 0
  let top = limit
  if (got('_page') !== undefined) {
    top = limit ?? 10
    skip = Math.max(0, (page ?? 1) - 1) * top
  } else if (end !== undefined) top = Math.max(0, end - skip)
  return top === undefined ? `$skip=${skip}` : `$skip=${skip}&$top=${top}`
}
