/**
 * @module The MIME writer of outgoing mail (RFC 5322, 2045–2047): a mail's parts, as
 * email-parts.ts reads them from 4D's Email object (docs/API/EmailObjectClass.md), written as the
 * text `MAIL Convert to MIME` returns and `4D.SMTPTransporter`'s `send()` sends. Pure: the date
 * and the random texts (boundaries, the Message-ID) are given.
 *
 * - Header fields: US-ASCII as it is, folded at spaces past 76 characters; a text that is not
 *   printable US-ASCII (or that a reader could take for one, as `=?`) as RFC 2047 encoded words,
 *   quoted-printable or base64 as the header charset says; an address's name likewise, or quoted.
 * - Bodies: the text and the HTML in the body charset, quoted-printable or base64, as
 *   multipart/alternative when both are given; the attachments in base64, those with a cid in a
 *   multipart/related beside the body, the others in a multipart/mixed.
 * - Line breaks are CRLF; the whole text is US-ASCII, so its UTF-8 bytes are its bytes.
 */
import { base64Of } from '../platform/bytes.js'

/** An address: a display name (none: the address alone) and the address. */
export interface MailAddress {
  readonly name?: string
  readonly email: string
}

export interface AttachmentPart {
  readonly name: string
  /** The media type (`image/png`). */
  readonly type: string
  readonly bytes: Uint8Array
  /** The `Content-ID` an HTML body refers to (`cid:…`). */
  readonly cid?: string
  /** `inline` or `attachment`. */
  readonly disposition: string
}

/** A mail as the writer takes it. */
export interface MailParts {
  readonly from: readonly MailAddress[]
  readonly sender?: MailAddress
  readonly to: readonly MailAddress[]
  readonly cc: readonly MailAddress[]
  readonly replyTo: readonly MailAddress[]
  readonly subject?: string
  readonly textBody?: string
  readonly htmlBody?: string
  readonly attachments: readonly AttachmentPart[]
  /** Other fields, in order: the mail's own (In-Reply-To, Keywords…), then its `headers`. */
  readonly headers: readonly (readonly [string, string])[]
  /** The Message-ID without its brackets; none: one is made. */
  readonly messageId?: string
  /** The Date field, epoch milliseconds. */
  readonly date: number
}

/** A charset and an encoding, as 4D's `headerCharset` and `bodyCharset` name them. */
export interface MailMode {
  readonly charset: 'UTF-8' | 'ISO-8859-1'
  readonly encoding: 'Q' | 'B'
}

/**
 * 4D's modes (Transporter.md, "headerCharset"). ISO-2022-JP, which Node has no encoder for, takes
 * the mode's own fallback, UTF-8 and quoted-printable; ISO-8859-1 bodies are quoted-printable
 * rather than 8-bit, so that the text stays US-ASCII.
 */
export const MAIL_MODES: ReadonlyMap<string, MailMode> = new Map<string, MailMode>([
  ['US-ASCII_UTF8_QP', { charset: 'UTF-8', encoding: 'Q' }],
  ['US-ASCII_UTF8_B64', { charset: 'UTF-8', encoding: 'B' }],
  ['ISO-8859-1', { charset: 'ISO-8859-1', encoding: 'Q' }],
  ['US-ASCII_ISO-2022-JP_UTF8_QP', { charset: 'UTF-8', encoding: 'Q' }],
])

/** `mail mode UTF8`, the default of both charsets. */
export const DEFAULT_MAIL_MODE = 'US-ASCII_UTF8_QP'

export interface MimeOptions {
  readonly header: MailMode
  readonly body: MailMode
  /** A random text of letters and digits, new at each call (boundaries, the Message-ID). */
  readonly unique: () => string
}

const CRLF = '\r\n'
const LINE = 76

const hex = (b: number): string => `=${b.toString(16).toUpperCase().padStart(2, '0')}`

/** The text's bytes in the charset (ISO-8859-1: a character it lacks is `?`). */
function bytesOf(text: string, charset: MailMode['charset']): Uint8Array {
  if (charset === 'UTF-8') return new TextEncoder().encode(text)
  return Uint8Array.from(text, (c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 63))
}

const base64 = (bytes: Uint8Array): string => base64Of(bytes, false)

/** RFC 2047's Q: letters, digits and `!*+-/` as they are (safe in a phrase too), space as `_`. */
const qWord = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) =>
    /[A-Za-z0-9!*+\-/]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : b === 32
        ? '_'
        : hex(b),
  ).join('')

