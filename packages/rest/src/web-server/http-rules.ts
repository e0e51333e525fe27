/**
 * @module HTTP rules (4D 21, docs/WebServer/http-rules.md): a project's
 * `Project/Sources/HTTPRules.json` (or the `rules` option, which wins), applied to every reply,
 * the REST interface's and the HTTP request handlers' included. A rule is a `regexPattern` (also
 * read as 4D's prose writes it, `RegExPattern`), found anywhere in the path (percent-decoded,
 * without the query), and actions:
 *
 * - `removeHeaders` (a name or a list), `addHeaders` and `setHeaders` (objects of names and
 *   values): run on the reply's headers in the order of the rules, each rule's in that order;
 * - `denyAccess: true` answers 403 (9170) without serving the request, `false` lets it be served
 *   again; `redirect` answers 302 with `Location` without serving it; `status` sets the status
 *   (of the denial or redirection too).
 *
 * Every matching rule runs, in order; where two decide the same thing the last one wins. `Date`,
 * `Content-Length` and `Content-Encoding` never change, `Vary` and `Set-Cookie` are only added to
 * (an `addHeaders`; a `setHeaders` of `Set-Cookie` adds a cookie, of `Vary` is ignored), as 4D's
 * page lists; `Transfer-Encoding` and
 * `Connection`, which frame the reply, never change either. Such edits are ignored without an
 * error, as in 4D. Other properties of a rule (`comment`) are ignored.
 */
import { datastoreError } from '@entistore/core'
import {
  bodyLimitOf,
  isPending,
  type RefusedRequest,
  type RestCore,
  type RestReply,
  type RestRequest,
} from '../exchange.js'
import { invalid, isRecord, matchedPath, settingsRegex } from './url-path.js'

/** One entry of `HTTPRules.json`, as 4D documents it. */
export interface HttpRuleDef {
  readonly regexPattern: string
  readonly removeHeaders?: string | readonly string[]
  readonly addHeaders?: Readonly<Record<string, string>>
  readonly setHeaders?: Readonly<Record<string, string>>
  readonly denyAccess?: boolean
  readonly redirect?: string
  readonly status?: number
}

/** What one header edit does. */
type Edit =
  | { readonly op: 'remove'; readonly name: string }
  | { readonly op: 'add' | 'set'; readonly name: string; readonly value: string }

interface HttpRule {
  readonly test: RegExp
  readonly edits: readonly Edit[]
  readonly denyAccess: boolean | undefined
  readonly redirect: string | undefined
  readonly status: number | undefined
}

/** What the rules matching one path decide. */
interface Outcome {
  readonly edits: readonly Edit[]
  readonly deny: boolean
  readonly redirect: string | undefined
  readonly status: number | undefined
}

// Headers no rule changes: 4D's list, and the two that frame the reply.
const FIXED = new Set([
  'date',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
])
// Headers rules only add to.
const ADD_ONLY = new Set(['vary', 'set-cookie'])
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/

/** A header's name and value from a rule, checked: a line break would end the headers. */
function headerOf(name: string, value: unknown, at: string): Edit & { op: 'set' } {
  if (!TOKEN.test(name.toLowerCase())) invalid(at, `${JSON.stringify(name)} is not a header name`)
  if (typeof value !== 'string') invalid(`${at}.${name}`, 'expected the value as text')
  if (/[\r\n]/.test(value as string)) invalid(`${at}.${name}`, 'a value cannot hold a line break')
  return { op: 'set', name: name.toLowerCase(), value: value as string }
}

/**
 * The rules of `defs` (parsed JSON or an option), checked; `where` names the file or option.
 * @throws DatastoreError InvalidHttpSettings (9172), naming the rule and what is wrong
 */
export function checkHttpRules(defs: unknown, where: string): HttpRule[] {
  if (!Array.isArray(defs)) invalid(where, 'expected an array of rules')
  return (defs as unknown[]).map((def, i) => {
    const at = `${where}[${i}]`
    if (!isRecord(def)) invalid(at, 'expected an object { regexPattern, … }')
    const d = def as Record<string, unknown>
    const source = d.regexPattern ?? d.RegExPattern
    const test = settingsRegex(source, `${at}.regexPattern`)
    const edits: Edit[] = []
    const removed = d.removeHeaders
    if (removed !== undefined) {
      const names = typeof removed === 'string' ? [removed] : removed
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
        invalid(`${at}.removeHeaders`, 'expected a header name or a list of them')
      for (const name of names as string[]) edits.push({ op: 'remove', name: name.toLowerCase() })
    }
    for (const op of ['add', 'set'] as const) {
      const key = `${op}Headers`
      const given = d[key]
      if (given === undefined) continue
      if (!isRecord(given)) invalid(`${at}.${key}`, 'expected an object of header names and values')
      for (const [name, value] of Object.entries(given as object))
        edits.push({ ...headerOf(name, value, `${at}.${key}`), op })
    }
    if (d.denyAccess !== undefined && typeof d.denyAccess !== 'boolean')
      invalid(`${at}.denyAccess`, 'expected true or false')
    if (d.redirect !== undefined && (typeof d.redirect !== 'string' || /[\r\n]/.test(d.redirect)))
      invalid(`${at}.redirect`, 'expected a URL as text')
    const status = d.status
    if (
      status !== undefined &&
      !(typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599)
    )
      invalid(`${at}.status`, 'expected an HTTP status from 100 to 599')
    return {
      test,
      edits,
      denyAccess: d.denyAccess as boolean | undefined,
      redirect: d.redirect as string | undefined,
      status: status as number | undefined,
    }
  })
}

