/**
 * @module Texts as bytes in a character set, for `Convert to text`, `CONVERT FROM TEXT`
 * (docs/commands-legacy/convert-to-text.md, convert-from-text.md) and the Mac formats of `TEXT TO
 * BLOB`/`BLOB to text` (Mac Roman). A set is named as 4D takes it, by its name ("UTF-8",
 * "ISO-8859-1", "windows-1252", "macintosh"…: what Node's TextDecoder knows) or by its MIBEnum
 * number (106 UTF-8, 4 ISO-8859-1…). Decoding is TextDecoder's; encoding is UTF-8 and UTF-16 by
 * hand and, for a set of one byte a character, the table TextDecoder gives read backwards, a
 * character the set does not have written `?` (as 4D's conversions replace it).
 *
 * A long text or BLOB is converted a piece at a time (64K bytes or characters, never between the
 * two halves of a surrogate pair; TextDecoder carries a character cut between two pieces over),
 * each piece counted as passes of the budget's (context/budget.ts) before it is converted: a
 * conversion of hundreds of megabytes ends at the budget with 9410. The work gives way between two
 * pieces (`decodeWork`, `encodeWork`: values/resumable.ts), where a call in slices may stop.
 */
import { spend, UNCOUNTED, type Passes } from '../values/passes.js'
import type { Work } from '../values/work.js'
import {
  inPieces,
  madeAll,
  madeSteps,
  settled,
  type Made,
  type Resumable,
} from '../values/resumable.js'
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
const PIECE = 1 << 16

/** `bytes` read in the set `encoding` (TextDecoder's name). */
export function decodeText(bytes: Uint8Array, encoding: string, rt: Passes = UNCOUNTED): string {
  if (bytes.length <= PIECE) {
    spend(rt, bytes.length)
    return new TextDecoder(encoding).decode(bytes)
  }
  return madeAll(decodeWork(bytes, encoding), rt)
}

/** `decodeText` as steps (values/work.ts): a piece between two stops. */
export function decodeSteps(
  bytes: Uint8Array,
  encoding: string,
  rt: Passes = UNCOUNTED,
): Work<string> {
  return madeSteps(decodeWork(bytes, encoding), rt)
}

/** `bytes` read in the set `encoding`, the work a piece at a time (values/resumable.ts). */
export function decodeWork(bytes: Uint8Array, encoding: string): [Made<string>, Resumable] {
  const decoder = new TextDecoder(encoding)
  const text = { value: '' }
  const pieces = inPieces(
    bytes.length,
    (from) => Math.min(from + PIECE, bytes.length),
    (from, to) => {
      text.value += decoder.decode(bytes.subarray(from, to), { stream: true })
    },
  )
  const work: Resumable = (rt) => {
    if (!pieces(rt)) return false
    text.value += decoder.decode()
    return true
  }
  return [text, settled(work)]
}

/**
 * `encode` of each piece of `text` (never ending between the two halves of a pair), joined, the
 * work a piece at a time (values/resumable.ts).
 */
function encodedPieces(
  text: string,
  encode: (piece: string) => Uint8Array,
): [Made<Uint8Array>, Resumable] {
  const made: Made<Uint8Array> = { value: new Uint8Array(0) }
  const parts: Uint8Array[] = []
  const cut = (from: number): number => {
    const to = Math.min(from + PIECE, text.length)
    const last = text.charCodeAt(to - 1)
    return to < text.length && last >= 0xd800 && last <= 0xdbff ? to - 1 : to
  }
  const pieces = inPieces(text.length, cut, (from, to) => {
    parts.push(encode(text.slice(from, to)))
  })
  const work: Resumable = (rt) => {
    if (!pieces(rt)) return false
    made.value = parts.length === 1 ? parts[0]! : joined(parts)
    return true
  }
  return [made, settled(work)]
}

function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

const singleByteTables = new Map<string, Int16Array>()

/**
 * A set of one byte a character: the byte of each UTF-16 code (-1 for none), read from
 * TextDecoder's table (the lowest byte, for a character two bytes give).
 */
function singleByteTable(encoding: string): Int16Array {
  let table = singleByteTables.get(encoding)
  if (table === undefined) {
    table = new Int16Array(0x10000).fill(-1)
    const decoder = new TextDecoder(encoding)
    for (let b = 255; b >= 0; b--) table[decoder.decode(new Uint8Array([b])).charCodeAt(0)] = b
    singleByteTables.set(encoding, table)
  }
  return table
}

const QUESTION = 0x3f

/**
 * `text` in a set of one byte a character: a character the set does not have is `?`, once for
 * the two halves of a pair (a character outside the Basic Multilingual Plane).
 */
function singleBytes(text: string, table: Int16Array): Uint8Array {
  const out = new Uint8Array(text.length)
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    const b = table[c]!
    out[n++] = b < 0 ? QUESTION : b
  }
  return n === out.length ? out : out.slice(0, n)
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
  const encode = encoderOf(command, encoding)
  if (text.length <= PIECE) {
    spend(rt, text.length)
    return encode(text)
  }
  return madeAll(encodedPieces(text, encode), rt)
}

/** `encodeText` as steps (values/work.ts): a piece between two stops. */
export function encodeSteps(
  command: string,
  text: string,
  encoding: string,
  rt: Passes = UNCOUNTED,
): Work<Uint8Array> {
  return madeSteps(encodeWork(command, text, encoding), rt)
}

/** `text` as bytes in the set `encoding`, the work a piece at a time (values/resumable.ts). */
export function encodeWork(
  command: string,
  text: string,
  encoding: string,
): [Made<Uint8Array>, Resumable] {
  return encodedPieces(text, encoderOf(command, encoding))
}

/** What writes a piece of text in the set `encoding`; a set nothing here writes raises 9415. */
function encoderOf(command: string, encoding: string): (piece: string) => Uint8Array {
  if (encoding === 'utf-8') {
    const encoder = new TextEncoder()
    return (p) => encoder.encode(p)
  }
  if (encoding === 'utf-16le') return (p) => utf16(p, true)
  if (encoding === 'utf-16be') return (p) => utf16(p, false)
  if (MULTI_BYTE.has(encoding))
    return invalid(command, 'charSet', `writing "${encoding}" is not supported here`)
  const table = singleByteTable(encoding)
  return (p) => singleBytes(p, table)
}
