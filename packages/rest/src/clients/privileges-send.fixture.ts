/**
 * @module How a generated request (privileges-requests.fixture.ts) is sent: its method, path,
 * query and body. Shared by the attack of issue 46 (privileges-run.fixture.ts) and the
 * differential oracle of issue 61 (oracle-run.fixture.ts), which send the same requests and check
 * them differently. What a request writes is asked of the caller (`SendEnv`), so that each run
 * keeps its own counters of fresh canaries, entity sets and uploads.
 */
import { isPending, isStream, type RestReply, type RestStream } from '../exchange.js'
import type { RestHandler } from '../handler.js'
import {
  ATTRS,
  FUNCTIONS,
  numberCanary,
  pictureWith,
  stringCanary,
  type AttrInfo,
  type DcName,
} from './privileges-app.fixture.js'
import { filterValue } from './privileges-data.fixture.js'
import { USERS, type Filter, type Req } from './privileges-requests.fixture.js'

/** A request as sent to `respond`. */
export interface Sent {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly query: string
  readonly body?: string | Uint8Array
  readonly headers?: Record<string, string>
}

/** The id sent for an entity set or upload that was never made. */
export const BOGUS_ID = '0BADC0DE0BADC0DE0BADC0DE0BADC0DE'

/** What the run gives the requests it sends. */
export interface SendEnv {
  /** The n-th entity set made so far (by any session), if any. */
  setAt(n: number): { readonly id: string; readonly dc: DcName } | undefined
  /** The id of the n-th upload made so far, if any. */
  uploadAt(n: number): string | undefined
  /** A fresh value for `dc.attr`, written by the request (a canary nobody holds yet). */
  fresh(dc: DcName, attr: string): string | number
  /** A fresh number, for the canary of an uploaded picture. */
  next(): number
  /** The value `attr` of entity `key` has now, read with full rights (a guess's value). */
  current(dc: DcName, key: number, attr: string): unknown
  /** A filter as the `$filter` text writes it. */
  filterText(dc: DcName, f: Filter): string
  /** The attributes of the application, when it has more than issue 46's (`ATTRS`). */
  readonly attrs?: Readonly<Record<DcName, Readonly<Record<string, AttrInfo>>>>
}

const enc = encodeURIComponent

