/**
 * @module HTTP request handlers (4D 20 R8, docs/WebServer/http-request-handler.md): the entries
 * of a project's `Project/Sources/HTTPHandlers.json` (or the `handlers` option), each naming a
 * shared singleton's function that answers the requests whose URL it matches.
 *
 * - `pattern` is a URL prefix between slashes (`"docs/invoices"` takes `/docs/invoices`,
 *   `/docs/invoices/` and `/docs/invoices/x`, not `/docs/invoices2`); `regexPattern` a regular
 *   expression found anywhere in the path (`"/docs/invoices/(past|today)"` takes
 *   `/docs/invoices/today/latest`); with both, `regexPattern` is the one used. Both match the
 *   path percent-decoded, without its query, case-sensitively.
 * - `verbs` is a comma-separated list, in any case (`"get, post"`); all verbs without it, but
 *   `TRACE`, which 4D's web server rejects with 405 by default (WebServerClass.md, `HTTPTrace`):
 *   only a handler that names it takes it.
 * - Order is priority: the first entry whose pattern and verb match takes the request. When
 *   patterns match but none of them takes the verb, the request is refused with 405 and `Allow`.
 * - The paths of the REST interface (`/rest`, its `basePath`) and of 4D's other built-in
 *   features (`/4DACTION`, `/$lib/renderer`, `/$shared`) are never a handler's, whatever the
 *   patterns say.
 */
import { datastoreError } from '@entistore/core'
import type { RestTarget } from '../url/parse-rest-url.js'
import { invalid, isRecord, matchedPath, settingsRegex } from './url-path.js'

/** One entry of `HTTPHandlers.json`, as 4D documents it. */
export interface HttpHandlerDef {
  /** The shared singleton's class name, without `cs.`. */
  readonly class: string
  /** The function of that class that answers. */
  readonly method: string
  /** A URL prefix between slashes: `"docs/invoices"`. */
  readonly pattern?: string
  /** A regular expression found in the path: `"/docs/invoices/(past|today)"`. */
  readonly regexPattern?: string
  /** The verbs taken, comma-separated, any case. @default every verb */
  readonly verbs?: string
}

/** A handler ready to match. */
export interface HttpHandler {
  readonly class: string
  readonly method: string
  readonly test: RegExp
  /** Uppercase verbs; undefined for every verb. */
  readonly verbs: ReadonlySet<string> | undefined
}

/** What a request's path and verb find among the handlers. */
export type HandlerMatch =
  | { readonly handler: HttpHandler }
  /** Patterns took the path, none the verb: the verbs they take. */
  | { readonly refused: readonly string[] }

// 4D's built-in features: never a handler's (the REST interface's own path is added).
const BUILT_IN = ['/4daction', '/$lib/renderer', '/$shared']

// What a handler without `verbs` takes, named in the `Allow` of a TRACE it refuses.
const EVERY_VERB_BUT_TRACE = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The handlers of `defs` (parsed JSON or an option), checked; `where` names the file or option
 * in errors (`HTTPHandlers.json`).
 * @throws DatastoreError InvalidHttpSettings (9172), naming the entry and what is wrong
 */
export function checkHttpHandlers(defs: unknown, where: string): HttpHandler[] {
  if (!Array.isArray(defs)) invalid(where, 'expected an array of handlers')
  return (defs as unknown[]).map((def, i) => {
    const at = `${where}[${i}]`
    if (!isRecord(def)) invalid(at, 'expected an object { class, method, pattern, verbs }')
    const d = def as Record<string, unknown>
    for (const key of ['class', 'method'] as const)
      if (typeof d[key] !== 'string' || d[key] === '')
        invalid(`${at}.${key}`, 'expected a name as text')
    let test: RegExp
    if (d.regexPattern !== undefined) test = settingsRegex(d.regexPattern, `${at}.regexPattern`)
    else if (typeof d.pattern === 'string' && d.pattern.replace(/^\/+|\/+$/g, '') !== '') {
      const prefix = d.pattern.replace(/^\/+|\/+$/g, '')
      test = new RegExp(`^/${escapeRegex(prefix)}(?:/|$)`, 'u')
    } else return invalid(at, 'expected a "pattern" (a URL prefix) or a "regexPattern"')
    if (d.verbs !== undefined && typeof d.verbs !== 'string')
      invalid(`${at}.verbs`, 'expected verbs as text, comma-separated ("GET, POST")')
    const verbs =
      typeof d.verbs === 'string'
        ? new Set(
            d.verbs
              .split(',')
              .map((v) => v.trim().toUpperCase())
              .filter((v) => v !== ''),
          )
        : undefined
    return { class: d.class as string, method: d.method as string, test, verbs }
  })
}

/** The handlers of one server, and the one path they may never take (the REST interface's). */
export class HttpHandlers {
  readonly #list: readonly HttpHandler[]
  readonly #basePath: string

  constructor(list: readonly HttpHandler[], basePath: string) {
    this.#list = list
    this.#basePath = basePath.toLowerCase()
  }

  get size(): number {
    return this.#list.length
  }

  /** Whether a handler's pattern takes `path` (percent-encoded, without the query), any verb. */
  handles(path: string): boolean {
    const seen = matchedPath(path)
    if (this.#list.length === 0 || this.#builtIn(seen)) return false
    return this.#list.some((h) => h.test.test(seen))
  }

  /** The handler that takes `verb` at `path`; undefined when no pattern takes the path. */
  match(verb: string, path: string): HandlerMatch | undefined {
    const seen = matchedPath(path)
    if (this.#list.length === 0 || this.#builtIn(seen)) return undefined
    const upper = verb.toUpperCase()
    let refused: Set<string> | undefined
    for (const handler of this.#list) {
      if (!handler.test.test(seen)) continue
      if (handler.verbs === undefined ? upper !== 'TRACE' : handler.verbs.has(upper))
        return { handler }
      refused ??= new Set()
      for (const v of handler.verbs ?? EVERY_VERB_BUT_TRACE) refused.add(v)
    }
    return refused === undefined ? undefined : { refused: [...refused] }
  }

  /**
   * The target of a request a handler takes (HEAD matched as GET), undefined when none does.
   * @throws DatastoreError VerbNotHandled (9171, 405): patterns take the path, none the verb
   */
  target(method: string, path: string, query: string): HandlerTarget | undefined {
    const verb = method === 'HEAD' ? 'GET' : method
    const match = this.match(verb, path)
    if (match === undefined) return undefined
    if ('refused' in match) return verbRefused(verb, path, match.refused)
    return { kind: 'httpHandler', handler: match.handler, path, query }
  }

  // `/rest` (the basePath) and 4D's built-in paths, in any case, as 4D's own are; `seen` is the
  // matched path, so that an escape or a doubled slash cannot make one a handler's.
  #builtIn(seen: string): boolean {
    const lower = seen.toLowerCase()
    return [this.#basePath || '/', ...BUILT_IN].some(
      (p) => p === '/' || lower === p || lower.startsWith(`${p}/`),
    )
  }
}

type HandlerTarget = Extract<RestTarget, { kind: 'httpHandler' }>

/** The refusal of a verb no handler takes at `path`: 405, `Allow` naming the verbs they take. */
function verbRefused(verb: string, path: string, verbs: readonly string[]): never {
  const allow = verbs.join(', ')
  throw datastoreError('VerbNotHandled', [verb, path, allow], { details: { allow } })
}