/** `text` as encoded words, each short enough to fold between: one character never split. */
export function encodedWords(text: string, mode: MailMode): string[] {
  const words: string[] = []
  const wrap = (bytes: number[]): string => {
    const data = Uint8Array.from(bytes)
    const payload = mode.encoding === 'B' ? base64(data) : qWord(data)
    return `=?${mode.charset}?${mode.encoding}?${payload}?=`
  }
  let bytes: number[] = []
  let size = 0
  for (const char of text) {
    const more = [...bytesOf(char, mode.charset)]
    const cost = mode.encoding === 'B' ? more.length : qWord(Uint8Array.from(more)).length
    // 30 bytes make 40 base64 characters; 45 Q characters: each word stays under 60.
    if (bytes.length > 0 && size + cost > (mode.encoding === 'B' ? 30 : 45)) {
      words.push(wrap(bytes))
      bytes = []
      size = 0
    }
    bytes.push(...more)
    size += cost
  }
  if (bytes.length > 0 || words.length === 0) words.push(wrap(bytes))
  return words
}

/**
 * Whether an unstructured text must be encoded: not printable US-ASCII, or read otherwise once
 * written (`=?` opens an encoded word; a space first or last, or a word too long to fold).
 */
export const needsEncoding = (text: string): boolean => /[^\x20-\x7e]|=\?|^ | $|\S{70}/.test(text)

/**
 * A header field folded (RFC 5322 2.2.3): CRLF put before a space that starts a run of spaces,
 * the last such place that keeps the line to 76 characters, or the first one past them; never
 * right after the field's name. Unfolding (removing the CRLFs) gives the field back.
 */
export function fold(field: string): string {
  const colon = field.indexOf(':')
  let out = ''
  let line = field
  let start = colon + 2
  while (line.length > LINE) {
    let before = -1
    let after = -1
    for (let i = start; i < line.length; i++) {
      if (line[i] !== ' ' || line[i - 1] === ' ') continue
      if (i <= LINE) before = i
      else {
        after = i
        break
      }
    }
    const at = before > 0 ? before : after
    if (at <= 0) break
    out += line.slice(0, at) + CRLF
    line = line.slice(at)
    start = 1
  }
  return out + line
}

/**
 * A field of text (`Subject`, a header the mail adds): encoded when it must be. `loose`: a text
 * of printable US-ASCII stays as it is (a header of the mail's `headers` may be structured).
 */
const textField = (name: string, value: string, mode: MailMode, loose = false): string =>
  fold(
    `${name}: ${(loose ? /[^\x20-\x7e]/.test(value) : needsEncoding(value)) ? encodedWords(value, mode).join(' ') : value}`,
  )

/** A display name: as it is (atoms), quoted, or encoded words. */
function phrase(name: string, mode: MailMode): string {
  if (needsEncoding(name)) return encodedWords(name, mode).join(' ')
  if (/^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+( [A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/.test(name))
    return name
  return `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`
}

/** An address as a field writes it: `a@b.c` or `Name <a@b.c>`. */
export const addressText = (a: MailAddress, mode: MailMode): string =>
  a.name === undefined || a.name === '' ? a.email : `${phrase(a.name, mode)} <${a.email}>`

const addressField = (name: string, list: readonly MailAddress[], mode: MailMode): string =>
  fold(`${name}: ${list.map((a) => addressText(a, mode)).join(', ')}`)

/** RFC 5322's date: `Thu, 11 Oct 2018 15:42:25 +0000`. */
export const mailDate = (ms: number): string => new Date(ms).toUTCString().replace('GMT', '+0000')

/** Quoted-printable (RFC 2045 6.7): each line of the text a hard break, soft ones past 76. */
export function quotedPrintable(text: string, charset: MailMode['charset']): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const bytes = bytesOf(line, charset)
      const tokens = Array.from(bytes, (b, i) => {
        const last = i === bytes.length - 1
        if ((b === 32 || b === 9) && !last) return String.fromCharCode(b)
        return b >= 33 && b <= 126 && b !== 61 ? String.fromCharCode(b) : hex(b)
      })
      let out = ''
      let width = 0
      for (const t of tokens) {
        if (width + t.length > LINE - 1) {
          out += `=${CRLF}`
          width = 0
        }
        out += t
        width += t.length
      }
      return out
    })
    .join(CRLF)
}

