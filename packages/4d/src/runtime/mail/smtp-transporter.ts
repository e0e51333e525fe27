/**
 * @module `4D.SMTPTransporter` (docs/API/SMTPTransporterClass.md, Transporter.md), as `SMTP New
 * transporter(server)` and `4D.SMTPTransporter.new(server)` make it: the server's settings as
 * read-only properties (`host`, `port` 587, `acceptUnsecureConnection` False, `authenticationMode`,
 * `bodyCharset` and `headerCharset` `mail mode UTF8`, `connectionTimeOut` 30, `sendTimeOut` 100,
 * `keepAlive` True, `logFile`, `user`; the password and the OAuth2 token kept, not shown), and:
 * - `send(mail)`: the mail written as MIME (mime-writer.ts) and sent through the host (`SmtpHost`:
 *   entistore's reaches the servers `serve --allow-smtp` names, none by default), the call waiting
 *   for the server's last reply: `{success; status; statusText}`. A mail that cannot be written (no
 *   `from`, no recipient, an address that is none) raises, as 4D does; so do a server not allowed
 *   (9435) and a dialogue that gets no reply (9436, the network, TLS, a timeout). A server's
 *   refusal (a recipient, the login) is the status, success False.
 * - `checkConnection()`: connects, logs in and quits: the reply's status, or, when none came, status
 *   0, the error's message as `statusText` and the error in `errors`, as the page says.
 * Port 465 is TLS from the start; any other port upgrades with STARTTLS when the server offers it,
 * and goes on unencrypted only with `acceptUnsecureConnection`. Each send is a connection of its
 * own: `keepAlive` is kept as given and changes nothing.
 */
import { hexOf, randomBytes } from '../platform/bytes.js'
import { invalid } from '../arguments/arguments.js'
import { builtinClass, OBJECT_CLASS } from '../classes/builtin-class.js'
import type { CommandContext, SmtpAsk, SmtpHost, SmtpReply } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import type { Runtime } from '../context/runtime.js'
import { toText } from '../convert/conversions.js'
import { fourDError, raise, type FourDError } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { GET_MEMBER, SET_MEMBER, TO_JSON, type MemberHost } from '../values/host.js'
import { isPlainObject, newObject } from '../values/kinds.js'
import { readMail } from './email-parts.js'
import { DEFAULT_MAIL_MODE, MAIL_MODES, writeMime, type MimeOptions } from './mime-writer.js'

const COMMAND = 'SMTP New transporter'
const MODES = ['CRAM-MD5', 'LOGIN', 'OAUTH2', 'PLAIN']

/** The properties 4D code reads, as the server object gave them or their defaults. */
interface Settings {
  readonly host: string
  readonly port: number
  readonly acceptUnsecureConnection: boolean
  readonly authenticationMode: string | undefined
  readonly bodyCharset: string
  readonly headerCharset: string
  readonly connectionTimeOut: number
  readonly sendTimeOut: number
  readonly keepAlive: boolean
  readonly logFile: string | undefined
  readonly user: string | undefined
}

const PROPERTIES: readonly (keyof Settings)[] = [
  'acceptUnsecureConnection',
  'authenticationMode',
  'bodyCharset',
  'connectionTimeOut',
  'headerCharset',
  'host',
  'keepAlive',
  'logFile',
  'port',
  'sendTimeOut',
  'user',
]

export class FourDSMTPTransporter implements MemberHost {
  constructor(
    readonly settings: Settings,
    /** What logs in, never shown: a password, or an OAuth2 token. */
    readonly secret: { readonly password?: string; readonly token?: string },
  ) {}

