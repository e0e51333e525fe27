/**
 * @module The `$` parameters of a request, checked and typed. Keyword names are matched without
 * regard to case (`$queryPlan` and `$queryplan` both appear in 4D's docs). Names without a `$` are
 * not 4D's and are ignored (cache busters such as `_=1700000000`), but for json-server's on a read
 * of a dataclass, which handler.ts refuses (json-server-habits.ts).
 */
import { quoteBareKeys } from './bare-keys.js'
import { datastoreError, fail } from '@entistore/core'
import { DEFAULT_MAX_DEPTH, readClientJson, type Refuse } from '../body/client-json.js'
import { unquote, type RawParam } from './query-string.js'

/** The parameters, by lowercase name → canonical name. */
const IMPLEMENTED = [
  '$top',
  '$limit',
  '$skip',
  '$asArray',
  '$4DSID',
  '$filter',
  '$params',
  '$orderby',
  '$queryplan',
  '$querypath',
  '$method',
  '$atomic',
  '$atOnce',
  // Known to the real server for catalog reads; nothing to change in the reply: read and ignored.
  '$metadata',
  '$attributes',
  '$expand',
  '$compute',
  '$distinct',
  '$format',
  '$imageformat',
  '$version',
  '$binary',
  '$timeout',
  '$savedfilter',
  '$savedorderby',
  '$subOrderby',
  '$logicOperator',
  '$otherCollection',
  '$clean',
  '$lock',
  '$rawPict',
  // Wakanda's dialect (docs/compat.md): a save that answers without saving, and a selection
  // function called on the related entities of a subentityset.
  '$refresh',
  '$emMethod',
  // The live feed's (`/rest/$changes`, not 4D's): the dataclasses followed, the stamp resumed after.
  '$dataClasses',
  '$since',
] as const

/** The `$method` values of the real server (Wakanda's method list plus Qodly's `insert`). */
const METHODS = [
  'update',
  'insert',
  'delete',
  'entityset',
  'release',
  'subentityset',
  'validate',
] as const
export type RestMethod = (typeof METHODS)[number]
const METHOD_BY_NAME = new Map<string, RestMethod>(METHODS.map((m) => [m, m]))

// Not parameters: $catalog, $info, $directory, $upload, $singleton and $entityset, which are path
// resources (`/rest/$info`), never query parameters: `?$info=1` is an unknown keyword (1811).

type Name = (typeof IMPLEMENTED)[number]
const CANONICAL = new Map<string, string>(IMPLEMENTED.map((n) => [n.toLowerCase(), n]))

export interface RestParams {
  readonly top: number | undefined
  readonly skip: number
  readonly asArray: boolean
  /** A session id passed in the URL (4D's reserved `$4DSID`) instead of the cookie. */
  readonly sessionId: string | undefined
  /** `$filter`, its quotes removed; `\u0022`-style escapes are left to the filter grammar. */
  readonly filter: string | undefined
  /** `$params`: the values of `:1`, `:2`… */
  readonly params: readonly unknown[] | undefined
  readonly orderBy: string | undefined
  readonly queryPlan: boolean
  readonly queryPath: boolean
  /** `$method`, lowercased. */
  readonly method: RestMethod | undefined
  /** `$atomic=true` or `$atOnce=true`: the body's actions in one transaction. */
  readonly atomic: boolean
  /** `$attributes`: the attribute paths, split on commas and trimmed. */
  readonly attributes: readonly string[] | undefined
  /** `$expand`: the attribute names, split on commas and trimmed. */
  readonly expand: readonly string[] | undefined
  /** `$compute`: the keyword as written, quotes removed (`$all`, `sum`, …). */
  readonly compute: string | undefined
  /** `$distinct=true`. */
  readonly distinct: boolean
  /** `$format`, lowercased (`dashboard`, `looker`). */
  readonly format: string | undefined
  /** `$imageformat`, lowercased (`best`, `png`, `jpeg`…). */
  readonly imageFormat: string | undefined
  /** `$binary=true`: a BLOB sent as a document to save. */
  readonly binary: boolean
  /**
   * `$rawPict`: a picture's own bytes. `true` (or empty), or the media type of the bytes a POST
   * sends (`image/png`, as Wakanda's client writes it); lowercased. Undefined when absent; `false`
   * and `0` are absent too.
   */
  readonly rawPict: string | undefined
  /** `$timeout`: an entity set's lifetime in seconds. */
  readonly timeout: number | undefined
  /** `$savedfilter`, `$savedorderby`: the text (quotes removed), or 'true' as some clients send. */
  readonly savedFilter: string | undefined
  readonly savedOrderBy: string | undefined
  /** `$subOrderby`, with `$method=subentityset`. */
  readonly subOrderBy: string | undefined
  /** `$logicOperator`, upper-cased, and `$otherCollection` (an entity set id). */
  readonly logicOperator: string | undefined
  readonly otherCollection: string | undefined
  /** `$clean=true`. */
  readonly clean: boolean
  /** `$lock=true` locks the entity for the session, `$lock=false` unlocks it; undefined: neither. */
  readonly lock: boolean | undefined
  /** `$refresh=true` with `$method=update`: the entity as it would be saved, nothing saved. */
  readonly refresh: boolean
  /** `$emMethod`, with `$method=subentityset`: the selection function to call on the entities. */
  readonly emMethod: string | undefined
  /** `$dataClasses` of `/rest/$changes`: the names, split on commas and trimmed. */
  readonly dataClasses: readonly string[] | undefined
  /** `$since` of `/rest/$changes`: the global stamp to resume after. */
  readonly since: number | undefined
}

