/**
 * @module The resource part of a REST URL: `/rest/$catalog…`, `/rest/$upload`, `/rest/{dataClass}`,
 * `/rest/{dataClass}({key})` or `[key]`, `/rest/{dataClass}:{attribute}(value)`, each optionally
 * followed by `/attr1,attr2` and `/$entityset/{id}`. Pure: text in, a `RestTarget` out.
 *
 * 4D's own docs sometimes start the query with a path segment (`/rest/Employee/$filter="…"&$top=2`);
 * a segment that starts with `$` and holds `=` is therefore read as the start of the query string.
 */
import { fail } from '@entistore/core'
import { formDecode } from './query-string.js'

/**
 * The segment of 21 R4's `POST /rest/{dataClass}/$entityset/$release` (and of
 * `/rest/$entityset/$release`): where a set id goes, but it names none (the sets it releases are
 * in its body).
 */
export const RELEASE_SEGMENT = '$release'

export type RestTarget =
  | { readonly kind: 'catalog'; readonly which: 'short' | 'all' }
  | { readonly kind: 'catalogDataClass'; readonly name: string }
  | { readonly kind: 'info'; readonly privileges?: true }
  /** `/rest/$directory/login` and its siblings: who the session's user is. */
  | { readonly kind: 'directory'; readonly action: DirectoryAction }
  /** `/rest/$singleton/{singleton}/{function}`: a function of a shared singleton. */
  | { readonly kind: 'singleton'; readonly singleton: string; readonly function: string }
  /** `/rest/$upload`: a file sent to be kept for a later write. */
  | { readonly kind: 'upload' }
  /** `/rest/$openapi`: the OpenAPI description of the interface (Entistore's, not 4D's). */
  | { readonly kind: 'openapi' }
  /**
   * `/rest/$entityset/$release`: the sets a POST's body names released, whatever their dataclass
   * (4D's quota demo sends it so; its docs show the form with a dataclass).
   */
  | { readonly kind: 'releaseSets' }
  /** `/rest/$changes`, `/rest/Employee/$changes`: the live feed (resources/changes.ts). */
  | { readonly kind: 'changes'; readonly dataClass?: string }
  /**
   * A path outside the interface that an HTTP request handler takes (web-server/http-handlers.ts;
   * never made by parseRestUrl): the path and query as sent.
   */
  | {
      readonly kind: 'httpHandler'
      /** The shared singleton and its function that answer. */
      readonly handler: { readonly class: string; readonly method: string }
      readonly path: string
      readonly query: string
    }
  | {
      readonly kind: 'dataClass'
      readonly dataClass: string
      /** `Employee(3)` / `Employee[3]`: the key as written, quotes removed. */
      readonly key?: string
      /** `Employee:lastName(Jones)`: an entity found by a unique attribute. */
      readonly lookup?: { readonly attribute: string; readonly value: string }
      /** `/firstName,lastName`: the attributes named in the path. */
      readonly attributes?: readonly string[]
      /** `/$entityset/{id}` */
      readonly entitySet?: string
    }

export type DirectoryAction = 'login' | 'logout' | 'currentUser' | 'currentUserBelongsTo'
const DIRECTORY_ACTIONS: ReadonlySet<string> = new Set<DirectoryAction>([
  'login',
  'logout',
  'currentUser',
  'currentUserBelongsTo',
])

export interface ParsedUrl {
  readonly target: RestTarget
  /** The query string, including anything moved from the path (see the module note). */
  readonly search: string
}

/** Resources of the real server that this version does not serve yet: 501, not 404. */
const FUTURE_RESOURCES: ReadonlySet<string> = new Set(['$getWebForm'])