  [GET_MEMBER](name: string): unknown {
    if ((PROPERTIES as readonly string[]).includes(name))
      return this.settings[name as keyof Settings]
    return MEMBERS.get(name)
  }

  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }

  [TO_JSON](): unknown {
    const o = newObject()
    for (const p of PROPERTIES) if (this.settings[p] !== undefined) o[p] = this.settings[p]
    return o
  }

  /** What the host is asked: the server, how to reach it and log in; no message. */
  ask(): SmtpAsk {
    const s = this.settings
    const mode = s.authenticationMode?.toUpperCase()
    return {
      host: s.host,
      port: s.port,
      tls: s.port === 465 ? 'implicit' : 'starttls',
      acceptUnsecure: s.acceptUnsecureConnection,
      ...(s.user === undefined
        ? {}
        : { auth: { user: s.user, ...this.secret, ...(mode ? { mode } : {}) } }),
      connectTimeoutMs: s.connectionTimeOut * 1000,
      sendTimeoutMs: s.sendTimeOut * 1000,
    }
  }
}

const server = (t: FourDSMTPTransporter): string => `${t.settings.host}:${t.settings.port}`

function hostOf(rt: CommandContext, name: string): SmtpHost {
  return rt.smtp ?? raise('NotImplemented', { name: `SMTPTransporter.${name} (no mail here)` })
}

/** `{success; status; statusText}` of the server's reply. */
const status = (rt: Runtime, reply: SmtpReply): unknown =>
  rt.objectOf(
    'success',
    reply.status >= 200 && reply.status < 300,
    'status',
    reply.status,
    'statusText',
    reply.statusText,
  )

const unique = (): string => hexOf(randomBytes(16))

/** The MIME writer's options from a transporter's charsets (or MAIL Convert to MIME's). */
export const mimeOptions = (headerCharset: string, bodyCharset: string): MimeOptions => ({
  header: MAIL_MODES.get(headerCharset)!,
  body: MAIL_MODES.get(bodyCharset)!,
  unique,
})

function send(rt: Runtime, t: FourDSMTPTransporter, mail: unknown): unknown {
  const where = 'SMTPTransporter.send'
  const read = readMail(where, mail, rt.now())
  if (read.envelopeFrom === undefined) return invalid(where, 'mail', 'give the from address')
  if (read.recipients.length === 0)
    return invalid(where, 'mail', 'give a recipient (to, cc or bcc)')
  const { headerCharset, bodyCharset } = t.settings
  const mime = writeMime(read.parts, mimeOptions(headerCharset, bodyCharset))
  const reply = hostOf(rt, 'send').send({
    ...t.ask(),
    message: {
      from: read.envelopeFrom,
      recipients: read.recipients,
      mime: new TextEncoder().encode(mime),
    },
  })
  if ('refused' in reply)
    return raise('SmtpNotAllowed', { server: server(t), detail: reply.refused })
  if ('failed' in reply) return raise('SmtpFailed', { server: server(t), detail: reply.failed })
  return status(rt, reply)
}

function checkConnection(rt: Runtime, t: FourDSMTPTransporter): unknown {
  const reply = hostOf(rt, 'checkConnection').send(t.ask())
  if (!('refused' in reply) && !('failed' in reply)) return status(rt, reply)
  const error: FourDError =
    'refused' in reply
      ? fourDError('SmtpNotAllowed', { server: server(t), detail: reply.refused })
      : fourDError('SmtpFailed', { server: server(t), detail: reply.failed })
  const errors = new Collection([rt.objectOf(...Object.entries(error.toErrorObject()).flat())])
  return rt.objectOf('success', false, 'status', 0, 'statusText', error.message, 'errors', errors)
}

const transporterOf = (self: unknown, name: string): FourDSMTPTransporter =>
  self instanceof FourDSMTPTransporter ? self : raise('UnknownMemberMethod', { name })

const MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  [
    'send',
    new FourDFunction('SMTPTransporter.send', (rt, self, args) =>
      send(rt, transporterOf(self, 'send'), args[0]),
    ),
  ],
  [
    'checkConnection',
    new FourDFunction('SMTPTransporter.checkConnection', (rt, self) =>
      checkConnection(rt, transporterOf(self, 'checkConnection')),
    ),
  ],
])

