/**
 * @module `WEB Server` (docs/commands/web-server.md, command 1674): 4D's `4D.WebServer` object
 * (docs/API/WebServerClass.md) of the web server the host runs — `rt.webServer`, what the REST
 * layer serving the datastore says of itself —, or one whose `isRunning` is False when the code
 * runs outside a server. Entistore serves HTTP only, always: `HTTPEnabled` True, `HTTPSEnabled`
 * False. `rules` (4D 21) is a copy of the HTTP rules in force. Every member reads only, but
 * `quotas` (4D 21 R5), whose members are the running server's
 * quotas: one set applies to the next requests; Null or Undefined stops enforcing it; a value the
 * server refuses raises an error and keeps the old one, as 4D documents. `WEB Get server info`
 * (1531) says the same server as plain values, with its uptime and the requests it received.
 */
import { fromJSON } from '../convert/json.js'
import { raise } from '../errors/fourd-error.js'
import { GET_MEMBER, SET_MEMBER, TO_JSON, type JsonHost, type MemberHost } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import type { WebServerHost } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

const HOST_MEMBERS: ReadonlySet<string> = new Set([
  'name',
  'HTTPPort',
  'IPAddressToListen',
  'maxRequestSize',
  'sessionCookieName',
  'sessionCookieSameSite',
])

class WebServerObject implements MemberHost, JsonHost {
  readonly #host: WebServerHost | undefined
  readonly #quotas: QuotasObject | undefined

  constructor(host: WebServerHost | undefined) {
    this.#host = host
    this.#quotas = host && new QuotasObject(host.quotas)
  }

  [GET_MEMBER](name: string): unknown {
    const host = this.#host
    switch (name) {
      case 'isRunning':
      case 'HTTPEnabled':
        return host !== undefined
      case 'HTTPSEnabled':
        return false
      case 'quotas':
        return this.#quotas ?? newObject()
      // http-rules.md, "Current rules": a new collection at each read (changing it changes nothing).
      case 'rules':
        return host === undefined ? undefined : fromJSON(host.rules ?? [])
      default:
        return host !== undefined && HOST_MEMBERS.has(name)
          ? host[name as keyof WebServerHost]
          : undefined
    }
  }

  [TO_JSON](): unknown {
    const out: Record<string, unknown> = {}
    for (const name of [
      'isRunning',
      'HTTPEnabled',
      'HTTPSEnabled',
      ...HOST_MEMBERS,
      'quotas',
      'rules',
    ])
      out[name] = name === 'quotas' ? this.#quotas?.[TO_JSON]() : this[GET_MEMBER](name)
    return out
  }
}

/** `WebServer.quotas`: the running server's quotas, read and set under their names. */
class QuotasObject implements MemberHost, JsonHost {
  constructor(readonly live: Record<string, number | undefined>) {}

  [GET_MEMBER](name: string): unknown {
    return Object.hasOwn(this.live, name) ? this.live[name] : undefined
  }

  [SET_MEMBER](name: string, value: unknown): void {
    // A name that is no quota is refused, never added: 4D's QuotaManager has no other member.
    if (!Object.hasOwn(this.live, name))
      return raise('InvalidArgument', {
        parameter: name,
        command: 'WebServer.quotas',
        detail: 'not a web server quota',
      })
    try {
      this.live[name] = value === null ? undefined : (value as number | undefined)
    } catch (e) {
      if (!(e instanceof RangeError || e instanceof TypeError)) throw e
      raise('InvalidArgument', { parameter: name, command: 'WebServer.quotas', detail: e.message })
    }
  }

  [TO_JSON](): unknown {
    const out: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(this.live))
      if (value !== undefined) out[name] = value
    return out
  }
}

export const WEB_SERVER_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1674,
    name: 'WEB Server',
    signature: '(option?: Integer): Object',
    // Every option (the database's, the host database's, the one that received the request) is
    // the one server Entistore runs.
    impl: (rt) => new WebServerObject(rt.webServer),
  },
  {
    number: 1531,
    name: 'WEB Get server info',
    signature: '(withCache?: Boolean): Object',
    impl: (rt) => serverInfo(rt.webServer, rt.now()),
  },
]

/**
 * `WEB Get server info` (web-get-server-info.md): what the running server is, as plain values.
 * Entistore keeps no cache of web pages (`withCache` adds none) and runs no SOAP server; HTTP only.
 */
function serverInfo(host: WebServerHost | undefined, now: number): unknown {
  return fromJSON({
    started: host !== undefined,
    uptime: host?.startedAt === undefined ? 0 : Math.floor((now - host.startedAt) / 1000),
    httpRequestCount: host?.requestCount ?? 0,
    startMode: host === undefined ? 'manual' : 'automatic',
    SOAPServerStarted: false,
    security: {
      HTTPEnabled: host !== undefined,
      HTTPSEnabled: false,
      HSTSEnabled: false,
      perfectForwardSecrecy: false,
      openSSLVersion: `OpenSSL ${process.versions.openssl ?? ''}`.trim(),
    },
    options: {
      CORSEnabled: false,
      CORSSettings: null,
      webCharacterSet: 'UTF-8',
      webHTTPSPortID: 443,
      webIPAddressToListen: host === undefined ? [] : [host.IPAddressToListen],
      webPortID: host?.HTTPPort ?? 80,
    },
  })
}
