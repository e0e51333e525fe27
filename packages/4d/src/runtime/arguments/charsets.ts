/**
 * @module Texts as bytes in a character set, for `Convert to text`, `CONVERT FROM TEXT`
 * (docs/commands-legacy/convert-to-text.md, convert-from-text.md) and the Mac formats of `TEXT TO
 * BLOB`/`BLOB to text` (Mac Roman). A set is named as 4D takes it, by its name ("UTF-8",
 * "ISO-8859-1", "windows-1252", "macintosh"…: what Node's TextDecoder knows) or by its MIBEnum
 * number (106 UTF-8, 4 ISO-8859-1…). Decoding is TextDecoder's; encoding is UTF-8 and UTF-16 by
 * hand and, for a set of one byte a character, the table TextDecoder gives read backwards, a
 * character the set does not have written `?` (as 4D's conversions replace it).
 */
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

/** `bytes` read in the set `encoding` (TextDecoder's name). */
export const decodeText = (bytes: Uint8Array, encoding: string): string =>
  new TextDecoder(encoding).decode(bytes)

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
export function encodeText(command: string, text: string, encoding: string): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(text)
  if (encoding === 'utf-16le') return utf16(text, true)
  if (encoding === 'utf-16be') return utf16(text, false)
  if (MULTI_BYTE.has(encoding))
    return invalid(command, 'charSet', `writing "${encoding}" is not supported here`)
  const table = singleByteTable(encoding)
  const question = 0x3f
  return Uint8Array.from(text, (c) => table.get(c.charCodeAt(0)) ?? question)
}
