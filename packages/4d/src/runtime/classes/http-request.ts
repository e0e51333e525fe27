/**
 * @module `4D.HTTPRequest` (docs/API/HTTPRequestClass.md): `4D.HTTPRequest.new(url {; options})`
 * sends the request through the host (`HttpHost`: the hosts `serve --allow-http` names) and holds
 * its answer: `response` (`status`, `statusText`, `headers` by lower-case name, `body` as
 * `dataType` says: "auto" reads JSON as an object, text as text, anything else as a 4D.Blob),
 * `errors`, `terminated`, and the request's own `url`, `method`, `headers`, `dataType`,
 * `encoding`, `timeout`. `wait()` answers it; `terminate()` does nothing more.
 *
 * 4D sends the request in the background and calls the options' `onHeaders`, `onData`,
 * `onResponse`, `onError` and `onTerminate` when it answers; here the call waits for the answer
 * within `new()` (as the HTTP commands do) and calls them before `new()` returns, in that order,
 * with the options object as `This` and the request and an event `{type}` as parameters. A host
 * that refuses the URL or a network failure gives `errors` and `onError`, never an exception.
 */
import type { CommandContext, HttpReply } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import type { Runtime } from '../context/runtime.js'
import { fourDError, raise } from '../errors/fourd-error.js'
import { contentType, decodeText, parsedJson, requestBody } from '../http/http-values.js'
import { Collection } from '../values/collection.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { isPlainObject, newObject } from '../values/kinds.js'
import { blobObject } from '../values/blob-object.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'

/** 4D's default: no timeout; here a call waits at most this long. */
const TIMEOUT_S = 120
/** Redirections followed when `automaticRedirections` is on (its default). */
const MAX_REDIRECTS = 5

const CALLBACKS = ['onHeaders', 'onData', 'onResponse'] as const

export class FourDHTTPRequest implements MemberHost {
  response: Record<string, unknown> | undefined
  readonly errors = new Collection([])
  readonly headers: Record<string, unknown>

  constructor(
    readonly url: string,
    readonly method: string,
    headers: Record<string, unknown>,
    readonly dataType: string,
    readonly encoding: string,
    readonly timeout: number | undefined,
  ) {
    this.headers = headers
  }

  [GET_MEMBER](name: string): unknown {
    switch (name) {
      case 'url':
        return this.url
      case 'method':
        return this.method
      case 'headers':
        return this.headers
      case 'dataType':
        return this.dataType
      case 'encoding':
        return this.encoding
      case 'timeout':
        return this.timeout
      case 'response':
        return this.response
      case 'errors':
        return this.errors
      case 'terminated':
        return true
      case 'protocol':
        return 'HTTP1'
      default:
        return MEMBERS.get(name)
    }
  }
}

const requestOf = (self: unknown, name: string): FourDHTTPRequest =>
  self instanceof FourDHTTPRequest ? self : raise('UnknownMemberMethod', { name })

const MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  // The answer is in already: waiting gives the request back, as 4D's `wait()` does once it is.
  ['wait', new FourDFunction('HTTPRequest.wait', (_rt, self) => requestOf(self, 'wait'))],
  [
    'terminate',
    new FourDFunction('HTTPRequest.terminate', (_rt, self) => void requestOf(self, 'terminate')),
  ],
])

/** The body as `dataType` asks ("auto": by the answer's type). */
function bodyOf(reply: HttpReply, dataType: string): unknown {
  const type = contentType(reply)
  const kind =
    dataType !== 'auto'
      ? dataType
      : /json/.test(type)
        ? 'object'
        : /^text\/|javascript|xml|message\/http|x-www-form-urlencoded/.test(type)
          ? 'text'
          : 'blob'
  if (kind === 'object') return parsedJson(reply)
  if (kind === 'text') return decodeText(reply)
  return blobObject(new Uint8Array(reply.body))
}

const optionText = (options: Record<string, unknown>, name: string, fallback: string): string => {
  const v = options[name]
  return typeof v === 'string' && v !== '' ? v : fallback
}

function make(rt: Runtime, [url, given]: unknown[]): FourDHTTPRequest {
  if (typeof url !== 'string' || url === '')
    return raise('InvalidArgument', {
      parameter: 'url',
      command: '4D.HTTPRequest.new',
      detail: 'give a URL',
    })
  const options = isPlainObject(given)
    ? given
    : typeof given === 'object' && given !== null
      ? (given as Record<string, unknown>)
      : newObject()
  const method = optionText(options, 'method', 'GET').toUpperCase()
  const headers = isPlainObject(options.headers) ? options.headers : newObject()
  const timeout = typeof options.timeout === 'number' ? options.timeout : undefined
  const request = new FourDHTTPRequest(
    url,
    method,
    headers,
    optionText(options, 'dataType', 'auto'),
    optionText(options, 'encoding', 'UTF-8'),
    timeout,
  )
  const body =
    requestBody(options.body) ??
    raise('InvalidArgument', {
      parameter: 'body',
      command: '4D.HTTPRequest.new',
      detail: 'give a text, a BLOB, a picture or an object',
    })
  const sent = Object.entries(headers).map(([n, v]) => [n, String(v)] as const)
  if (body.type !== undefined && !sent.some(([n]) => n.toLowerCase() === 'content-type'))
    sent.push(['Content-Type', body.type])
  const host =
    (rt as CommandContext).http ??
    raise('NotImplemented', { name: '4D.HTTPRequest (no HTTP client here)' })
  const reply = host.request({
    method,
    url,
    headers: sent,
    ...(body.bytes === undefined ? {} : { body: body.bytes }),
    timeoutMs: (timeout ?? TIMEOUT_S) * 1000,
    redirects: options.automaticRedirections === false ? 0 : MAX_REDIRECTS,
  })
  const call = (name: string, type: string): void => {
    const fn = options[name]
    if (fn instanceof FourDFunction) rt.invoke(fn, options, [request, rt.objectOf('type', type)])
  }
  if ('refused' in reply || 'failed' in reply) {
    const error =
      'refused' in reply
        ? fourDError('HttpNotAllowed', { url, detail: reply.refused })
        : fourDError('HttpFailed', { url, detail: reply.failed })
    request.errors.items.push(rt.objectOf(...Object.entries(error.toErrorObject()).flat()))
    call('onError', 'error')
  } else {
    const headersOut = newObject()
    for (const [n, v] of reply.headers) headersOut[n.toLowerCase()] = v
    request.response = rt.objectOf(
      'status',
      reply.status,
      'statusText',
      reply.statusText ?? '',
      'headers',
      headersOut,
      'body',
      options.returnResponseBody === false ? undefined : bodyOf(reply, request.dataType),
    )
    for (const name of CALLBACKS) call(name, name.slice(2).toLowerCase())
  }
  call('onTerminate', 'terminate')
  return request
}

/** `4D.HTTPRequest`: `new(url {; options})`, `OB Instance of`. */
export const HTTP_REQUEST_CLASS = builtinClass(
  'HTTPRequest',
  OBJECT_CLASS,
  (v) => v instanceof FourDHTTPRequest,
  make,
)