/** A query string of the parameters given (undefined ones left out). */
export const queryOf = (params: Record<string, string | undefined>): string =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${enc(v!)}`)
    .join('&')

const post = (path: string, query: string, body: unknown): Sent => ({
  method: 'POST',
  path,
  query,
  body: JSON.stringify(body),
})

/** The request `req` as sent, and the dataclass of its reply's entities when the reply does not say. */
export function sentOf(req: Req, env: SendEnv): { sent: Sent; rootDc?: DcName | undefined } {
  const attrs = env.attrs ?? ATTRS
  const filter = (dc: DcName, f: Filter | undefined) => f && `"${env.filterText(dc, f)}"`
  switch (req.t) {
    case 'list':
      return {
        sent: {
          method: 'GET',
          path: `/rest/${req.dc}`,
          query: queryOf({
            $attributes: req.attrs?.join(','),
            $filter: filter(req.dc, req.filter),
            $orderby: req.orderby,
            $expand: req.expand,
            $skip: req.page && String(req.page.skip),
            $top: req.page && String(req.page.top),
            $queryplan: req.plan === 'queryplan' ? 'true' : undefined,
            $querypath: req.plan === 'querypath' ? 'true' : undefined,
            $asArray: req.form === 'asArray' ? 'true' : undefined,
            $format: req.form === 'looker' ? 'looker' : undefined,
            $method: req.keep ? 'entityset' : undefined,
          }),
        },
        rootDc: req.dc,
      }
    case 'get':
      return {
        sent: {
          method: 'GET',
          path: `/rest/${req.dc}(${req.key})`,
          query: queryOf({ $attributes: req.attrs?.join(','), $expand: req.expand }),
        },
        rootDc: req.dc,
      }
    case 'lookup':
      return {
        sent: {
          method: 'GET',
          path: `/rest/${req.dc}:${req.attr}(${enc(String(filterValue(req.dc, { path: req.attr, op: '=', k: req.key })))})`,
          query: '',
        },
        rootDc: req.dc,
      }
    case 'nav':
      return {
        sent: { method: 'GET', path: `/rest/${req.dc}(${req.key})/${req.rel}`, query: '' },
        rootDc: attrs[req.dc][req.rel]!.target,
      }
    case 'compute':
    case 'distinct':
      return {
        sent: {
          method: 'GET',
          path: `/rest/${req.dc}/${req.attr}`,
          query: queryOf({
            $filter: filter(req.dc, req.filter),
            ...(req.t === 'compute' ? { $compute: req.op } : { $distinct: 'true' }),
          }),
        },
      }
    case 'set':
    case 'algebra':
    case 'release': {
      const set = env.setAt(req.set)
      const other = req.t === 'algebra' ? env.setAt(req.other) : undefined
      return {
        sent: {
          method: 'GET',
          path: `/rest/${set?.dc ?? 'Employee'}/$entityset/${set?.id ?? BOGUS_ID}`,
          query:
            req.t === 'release'
              ? '$method=release'
              : req.t === 'algebra'
                ? queryOf({ $logicOperator: req.op, $otherCollection: other?.id ?? BOGUS_ID })
                : '',
        },
        rootDc: set?.dc,
      }
    }
    case 'info':
      return { sent: { method: 'GET', path: '/rest/$info', query: '' } }
    case 'privileges':
      return { sent: { method: 'GET', path: '/rest/$info/privileges', query: '' } }
    case 'catalog':
      return {
        sent: {
          method: 'GET',
          path: req.which === '' ? '/rest/$catalog' : `/rest/$catalog/${req.which}`,
          query: '',
        },
      }
    case 'lock':
      return {
        sent: { method: 'GET', path: `/rest/${req.dc}(${req.key})`, query: `$lock=${req.on}` },
      }
    case 'update': {
      const body: Record<string, unknown> = { __KEY: String(req.key) }
      for (const attr of req.set) {
        const kind = attrs[req.dc][attr]?.kind
        body[attr] =
          kind === 'relatedEntity'
            ? (req.rel ?? 1)
            : (kind === 'alias' || kind === 'calculated') && req.guess
              ? (env.current(req.dc, req.key, attr) ?? null)
              : req.bad && req.dc === 'Employee' && attr === 'name'
                ? `bad${env.fresh(req.dc, attr)}`
                : env.fresh(req.dc, attr)
      }
      return { sent: post(`/rest/${req.dc}`, '$method=update', body), rootDc: req.dc }
    }
    case 'create':
      return {
        sent: post(
          `/rest/${req.dc}`,
          '$method=update',
          Object.fromEntries(req.set.map((a) => [a, env.fresh(req.dc, a)])),
        ),
        rootDc: req.dc,
      }
    case 'batch':
      return {
        sent: post(
          `/rest/${req.dc}`,
          '$method=update&$atomic=true',
          req.items.map((item) => ({
            ...(item.key === undefined ? {} : { __KEY: String(item.key) }),
            ...Object.fromEntries(item.set.map((a) => [a, env.fresh(req.dc, a)])),
          })),
        ),
        rootDc: req.dc,
      }
    case 'delete':
      return {
        sent: {
          method: 'POST',
          path: `/rest/${req.dc}(${req.key})`,
          query: '$method=delete',
          body: '',
        },
      }
    case 'deleteWhere':
      return {
        sent: {
          method: 'POST',
          path: `/rest/${req.dc}`,
          query: queryOf({ $filter: filter(req.dc, req.filter), $method: 'delete' }),
          body: '',
        },
      }
    case 'upload':
      return {
        sent: {
          method: 'POST',
          path: '/rest/$upload',
          query: '$rawPict=true',
          body: pictureWith(stringCanary('Employee', 'photo', `u${env.next()}`)),
          headers: { 'content-type': 'application/octet-stream' },
        },
      }
    case 'attach':
      return {
        sent: post('/rest/Employee', '$method=update', {
          __KEY: String(req.key),
          photo: { ID: env.uploadAt(req.upload) ?? BOGUS_ID },
        }),
        rootDc: 'Employee',
      }
    case 'putPhoto':
      return {
        sent: {
          method: 'POST',
          path: `/rest/Employee(${req.key})/photo`,
          query: '$rawPict=image/png',
          body: pictureWith(stringCanary('Employee', 'photo', `p${env.next()}`)),
          headers: { 'content-type': 'application/octet-stream' },
        },
      }
    case 'photo':
      return {
        sent: { method: 'GET', path: `/rest/Employee(${req.key})/photo`, query: '$rawPict=true' },
      }
    case 'call': {
      const info = FUNCTIONS[req.fn]
      const name = req.fn.split('.')[1]!
      const path =
        info.kind === 'dataStore'
          ? `/rest/$catalog/${name}`
          : info.kind === 'entity'
            ? `/rest/${info.dc}(${req.key ?? 1})/${name}`
            : `/rest/${info.dc}/${name}`
      const args =
        req.fn === 'Employee.top'
          ? [numberCanary('Employee', 'salary', 2)]
          : req.fn === 'Employee.rename'
            ? [env.fresh('Employee', 'name')]
            : []
      return {
        sent: post(
          path,
          queryOf({
            $filter: filter('Employee', req.filter),
            $method: req.keep ? 'entityset' : undefined,
          }),
          args,
        ),
        rootDc: 'dc' in info ? info.dc : undefined,
      }
    }
  }
}

const latin1 = new TextDecoder('latin1')

/** An answer, its body read whole (a picture's bytes as Latin-1) and parsed when it is JSON. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[]>>
  readonly text: string
  readonly json: any
  readonly errCode: number | undefined
  /** A body with no end of its own (server-sent events), for the caller to read and close. */
  readonly stream?: RestStream | undefined
}

/**
 * Sends `s` in-process to `rest` as client `who`, with the cookie `cookies[who]` holds, and keeps
 * the cookie the answer sets (a login's, a renewal's; none after a logout).
 */
export async function sendAs(
  rest: RestHandler,
  cookies: (string | undefined)[],
  who: number,
  s: Sent,
): Promise<Answer> {
  const cookie = cookies[who]
  let reply: RestReply | Promise<RestReply> = rest.respond({
    method: s.method,
    path: s.path,
    query: s.query,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...s.headers },
    body: s.body,
  })
  if (isPending(reply)) reply = await reply
  const set = reply.headers['set-cookie']
  const first = (Array.isArray(set) ? set[0] : set)?.split(';')[0]
  if (first) cookies[who] = first.endsWith('=') ? undefined : first
  const b = reply.body
  if (isStream(b))
    return {
      status: reply.status,
      headers: reply.headers,
      text: '',
      json: undefined,
      errCode: undefined,
      stream: b,
    }
  const text =
    b === null
      ? ''
      : typeof b === 'string'
        ? b
        : b instanceof Uint8Array
          ? latin1.decode(b)
          : [...(b as Iterable<string>)].join('')
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return {
    status: reply.status,
    headers: reply.headers,
    text,
    json,
    errCode: json?.__ERROR?.[0]?.errCode as number | undefined,
  }
}

/** Logs users u0…u2 in as clients 0…2 (their name is their password). */
export async function logInAll(rest: RestHandler, cookies: (string | undefined)[]): Promise<void> {
  for (const [i, name] of USERS.entries()) {
    const a = await sendAs(rest, cookies, i, {
      method: 'POST',
      path: '/rest/$directory/login',
      query: '',
      body: '',
      headers: { 'username-4d': name, 'password-4d': name },
    })
    if (a.status !== 200) throw new Error(`the login of ${name} answered ${a.status}: ${a.text}`)
  }
}

/** A request as a line: method, path, query (decoded), body. */
export function shown(s: Sent): string {
  const body = typeof s.body === 'string' ? s.body : s.body ? latin1.decode(s.body) : ''
  return `${s.method} ${s.path}${s.query ? `?${decodeURIComponent(s.query)}` : ''}${body ? ` ${body}` : ''}`
}
