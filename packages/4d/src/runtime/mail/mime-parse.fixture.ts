/**
 * @module A small MIME reader for the tests of the writer (RFC 5322 unfolding, RFC 2047 encoded
 * words, quoted-printable, base64, multipart), written from the RFCs rather than from the
 * writer, so that what the writer writes is read back as any mail reader would.
 */

export interface ParsedPart {
  /** The header fields by lower-case name, unfolded, each value as written. */
  readonly headers: ReadonlyMap<string, string>
  /** A single part's body, decoded to bytes. */
  readonly bytes: Uint8Array
  /** A multipart's parts. */
  readonly parts: readonly ParsedPart[]
}

function qpBytes(text: string, underscoreIsSpace: boolean): Uint8Array {
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else if (c === '_' && underscoreIsSpace) out.push(32)
    else out.push(c.charCodeAt(0))
  }
  return Uint8Array.from(out)
}

/**
 * `bytes` in `charset`. ISO-8859-1 is read as itself, one byte a code point: TextDecoder reads
 * that label as windows-1252 (the WHATWG rule), whose 0x80–0x9F are other characters. A leading
 * U+FEFF is text the writer was given, not a byte order mark: TextDecoder would drop it.
 */
function decode(bytes: Uint8Array, charset: string): string {
  if (/^(iso-8859-1|latin1|iso_8859-1)$/i.test(charset)) return String.fromCharCode(...bytes)
  return new TextDecoder(charset, { ignoreBOM: true }).decode(bytes)
}

/** The text of a field: encoded words decoded, the space between two of them dropped. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)[ \t]+(?==\?)/g, '$1')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_m, charset: string, enc: string, data: string) =>
        decode(
          enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : qpBytes(data, true),
          charset,
        ),
    )
}

/** An address field's one address: its name (unquoted, decoded) and its address. */
export function parseAddress(value: string): { name?: string; email: string } {
  const at = /^(.*) <([^>]*)>$/s.exec(value)
  if (at === null) return { email: value }
  const phrase = at[1]!
  const name = /^".*"$/s.test(phrase)
    ? phrase.slice(1, -1).replace(/\\(.)/gs, '$1')
    : decodeWords(phrase)
  return { name, email: at[2]! }
}

const param = (header: string, name: string): string | undefined =>
  new RegExp(`;\\s*${name}="([^"]*)"`).exec(header)?.[1]

/** A message or a part (`top`: the message, whose text ends with a CRLF): fields, then body or parts. */
export function parseMime(text: string, top = true): ParsedPart {
  const split = text.indexOf('\r\n\r\n')
  const head = split < 0 ? text : text.slice(0, split)
  const body = split < 0 ? '' : text.slice(split + 4)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':')
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 2))
  }
  const type = headers.get('content-type') ?? 'text/plain'
  const boundary = param(type, 'boundary')
  if (type.startsWith('multipart/') && boundary !== undefined) {
    const sections = body.split(`--${boundary}`)
    const parts = sections.slice(1, -1).map((s) => parseMime(s.slice(2, -2), false))
    return { headers, bytes: new Uint8Array(), parts }
  }
  const encoding = headers.get('content-transfer-encoding') ?? '7bit'
  const content = top ? body.replace(/\r\n$/, '') : body
  const bytes =
    encoding === 'base64'
      ? new Uint8Array(Buffer.from(content.replace(/\r\n/g, ''), 'base64'))
      : encoding === 'quoted-printable'
        ? qpBytes(content.replace(/=\r\n/g, ''), false)
        : new TextEncoder().encode(content)
  return { headers, bytes, parts: [] }
}

/** A text part's text, in the charset its Content-Type names. */
export const textOf = (part: ParsedPart): string =>
  decode(part.bytes, param(part.headers.get('content-type') ?? '', 'charset') ?? 'utf-8')
