/**
 * @module 4D's Email object (docs/API/EmailObjectClass.md) read for the MIME writer: `from`,
 * `sender`, `to`, `cc`, `bcc`, `replyTo` (each a text of addresses separated by commas or
 * semicolons, `Name <a@b.c>` or `a@b.c`; an object `{name; email}`; or a collection of either),
 * `subject`, `textBody`, `htmlBody`, `attachments` (4D.MailAttachment objects), `headers` (a
 * collection of `{name; value}`, one the mail sets already ignored, as the page says),
 * `keywords`, `comments`, `inReplyTo`, `references`, `messageId` and `sendAt` (the Date field).
 * A mail made from MIME (`bodyStructure`, `bodyValues`) is not read: it raises.
 */
import { invalid } from '../arguments/arguments.js'
import { toText } from '../convert/conversions.js'
import { Collection } from '../values/collection.js'
import { isPlainObject } from '../values/kinds.js'
import { FourDMailAttachment } from './mail-attachment.js'
import type { AttachmentPart, MailAddress, MailParts } from './mime-writer.js'

/** An address's form: printable US-ASCII, one `@`, nothing a header would read otherwise. */
const EMAIL = /^[^\s<>()[\]",;:\\@\x00-\x1f\x7f-\uffff]+@[^\s<>()[\]",;:\\@\x00-\x1f\x7f-\uffff]+$/

/** The fields the mail's own properties write: a header of `headers` of one of these is ignored. */
const OWN_FIELDS: Readonly<Record<string, string>> = {
  from: 'from',
  sender: 'sender',
  to: 'to',
  cc: 'cc',
  bcc: 'bcc',
  'reply-to': 'replyTo',
  subject: 'subject',
  'message-id': 'messageId',
  date: 'sendAt',
  keywords: 'keywords',
  comments: 'comments',
  'in-reply-to': 'inReplyTo',
  references: 'references',
}

/** The mail and its envelope: MAIL FROM's address and every recipient (to, cc and bcc). */
export interface MailRead {
  readonly parts: MailParts
  readonly envelopeFrom: string | undefined
  readonly recipients: readonly string[]
}

/** `a, "Doe, J" <j@x.org>; b@y.org` split at the commas and semicolons outside quotes and brackets. */
function splitAddresses(text: string): string[] {
  const out: string[] = []
  let current = ''
  let quoted = false
  let angle = false
  for (const c of text) {
    if (c === '"') quoted = !quoted
    else if (c === '<' && !quoted) angle = true
    else if (c === '>' && !quoted) angle = false
    if ((c === ',' || c === ';') && !quoted && !angle) {
      out.push(current)
      current = ''
    } else current += c
  }
  return [...out, current].map((s) => s.trim()).filter((s) => s !== '')
}

function checked(command: string, property: string, email: string, name?: string): MailAddress {
  const address = email.trim()
  if (!EMAIL.test(address)) invalid(command, 'mail', `${property}: "${address}" is not an address`)
  return name === undefined || name.trim() === '' ? { email: address } : { name, email: address }
}

function addressOf(command: string, property: string, v: unknown): MailAddress[] {
  if (typeof v === 'string')
    return splitAddresses(v).map((one) => {
      const at = /^(.*)<([^>]*)>\s*$/.exec(one)
      if (at === null) return checked(command, property, one)
      const name = at[1]!
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replace(/\\(.)/g, '$1')
      return checked(command, property, at[2]!, name)
    })
  if (isPlainObject(v)) {
    const name = v.name === undefined || v.name === null ? undefined : toText(v.name)
    return [checked(command, property, toText(v.email ?? ''), name)]
  }
  return invalid(command, 'mail', `${property}: give a text, an object or a collection`)
}

/** The addresses of a property: none when it is not given. */
function addresses(
  command: string,
  mail: Record<string, unknown>,
  property: string,
): MailAddress[] {
  const v = mail[property]
  if (v === undefined || v === null || v === '') return []
  if (v instanceof Collection) return v.items.flatMap((item) => addressOf(command, property, item))
  return addressOf(command, property, v)
}

const textOf = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : toText(v)

/** A message ID as a field writes it, without its brackets; a text that is none raises. */
function messageId(command: string, property: string, v: string): string {
  const id = v.trim().replace(/^<|>$/g, '')
  if (!/^[\x21-\x7e]+$/.test(id) || /[<>]/.test(id))
    invalid(command, 'mail', `${property}: "${v}" is not a message ID`)
  return id
}