/** Base64 in lines of 76. */
export const base64Lines = (bytes: Uint8Array): string =>
  (base64(bytes).match(/.{1,76}/g) ?? ['']).join(CRLF)

/** One part: its header fields, a blank line, its body. */
const part = (fields: readonly string[], body: string): string =>
  `${fields.join(CRLF)}${CRLF}${CRLF}${body}`

function textPart(subtype: 'plain' | 'html', text: string, mode: MailMode): string {
  const encoded =
    mode.encoding === 'B'
      ? base64Lines(bytesOf(text, mode.charset))
      : quotedPrintable(text, mode.charset)
  return part(
    [
      `Content-Type: text/${subtype}; charset="${mode.charset}"`,
      `Content-Transfer-Encoding: ${mode.encoding === 'B' ? 'base64' : 'quoted-printable'}`,
    ],
    encoded,
  )
}

/** A parameter's value, quoted; a name that is not US-ASCII as encoded words in the quotes. */
const param = (value: string, mode: MailMode): string =>
  `"${(needsEncoding(value) ? encodedWords(value, mode).join(' ') : value).replace(/["\\]/g, (c) => `\\${c}`)}"`

function attachmentPart(a: AttachmentPart, mode: MailMode): string {
  const name = param(a.name, mode)
  return part(
    [
      fold(`Content-Type: ${a.type}; name=${name}`),
      fold(`Content-Disposition: ${a.disposition}; filename=${name}`),
      'Content-Transfer-Encoding: base64',
      ...(a.cid === undefined ? [] : [`Content-ID: <${a.cid}>`]),
    ],
    base64Lines(a.bytes),
  )
}

function multipart(subtype: string, parts: readonly string[], unique: () => string): string {
  const boundary = `=_${unique()}`
  const body = parts.map((p) => `--${boundary}${CRLF}${p}${CRLF}`).join('')
  return part(
    [`Content-Type: multipart/${subtype}; boundary="${boundary}"`],
    `${body}--${boundary}--`,
  )
}

/** The body: text, HTML or both, then the inline attachments, then the others. */
function bodyOf(mail: MailParts, options: MimeOptions): string {
  const { body: mode, unique } = options
  const texts: string[] = []
  if (mail.textBody !== undefined || mail.htmlBody === undefined)
    texts.push(textPart('plain', mail.textBody ?? '', mode))
  if (mail.htmlBody !== undefined) texts.push(textPart('html', mail.htmlBody, mode))
  let body = texts.length === 1 ? texts[0]! : multipart('alternative', texts, unique)
  const related = mail.attachments.filter((a) => a.cid !== undefined && a.disposition === 'inline')
  const mixed = mail.attachments.filter((a) => !related.includes(a))
  if (related.length > 0)
    body = multipart(
      'related',
      [body, ...related.map((a) => attachmentPart(a, options.header))],
      unique,
    )
  if (mixed.length > 0)
    body = multipart(
      'mixed',
      [body, ...mixed.map((a) => attachmentPart(a, options.header))],
      unique,
    )
  return body
}

/** The domain of the first address, for a Message-ID made here. */
const domainOf = (mail: MailParts): string =>
  /@([A-Za-z0-9.-]+)$/.exec(mail.sender?.email ?? mail.from[0]?.email ?? '')?.[1] ?? 'entistore'

/** The mail as MIME text: the message's header fields, then its body (or bodies). */
export function writeMime(mail: MailParts, options: MimeOptions): string {
  const mode = options.header
  const sender = mail.sender ?? mail.from[0]
  const fields = [
    'MIME-Version: 1.0',
    `Date: ${mailDate(mail.date)}`,
    `Message-ID: <${mail.messageId ?? `${options.unique()}@${domainOf(mail)}`}>`,
    ...(sender === undefined ? [] : [addressField('Sender', [sender], mode)]),
    ...(mail.from.length === 0 ? [] : [addressField('From', mail.from, mode)]),
    ...(mail.replyTo.length === 0 ? [] : [addressField('Reply-To', mail.replyTo, mode)]),
    ...(mail.to.length === 0 ? [] : [addressField('To', mail.to, mode)]),
    ...(mail.cc.length === 0 ? [] : [addressField('Cc', mail.cc, mode)]),
    ...(mail.subject === undefined ? [] : [textField('Subject', mail.subject, mode)]),
    ...mail.headers.map(([name, value]) => textField(name, value, mode, true)),
  ]
  return `${fields.join(CRLF)}${CRLF}${bodyOf(mail, options)}${CRLF}`
}
