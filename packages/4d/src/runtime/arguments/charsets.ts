/**
 * @module Texts as bytes in a character set, for `Convert to text`, `CONVERT FROM TEXT`
 * (docs/commands-legacy/convert-to-text.md, convert-from-text.md) and the Mac formats of `TEXT TO
 * BLOB`/`BLOB to text` (Mac Roman). A set is named as 4D takes it, by its name ("UTF-8",
 * "ISO-8859-1", "windows-1252", "macintosh"…: what Node's TextDecoder knows) or by its MIBEnum
 * number (106 UTF-8, 4 ISO-8859-1…). Decoding is TextDecoder's; encoding is UTF-8 and UTF-16 by
 * hand and, for a set of one byte a character, the table TextDecoder gives read backwards, a
 * character the set does not have written `?` (as 4D's conversions replace it).
 *
 * A long text or BLOB is converted a piece at a time (a megabyte, never between the two halves of
 * a surrogate pair; TextDecoder carries a character cut between two pieces over), each piece
 * counted as passes of the budget's (context/budget.ts) before it is converted: a conversion of
 * hundreds of megabytes ends at the budget with 9410.
 */
import { spend, UNCOUNTED, type Passes } from '../values/passes.js'
import { invalid } from './arguments.js'

/** The MIBEnum numbers 4D accepts for the sets public code uses (IANA's registry). */
const MIB: Readonly<Record<number, string>> = {
  3: 'us-ascii',
  4: 'iso-8859-1',
  106: 'utf-8',
  1013: 'utf-16be',
  1014: 'utf-16le',
  1015: 'utf-16',
  2027: 'macintosh',
  2252: 'windows-1252',
}

/** TextDecoder's name of a set given by name or number; an unknown set raises 9415. */
export function charsetOf(command: string, charSet: unknown): string {
  const label = typeof charSet === 'number' ? MIB[charSet] : String(charSet).trim().toLowerCase()
  try {
    if (label !== undefined) return new TextDecoder(label).encoding
  } catch {
    // Not a set TextDecoder knows: the error below.
  }
  return invalid(command, 'charSet', `"${String(charSet)}" is not a character set supported here`)
}

/** The size of a piece converted at once (bytes or characters). */
const PIECE = 1 << 20

/** `bytes` read in the set `encoding` (TextDecoder's name). */
export function decodeText(bytes: Uint8Array, encoding: string, rt: Passes = UNCOUNTED): string {
  const decoder = new TextDecoder(encoding)
  if (bytes.length <= PIECE) {
    spend(rt, bytes.length)
    return decoder.decode(bytes)
  }
  let out = ''
  for (let at = 0; at < bytes.length; at += PIECE) {
    const piece = bytes.subarray(at, at + PIECE)
    spend(rt, piece.length)
    out += decoder.decode(piece, { stream: true })
  }
  return out + decoder.decode()
}

/** The pieces of `text` (`[from, to)`), none ending between the two halves of a pair. */
function* pieces(text: string): Generator<[number, number]> {
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + PIECE, text.length)
    const last = text.charCodeAt(to - 1)
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--
    yield [from, to]
    from = to
  }
}

/** `encode` of each piece of `text`, counted before, joined. */
function encodedByPieces(
  text: string,
  rt: Passes,
  encode: (piece: string) => Uint8Array,
): Uint8Array {
  if (text.length <= PIECE) {
    spend(rt, text.length)
    return encode(text)
  }
  const parts: Uint8Array[] = []
  let size = 0
  for (const [from, to] of pieces(text)) {
    spend(rt, to - from)
    const part = encode(text.slice(from, to))
    parts.push(part)
    size += part.length
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

const singleByteTables = new Map<string, Map<number, number>>()

/** A set of one byte a character: its characters' bytes, read from TextDecoder's table. */
function singleByteTable(encoding: string): Map<number, number> {
  let table = singleByteTables.get(encoding)
  if (table === undefined) {
    table = new Map()
    const decoder = new TextDecoder(encoding)
    for (let b = 255; b >= 0; b--) table.set(decoder.decode(new Uint8Array([b])).charCodeAt(0), b)
    singleByteTables.set(encoding, table)
  }
  return table
}

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2)
  const view = new DataView(out.buffer)
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian)
  return out
}

/** The sets of several bytes a character TextDecoder reads and nothing here writes. */
const MULTI_BYTE = new Set([
  'shift_jis',
  'euc-jp',
  'iso-2022-jp',
  'euc-kr',
  'gbk',
  'gb18030',
  'big5',
])

/** `text` as bytes in the set `encoding` (TextDecoder's name). */
export function encodeText(
  command: string,
  text: string,
  encoding: string,
  rt: Passes = UNCOUNTED,
): Uint8Array {
  if (encoding === 'utf-8') {
    const encoder = new TextEncoder()
    return encodedByPieces(text, rt, (p) => encoder.encode(p))
  }
  if (encoding === 'utf-16le') return encodedByPieces(text, rt, (p) => utf16(p, true))
  if (encoding === 'utf-16be') return encodedByPieces(text, rt, (p) => utf16(p, false))
  if (MULTI_BYTE.has(encoding))
    return invalid(command, 'charSet', `writing "${encoding}" is not supported here`)
  const table = singleByteTable(encoding)
  const question = 0x3f
  return encodedByPieces(text, rt, (p) =>
    Uint8Array.from(p, (c) => table.get(c.charCodeAt(0)) ?? question),
  )
}
