/**
 * @module The HTTP Client theme's requests (docs/commands-legacy/http-request.md, http-get.md):
 * `HTTP Request(method; url; contents; response {; headerNames; headerValues}{; *})` and
 * `HTTP Get(url; response {; headerNames; headerValues}{; *})`, the status as their result, and
 * `HTTP SET OPTION`/`HTTP GET OPTION` for the timeout.
 * - The body: a text as `text/plain; charset=UTF-8`, a BLOB as `application/byte-stream`, a
 *   picture in its own type, an object as `application/json`, unless the headers name a type.
 * - The response, by the type of the variable given: a text (decoded as the response's charset
 *   says, UTF-8 otherwise), a BLOB, a picture (bytes of an image type; else left blank), an
 *   object (the body parsed as JSON when its type is JSON or text; else left blank).
 * - The header arrays give the request's headers and receive the response's.
 * The request is the host's (`HttpHost`: entistore's allows the hosts its `--allow-http` names,
 * none by default, and sends from a worker thread the call waits for). A host not allowed, or a
 * network failure, returns 0 and raises (ON ERR CALL and Try see it), as 4D does for a network one.
 */
import { binaryValue, isBinaryValue, sniffImageType } from '@entistore/core'
import { toText } from '../convert/conversions.js'
import { raise } from '../errors/fourd-error.js'
import type { CommandContext, HttpHost, HttpReply } from '../context/command-context.js'
import { FourDArray } from '../arrays/four-d-array.js'
import { integerArg, invalid, isStar, textArg } from '../arguments/arguments.js'
import { isOutParameter, outArg, type OutParameter } from '../arguments/out-parameter.js'
import { Collection } from '../values/collection.js'
import { isPlainObject } from '../values/kinds.js'
import { contentType, decodeText, parsedJson, requestBody } from '../http/http-values.js'
import type { CommandSpec } from './table.js'

/** HTTP SET OPTION's options that have a meaning here, with 4D's defaults (http-set-option.md). */
const TIMEOUT = 1
const FOLLOW_REDIRECT = 2
const MAX_REDIRECT = 3
const DEFAULTS: ReadonlyMap<number, number> = new Map([
  [TIMEOUT, 120],
  [FOLLOW_REDIRECT, 1],
  [MAX_REDIRECT, 2],
])

// The options each context set: HTTP SET OPTION's are the process's.
const options = new WeakMap<CommandContext, Map<number, number>>()

const option = (rt: CommandContext, o: number): number | undefined =>
  options.get(rt)?.get(o) ?? DEFAULTS.get(o)

function host(rt: CommandContext, command: string): HttpHost {
  return rt.http ?? raise('NotImplemented', { name: `${command} (no HTTP client here)` })
}

/** The body and its default type, from the value given. */
function body(command: string, v: unknown): { bytes?: Uint8Array; type?: string } {
  return (
    requestBody(isOutParameter(v) ? v.get() : v) ??
    invalid(command, 'contents', 'give a text, a BLOB, a picture or an object')
  )
}

/** The request's headers from the two arrays, when given. */
function headersIn(command: string, names: unknown, values: unknown): [string, string][] {
  if (names === undefined) return []
  const n = arrayArg(command, 'headerNames', names)
  const v = arrayArg(command, 'headerValues', values)
  return n.items.slice(1).map((name, i) => [toText(name), toText(v.items[i + 1] ?? '')])
}

function arrayArg(command: string, parameter: string, v: unknown): FourDArray {
  const value = isOutParameter(v) ? v.get() : v
  return value instanceof FourDArray ? value : invalid(command, parameter, 'give a text array')
}

/** The response's headers into the two arrays. */
function headersOut(command: string, names: unknown, values: unknown, reply: HttpReply): void {
  if (names === undefined) return
  const n = arrayArg(command, 'headerNames', names)
  const v = arrayArg(command, 'headerValues', values)
  n.resize(0)
  v.resize(0)
  for (const [name, value] of reply.headers) {
    n.items.push(name)
    v.items.push(value)
  }
}