export interface ParamLimits {
  /** Largest `$top`/`$limit` accepted. */
  readonly maxTop: number
  /**
   * Deepest nesting of objects and arrays in `$params`: the same limit as a request body's (the
   * handler's `maxBodyDepth`), since a function takes either. @default 64
   */
  readonly maxDepth?: number
}

const INTEGER = /^[+]?\d+$/

function nonNegativeInteger(name: string, value: string, limit?: number): number {
  const v = unquote(value)
  if (!INTEGER.test(v)) return fail('InvalidParameter', [name, value, 'a non-negative integer'])
  const n = Number(v)
  if (!Number.isSafeInteger(n))
    return fail('InvalidParameter', [name, value, 'a non-negative integer'])
  if (limit !== undefined && limit !== Infinity && n > limit) {
    throw datastoreError('LimitExceeded', [`${name}=${n}`, limit], { details: { parameter: name } })
  }
  return n
}

function boolean(name: string, value: string): boolean {
  const v = unquote(value).toLowerCase()
  if (v === 'true' || v === '1' || v === '') return true
  if (v === 'false' || v === '0') return false
  return fail('InvalidParameter', [name, value, 'true or false'])
}

/** Checks and types the parameters. Unknown `$` keywords throw 1811. */
export function readParams(raw: readonly RawParam[], limits: ParamLimits): RestParams {
  const byName = new Map<Name, string>()
  for (const { name, value } of raw) {
    if (!name.startsWith('$')) continue
    const canonical = CANONICAL.get(name.toLowerCase())
    if (canonical === undefined) fail('UnknownQueryKeyword', [name])
    byName.set(canonical as Name, value) // the last occurrence wins, as in most URL readers
  }
  const get = (n: Name): string | undefined => byName.get(n)
  const topText = get('$top') ?? get('$limit')
  const topName = get('$top') !== undefined ? '$top' : '$limit'
  const asArray = get('$asArray')
  const sid = get('$4DSID')
  return {
    top: topText === undefined ? undefined : nonNegativeInteger(topName, topText, limits.maxTop),
    skip: get('$skip') === undefined ? 0 : nonNegativeInteger('$skip', get('$skip')!),
    asArray: asArray === undefined ? false : boolean('$asArray', asArray),
    sessionId: sid === undefined ? undefined : unquote(sid),
    filter: get('$filter') === undefined ? undefined : unquote(get('$filter')!),
    params:
      get('$params') === undefined
        ? undefined
        : jsonArray('$params', get('$params')!, limits.maxDepth ?? DEFAULT_MAX_DEPTH),
    orderBy: get('$orderby') === undefined ? undefined : unquote(get('$orderby')!),
    queryPlan: get('$queryplan') === undefined ? false : boolean('$queryplan', get('$queryplan')!),
    queryPath: get('$querypath') === undefined ? false : boolean('$querypath', get('$querypath')!),
    method: get('$method') === undefined ? undefined : restMethod(get('$method')!),
    attributes: list('$attributes', get('$attributes')),
    expand: list('$expand', get('$expand')),
    compute: get('$compute') === undefined ? undefined : unquote(get('$compute')!).trim(),
    distinct: get('$distinct') === undefined ? false : boolean('$distinct', get('$distinct')!),
    format:
      get('$format') === undefined ? undefined : unquote(get('$format')!).trim().toLowerCase(),
    // `$version` only defeats caches (the server changes it with the picture): read and ignored.
    imageFormat:
      get('$imageformat') === undefined
        ? undefined
        : unquote(get('$imageformat')!).trim().toLowerCase(),
    binary: get('$binary') === undefined ? false : boolean('$binary', get('$binary')!),
    rawPict: rawPict(get('$rawPict')),
    timeout:
      get('$timeout') === undefined ? undefined : nonNegativeInteger('$timeout', get('$timeout')!),
    savedFilter: text(get('$savedfilter')),
    savedOrderBy: text(get('$savedorderby')),
    subOrderBy: text(get('$subOrderby')),
    logicOperator: text(get('$logicOperator'))?.toUpperCase(),
    otherCollection: text(get('$otherCollection')),
    clean: get('$clean') === undefined ? false : boolean('$clean', get('$clean')!),
    lock: get('$lock') === undefined ? undefined : boolean('$lock', get('$lock')!),
    refresh: get('$refresh') === undefined ? false : boolean('$refresh', get('$refresh')!),
    emMethod: text(get('$emMethod')) || undefined,
    dataClasses: list('$dataClasses', get('$dataClasses')),
    since: get('$since') === undefined ? undefined : nonNegativeInteger('$since', get('$since')!),
    atomic:
      (get('$atomic') !== undefined && boolean('$atomic', get('$atomic')!)) ||
      (get('$atOnce') !== undefined && boolean('$atOnce', get('$atOnce')!)),
  }
}