/** The fields of `inReplyTo`, `references`, `comments`, `keywords`, then the mail's `headers`. */
function otherFields(command: string, mail: Record<string, unknown>): [string, string][] {
  const fields: [string, string][] = []
  const ids = (v: unknown, property: string): string =>
    (v instanceof Collection ? v.items.map(toText) : toText(v).split(/\s+/))
      .filter((s) => s !== '')
      .map((s) => `<${messageId(command, property, s)}>`)
      .join(' ')
  if (textOf(mail.inReplyTo)) fields.push(['In-Reply-To', ids(mail.inReplyTo, 'inReplyTo')])
  if (mail.references instanceof Collection && mail.references.items.length > 0)
    fields.push(['References', ids(mail.references, 'references')])
  const comments = textOf(mail.comments)
  if (comments) fields.push(['Comments', comments])
  const keywords = mail.keywords
  if (isPlainObject(keywords)) {
    const words = Object.keys(keywords).filter((k) => keywords[k] === true)
    if (words.length > 0) fields.push(['Keywords', words.join(', ')])
  }
  const headers = mail.headers
  if (headers === undefined || headers === null) return fields
  if (!(headers instanceof Collection))
    return invalid(command, 'mail', 'headers: give a collection of {name; value}')
  for (const h of headers.items) {
    if (!isPlainObject(h) || h.name === undefined || h.name === null) continue
    const name = toText(h.name)
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name))
      invalid(command, 'mail', `headers: "${name}" is not a header name`)
    const own = OWN_FIELDS[name.toLowerCase()]
    if (own !== undefined && mail[own] !== undefined && mail[own] !== null) continue
    if (/^(mime-version|content-.*)$/i.test(name)) continue
    fields.push([name, textOf(h.value) ?? ''])
  }
  return fields
}

function attachmentsOf(command: string, v: unknown): AttachmentPart[] {
  if (v === undefined || v === null) return []
  if (!(v instanceof Collection))
    return invalid(command, 'mail', 'attachments: give a collection of 4D.MailAttachment')
  return v.items.map((a) =>
    a instanceof FourDMailAttachment
      ? a.part
      : invalid(
          command,
          'mail',
          'attachments: give 4D.MailAttachment objects (MAIL New attachment)',
        ),
  )
}

/** The Date field: `sendAt` (ISO 8601) when it reads as a date, else `now`. */
function dateOf(v: unknown, now: number): number {
  const ms = typeof v === 'string' && v !== '' ? Date.parse(v) : NaN
  return Number.isNaN(ms) ? now : ms
}

/** The mail object read for `command`; a property it cannot write raises 9415. */
export function readMail(command: string, mail: unknown, now: number): MailRead {
  if (!isPlainObject(mail)) return invalid(command, 'mail', 'give an Email object')
  if (mail.bodyStructure !== undefined && mail.bodyStructure !== null)
    invalid(command, 'mail', 'a mail made from MIME (bodyStructure, bodyValues) is not supported')
  const from = addresses(command, mail, 'from')
  const sender = addresses(command, mail, 'sender')[0]
  const to = addresses(command, mail, 'to')
  const cc = addresses(command, mail, 'cc')
  const bcc = addresses(command, mail, 'bcc')
  const id = textOf(mail.messageId)
  const parts: MailParts = {
    from,
    ...(sender === undefined ? {} : { sender }),
    to,
    cc,
    replyTo: addresses(command, mail, 'replyTo'),
    ...(textOf(mail.subject) === undefined ? {} : { subject: textOf(mail.subject)! }),
    ...(textOf(mail.textBody) === undefined ? {} : { textBody: textOf(mail.textBody)! }),
    ...(textOf(mail.htmlBody) === undefined ? {} : { htmlBody: textOf(mail.htmlBody)! }),
    attachments: attachmentsOf(command, mail.attachments),
    headers: otherFields(command, mail),
    ...(id ? { messageId: messageId(command, 'messageId', id) } : {}),
    date: dateOf(mail.sendAt, now),
  }
  const seen = new Set<string>()
  const recipients = [...to, ...cc, ...bcc]
    .map((a) => a.email)
    .filter((e) => !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()))
  return { parts, envelopeFrom: (sender ?? from[0])?.email, recipients }
}