/** The response as the variable's type takes it; left blank when it does not fit that type. */
function setResponse(out: OutParameter, reply: HttpReply): void {
  const current = out.get()
  if (typeof current === 'string' || current === undefined) return out.set(decodeText(reply))
  if (current instanceof Uint8Array) return out.set(new Uint8Array(reply.body))
  if (isBinaryValue(current) || current === null) {
    // A picture variable (null when empty) or an object one (null before assigned): the body's
    // own type tells which it can be.
    const image = sniffImageType(reply.body)
    if (image !== undefined) return out.set(binaryValue(new Uint8Array(reply.body), image))
    if (/json|text/.test(contentType(reply))) return out.set(parsedJson(reply))
    return
  }
  if (isPlainObject(current) || current instanceof Collection)
    if (/json|text/.test(contentType(reply))) out.set(parsedJson(reply))
}

function send(
  rt: CommandContext,
  command: string,
  method: string,
  url: string,
  contents: unknown,
  response: unknown,
  names: unknown,
  values: unknown,
): number {
  const out = outArg(command, 'response', response)
  const given = body(command, contents)
  const headers = headersIn(command, names, values)
  if (given.type !== undefined && !headers.some(([n]) => n.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', given.type])
  const reply = host(rt, command).request({
    method: method.toUpperCase(),
    url,
    headers,
    ...(given.bytes === undefined ? {} : { body: given.bytes }),
    timeoutMs: option(rt, TIMEOUT)! * 1000,
    redirects: option(rt, FOLLOW_REDIRECT) === 0 ? 0 : option(rt, MAX_REDIRECT)!,
  })
  if ('refused' in reply) {
    rt.pvSet('OK', 0)
    return raise('HttpNotAllowed', { url, detail: reply.refused })
  }
  if ('failed' in reply) {
    rt.pvSet('OK', 0)
    return raise('HttpFailed', { url, detail: reply.failed })
  }
  setResponse(out, reply)
  headersOut(command, names, values, reply)
  rt.pvSet('OK', 1)
  return reply.status
}

/** The arguments after the response: the two header arrays and `*`, in either form. */
const arrays = (rest: unknown[]): [unknown, unknown] => {
  const given = rest.filter((a) => !isStar(a))
  return [given[0], given[1]]
}

export const HTTP_CLIENT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1158,
    name: 'HTTP Request',
    signature:
      '(httpMethod: Text; url: Text; contents: any; response: any; headerNames?: any; headerValues?: any; star?: any): Integer',
    writes: [3],
    impl: (rt, method, url, contents, response, ...rest) =>
      send(
        rt,
        'HTTP Request',
        textArg('HTTP Request', 'httpMethod', method),
        textArg('HTTP Request', 'url', url),
        contents,
        response,
        ...arrays(rest),
      ),
  },
  {
    number: 1157,
    name: 'HTTP Get',
    signature:
      '(url: Text; response: any; headerNames?: any; headerValues?: any; star?: any): Integer',
    writes: [1],
    impl: (rt, url, response, ...rest) =>
      send(
        rt,
        'HTTP Get',
        'GET',
        textArg('HTTP Get', 'url', url),
        undefined,
        response,
        ...arrays(rest),
      ),
  },
  {
    number: 1160,
    name: 'HTTP SET OPTION',
    signature: '(option: Integer; value: any)',
    impl: (rt, code, value) => {
      const o = integerArg('HTTP SET OPTION', 'option', code)
      const v = integerArg('HTTP SET OPTION', 'value', value)
      // The others (compression, the log, authentication) change nothing here: they are kept.
      if (o === TIMEOUT && v < 1) invalid('HTTP SET OPTION', 'value', 'a timeout is 1 s or more')
      const set = options.get(rt) ?? new Map<number, number>()
      set.set(o, v)
      options.set(rt, set)
    },
  },
  {
    number: 1159,
    name: 'HTTP GET OPTION',
    signature: '(option: Integer; value: any)',
    writes: [1],
    impl: (rt, code, value) => {
      const o = integerArg('HTTP GET OPTION', 'option', code)
      outArg('HTTP GET OPTION', 'value', value).set(option(rt, o) ?? 0)
    },
  },
]