/** What the rules matching `path` decide, in order, the last one winning. */
function outcomeOf(rules: readonly HttpRule[], path: string): Outcome | undefined {
  const seen = matchedPath(path)
  let outcome: { edits: Edit[]; deny: boolean; redirect?: string; status?: number } | undefined
  for (const rule of rules) {
    if (!rule.test.test(seen)) continue
    outcome ??= { edits: [], deny: false }
    outcome.edits.push(...rule.edits)
    if (rule.denyAccess !== undefined) outcome.deny = rule.denyAccess
    if (rule.redirect !== undefined) outcome.redirect = rule.redirect
    if (rule.status !== undefined) outcome.status = rule.status
  }
  return outcome as Outcome | undefined
}

/** `headers` with `edits` made, except on the headers no rule changes. */
function edited(
  headers: RestReply['headers'],
  edits: readonly Edit[],
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { ...headers }
  for (const edit of edits) {
    const { name } = edit
    if (FIXED.has(name)) continue
    if (edit.op === 'remove') {
      if (!ADD_ONLY.has(name)) delete out[name]
      continue
    }
    // The page's table: `Vary` is added to, never set; a `setHeaders` of `Set-Cookie` adds one.
    if (edit.op === 'set' && name === 'vary') continue
    const now = out[name]
    if (name === 'set-cookie') out[name] = now === undefined ? edit.value : [now, edit.value].flat()
    // Added to what is there (`Vary: origin, accept`).
    else if (now !== undefined && edit.op === 'add') out[name] = `${String(now)}, ${edit.value}`
    else out[name] = edit.value
  }
  return out
}

/** `core` with `rules` applied to its replies (see the module note). */
export function withHttpRules(core: RestCore, defs: unknown, where: string): RestCore {
  const rules = checkHttpRules(defs, where)
  const finish = (reply: RestReply, outcome: Outcome, status = outcome.status): RestReply => ({
    status: status ?? reply.status,
    headers: edited(reply.headers, outcome.edits),
    body: reply.body,
  })
  /**
   * The reply to a request to `path` the rules match (`outcome`): denied or redirected without
   * being served (a POST writes nothing), else `serve`'s reply with the rules' edits.
   */
  const decide = (
    path: string,
    outcome: Outcome,
    serve: () => RestReply | Promise<RestReply>,
    request: RefusedRequest,
  ): RestReply | Promise<RestReply> => {
    if (outcome.deny) {
      const denied = core.refuse(datastoreError('AccessDeniedByRule', [path]), request)
      return finish(denied, outcome, outcome.status ?? 403)
    }
    if (outcome.redirect !== undefined) {
      const moved: RestReply = { status: 302, headers: { location: outcome.redirect }, body: null }
      return finish(moved, outcome, outcome.status ?? 302)
    }
    const reply = serve()
    return isPending(reply) ? reply.then((r) => finish(r, outcome)) : finish(reply, outcome)
  }
  return {
    maxBodyBytes: core.maxBodyBytes,
    // A denied or redirected path's body is not worth reading: refused at its first byte, the
    // refusal then answered as the rules decide (below).
    bodyLimit: (path) => {
      const outcome = outcomeOf(rules, path)
      return outcome?.deny || outcome?.redirect !== undefined ? 0 : bodyLimitOf(core, path)
    },
    ...(core.handles ? { handles: (path: string) => core.handles!(path) } : {}),
    respond(request: RestRequest): RestReply | Promise<RestReply> {
      const outcome = outcomeOf(rules, request.path)
      if (outcome === undefined) return core.respond(request)
      return decide(request.path, outcome, () => core.respond(request), request)
    },
    // The transport's own refusals (a body too large, a request timed out) are replies too:
    // the rules of their path apply, when the transport read one.
    refuse(error, request) {
      const outcome = request?.path === undefined ? undefined : outcomeOf(rules, request.path)
      if (outcome === undefined) return core.refuse(error, request)
      // Synchronous: neither a denial, a redirection nor a refusal waits for anything.
      return decide(
        request!.path!,
        outcome,
        () => core.refuse(error, request),
        request!,
      ) as RestReply
    },
  }
}