const DATACLASS_WITH_KEY = /^([^(\[:]+)(?:\((.*)\)|\[(.*)\])$/s
const DATACLASS_LOOKUP = /^([^(\[:]+):([^(]+)\((.*)\)$/s
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u
// Most names are ASCII: tested first, without the Unicode tables.
const ASCII_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Removes one pair of matching quotes around a key: `("IT09")` and `('IT09')` name the key IT09. */
function keyText(raw: string): string {
  const k = raw.trim()
  if (k.length >= 2 && (k[0] === '"' || k[0] === "'") && k[k.length - 1] === k[0])
    return k.slice(1, -1)
  return k
}

/**
 * Splits `pathname` (as in `URL.pathname`, percent-encoded) below `basePath` into a target.
 * Returns undefined when the path is not below `basePath` at all.
 */
export function parseRestUrl(
  pathname: string,
  search: string,
  basePath: string,
): ParsedUrl | undefined {
  if (!pathname.startsWith(basePath)) return undefined
  if (pathname.length > basePath.length && pathname[basePath.length] !== '/') return undefined
  const byKey = readByKey(pathname, basePath)
  if (byKey) return { target: { kind: 'dataClass', ...byKey }, search }
  return parsePath(pathname, search, basePath)
}

/** A read by key's target: the dataclass's name and the key as written. */
export interface ByKey {
  readonly dataClass: string
  readonly key: string
}

// Character classes of the scan below, by code unit (ASCII only: anything else is the general
// path's): 1 a name's first character, 2 a name's other characters, 4 a key's digit.
const NAME_START = 1
const NAME_PART = 2
const DIGIT = 4
const CLASSES = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[A-Za-z_]/.test(ch)) CLASSES[c] = NAME_START | NAME_PART
  if (/[0-9]/.test(ch)) CLASSES[c] = NAME_PART | DIGIT
}

/**
 * The target of a read by key, the most frequent one: `{base}/Employee(3)` with nothing after it,
 * a name the general path would accept, digits for the key, only characters that decode to
 * themselves. Read in one pass over the code units, with no regular expression and no object but
 * the answer; undefined for any other path (then `parsePath` reads it, by the whole grammar, to
 * the same target when it is one). The caller has checked that `pathname` starts with `basePath`.
 */
export function readByKey(pathname: string, basePath: string): ByKey | undefined {
  const start = basePath.length + 1
  const end = pathname.length
  if (pathname.charCodeAt(start - 1) !== 0x2f /* / */ || end - start < 4) return undefined
  let at = start
  let c = pathname.charCodeAt(at)
  if (c >= 128 || (CLASSES[c]! & NAME_START) === 0) return undefined
  while (++at < end) {
    c = pathname.charCodeAt(at)
    if (c >= 128 || (CLASSES[c]! & NAME_PART) === 0) break
  }
  // `(`, at least one digit, `)` as the last character.
  if (c !== 0x28 || pathname.charCodeAt(end - 1) !== 0x29 || end - at < 3) return undefined
  for (let i = at + 1; i < end - 1; i++) {
    const d = pathname.charCodeAt(i)
    if (d >= 128 || (CLASSES[d]! & DIGIT) === 0) return undefined
  }
  return { dataClass: pathname.slice(start, at), key: pathname.slice(at + 1, end - 1) }
}

/**
 * `parseRestUrl` for every target, by the whole grammar, once `pathname` is known to be below
 * `basePath`. Exported for the test that holds the shortcut above to it.
 */
export function parsePath(pathname: string, search: string, basePath: string): ParsedUrl {
  const url = pathname + (search ? `?${search}` : '')
  // The segments below the base, empty ones skipped, read in one pass (this runs on every request).
  const parts: string[] = []
  for (let at = basePath.length + 1; at < pathname.length;) {
    let end = pathname.indexOf('/', at)
    if (end < 0) end = pathname.length
    const segment = pathname.slice(at, end)
    if (segment.startsWith('$') && segment.includes('=')) {
      // This segment and the ones after it are the query, written as a path (see the module note).
      const moved = pathname
        .slice(at)
        .split('/')
        .filter((s) => s !== '')
        .join('/')
      search = search ? `${moved}&${search}` : moved
      break
    }
    if (segment !== '') parts.push(formDecodePath(segment, url))
    at = end + 1
  }
  const first = parts[0]
  if (first === undefined)
    return fail('UrlMalformed', [url, 'expected a dataclass or $catalog after /rest'])

  if (first === '$catalog') {
    if (parts.length === 1) return { target: { kind: 'catalog', which: 'short' }, search }
    if (parts.length === 2 && parts[1] === '$all')
      return { target: { kind: 'catalog', which: 'all' }, search }
    if (parts.length === 2) return { target: { kind: 'catalogDataClass', name: parts[1]! }, search }
    return fail('UrlMalformed', [url, '$catalog takes at most one more segment'])
  }
  if (first === '$info') {
    // `$info/privileges`: the session's privileges (4D 20 R6).
    if (parts.length === 2 && parts[1] === 'privileges')
      return { target: { kind: 'info', privileges: true }, search }
    if (parts.length > 1)
      return fail('UrlMalformed', [url, '$info takes no more segments but privileges'])
    return { target: { kind: 'info' }, search }
  }
  if (first === '$directory') {
    const action = parts[1]
    if (parts.length !== 2 || !DIRECTORY_ACTIONS.has(action!))
      return fail('UnknownResource', [pathname])
    return { target: { kind: 'directory', action: action as DirectoryAction }, search }
  }
  if (first === '$singleton') {
    if (parts.length !== 3)
      return fail('UrlMalformed', [url, 'expected /$singleton/{singleton}/{function}'])
    return { target: { kind: 'singleton', singleton: parts[1]!, function: parts[2]! }, search }
  }
  if (first === '$upload') {
    if (parts.length > 1) return fail('UrlMalformed', [url, '$upload takes no more segments'])
    return { target: { kind: 'upload' }, search }
  }
  if (first === '$openapi') {
    if (parts.length > 1) return fail('UrlMalformed', [url, '$openapi takes no more segments'])
    return { target: { kind: 'openapi' }, search }
  }
  // A set is always read under its dataclass: only the release of a body of ids goes without.
  if (first === '$entityset' && parts.length === 2 && parts[1] === RELEASE_SEGMENT)
    return { target: { kind: 'releaseSets' }, search }
  if (first === '$changes') {
    if (parts.length > 1) return fail('UrlMalformed', [url, '$changes takes no more segments'])
    return { target: { kind: 'changes' }, search }
  }
  // `/rest/Employee/$changes`: the live feed of one dataclass.
  if (parts.length === 2 && parts[1] === '$changes') {
    if (!ASCII_NAME.test(first) && !NAME.test(first))
      return fail('UrlMalformed', [url, `"${first}" is not a dataclass name`])
    return { target: { kind: 'changes', dataClass: first }, search }
  }
  if (first.startsWith('$')) {
    if (FUTURE_RESOURCES.has(first)) return fail('NotImplemented', [`The ${first} resource`])
    return fail('UnknownResource', [pathname])
  }

  let target: {
    dataClass: string
    key?: string
    lookup?: { attribute: string; value: string }
    attributes?: string[]
    entitySet?: string
  }
  const lookup = DATACLASS_LOOKUP.exec(first)
  const withKey = lookup ? null : DATACLASS_WITH_KEY.exec(first)
  if (lookup)
    target = {
      dataClass: lookup[1]!,
      lookup: { attribute: lookup[2]!, value: keyText(lookup[3]!) },
    }
  else if (withKey) target = { dataClass: withKey[1]!, key: keyText(withKey[2] ?? withKey[3]!) }
  else target = { dataClass: first }
  if (!ASCII_NAME.test(target.dataClass) && !NAME.test(target.dataClass))
    return fail('UrlMalformed', [url, `"${target.dataClass}" is not a dataclass name`])
  if (target.key === '') return fail('UrlMalformed', [url, 'the key between the brackets is empty'])

  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!
    if (part === '$entityset') {
      const id = parts[i + 1]
      // `/rest/Students/getLastSummary/$entityset/?$filter=…` (4D's own example): a function of the
      // selection that `$filter` makes, with no set named.
      if (id === undefined && target.attributes?.length === 1 && target.key === undefined) break
      if (id === undefined || target.key !== undefined || target.lookup) {
        return fail('UrlMalformed', [
          url,
          '$entityset must follow a dataclass and be followed by an entity set id',
        ])
      }
      target.entitySet = id
      i++
    } else if (
      target.attributes === undefined &&
      (target.entitySet === undefined || i === parts.length - 1)
    ) {
      // The attributes a read names, or a function: `/Employee/raise`, `/Employee(3)/raise`, and
      // after a set, `/Employee/$entityset/{id}/payroll`.
      target.attributes = part
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== '')
      if (target.attributes.length === 0)
        return fail('UrlMalformed', [url, 'an empty list of attributes'])
    } else {
      return fail('UrlMalformed', [url, `unexpected segment "${part}"`])
    }
  }
  return { target: { kind: 'dataClass', ...target }, search }
}

// Path segments are percent-encoded but `+` is a literal plus there, not a space.
function formDecodePath(segment: string, url: string): string {
  return formDecode(segment.includes('+') ? segment.replace(/\+/g, '%2B') : segment, url)
}