/** A property of the server object: its value, or `fallback` when it is not given. */
function option<T>(
  server: Record<string, unknown>,
  name: string,
  kind: 'string' | 'number' | 'boolean',
  fallback: T,
): T {
  const v = server[name]
  if (v === undefined || v === null) return fallback
  if (typeof v !== kind) return invalid(COMMAND, 'server', `${name} must be a ${kind}`)
  return v as T
}

/** A charset property: one of 4D's modes (`mail mode UTF8`…). */
function charset(server: Record<string, unknown>, name: string): string {
  const v = option(server, name, 'string', DEFAULT_MAIL_MODE)
  const mode = [...MAIL_MODES.keys()].find((m) => m.toLowerCase() === v.toLowerCase())
  return mode ?? invalid(COMMAND, 'server', `${name}: "${v}" is not a mail mode`)
}

/** The OAuth2 token: a text, or a token object's `token.access_token` (4D NetKit's). */
function tokenOf(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined
  if (typeof v === 'string') return v
  const inner = isPlainObject(v) && isPlainObject(v.token) ? v.token.access_token : undefined
  return typeof inner === 'string'
    ? inner
    : invalid(COMMAND, 'server', 'accessTokenOAuth2: give a text or a token object')
}

/** `SMTP New transporter(server)`: no connection is opened. */
export function newTransporter(given: unknown): FourDSMTPTransporter {
  if (!isPlainObject(given)) return invalid(COMMAND, 'server', 'give an object')
  const host = option(given, 'host', 'string', '').trim()
  if (host === '') invalid(COMMAND, 'server', 'host is mandatory')
  const port = option(given, 'port', 'number', 587)
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    invalid(COMMAND, 'server', `port: ${port} is not a port`)
  if (given.certificate != null || (given.certificateName ?? '') !== '')
    invalid(COMMAND, 'server', 'S/MIME signing (certificate, certificateName) is not supported')
  const token = tokenOf(given.accessTokenOAuth2)
  let mode = option<string | undefined>(given, 'authenticationMode', 'string', undefined)
  if (mode === '') mode = undefined
  if (mode !== undefined && !MODES.includes(mode.toUpperCase()))
    invalid(COMMAND, 'server', `authenticationMode: "${mode}" is not ${MODES.join(', ')}`)
  if (mode === undefined && token !== undefined) mode = 'OAUTH2'
  const password = given.password === undefined ? undefined : toText(given.password)
  const timeout = (name: string, fallback: number): number => {
    const v = option(given, name, 'number', fallback)
    return v > 0 ? v : invalid(COMMAND, 'server', `${name} must be more than 0`)
  }
  return new FourDSMTPTransporter(
    {
      host,
      port,
      acceptUnsecureConnection: option(given, 'acceptUnsecureConnection', 'boolean', false),
      authenticationMode: mode,
      bodyCharset: charset(given, 'bodyCharset'),
      headerCharset: charset(given, 'headerCharset'),
      connectionTimeOut: timeout('connectionTimeOut', 30),
      sendTimeOut: timeout('sendTimeOut', 100),
      keepAlive: option(given, 'keepAlive', 'boolean', true),
      logFile: option<string | undefined>(given, 'logFile', 'string', undefined),
      user: option<string | undefined>(given, 'user', 'string', undefined) || undefined,
    },
    {
      ...(password === undefined ? {} : { password }),
      ...(token === undefined ? {} : { token }),
    },
  )
}

/** `4D.SMTPTransporter`: `new(server)` is `SMTP New transporter`. */
export const SMTP_TRANSPORTER_CLASS = builtinClass(
  'SMTPTransporter',
  OBJECT_CLASS,
  (v) => v instanceof FourDSMTPTransporter,
  (_rt, args) => newTransporter(args[0]),
)