/** `$rawPict`: `true`, a media type, or undefined (absent, `false`, `0`). */
function rawPict(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const v = unquote(value).trim().toLowerCase()
  if (v === '' || v === '1' || v === 'true') return 'true'
  if (v === 'false' || v === '0') return undefined
  if (!/^image\/[a-z0-9.+-]+$/.test(v))
    fail('InvalidParameter', [
      '$rawPict',
      value,
      'true, false, or a picture media type such as image/png',
    ])
  return v
}

/** A text value, its quotes removed and trimmed. */
function text(value: string | undefined): string | undefined {
  return value === undefined ? undefined : unquote(value).trim()
}

/** A comma-separated list (`$attributes=name, employer.name`); an empty one is 1816, as on Wakanda. */
function list(name: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const items = unquote(value)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  return items.length > 0
    ? items
    : fail('InvalidParameter', [name, value, 'a list of attribute names'])
}

/** `$method=update` (any case, quotes removed); 1812 for a method the real server does not have. */
function restMethod(value: string): RestMethod {
  return METHOD_BY_NAME.get(unquote(value).toLowerCase()) ?? fail('UnknownRestMethod', [value])
}

/**
 * `$params='["john",20000]'`: a JSON array, with or without the single quotes clients put around it,
 * read as a request body is (body/client-json.ts): a value a body may not carry (a `__proto__` key,
 * a nesting past `maxDepth`) is refused here too, before any function or query sees it.
 */
function jsonArray(name: string, value: string, maxDepth: number): unknown[] {
  const refuse: Refuse = (why, options) =>
    fail('InvalidParameter', [name, value, `a JSON array, but ${why}`], options)
  const text = unquote(value)
  let parsed: unknown
  try {
    parsed = readClientJson(text, maxDepth, refuse)
  } catch (error) {
    // 4D's pages write bare keys (`[{vector:[1,2],threshold:1}]`): read so once JSON failed; the
    // strict text, the common case, is parsed once.
    const quoted = quoteBareKeys(text)
    if (quoted === undefined) throw error
    parsed = readClientJson(quoted, maxDepth, refuse)
  }
  if (!Array.isArray(parsed)) return fail('InvalidParameter', [name, value, 'a JSON array'])
  return parsed
}
