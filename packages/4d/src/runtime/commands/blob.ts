/**
 * @module The BLOB theme's commands server code uses (docs/commands-legacy/*.md): `BLOB size`,
 * `SET BLOB SIZE`, `INSERT IN BLOB`, `DELETE FROM BLOB`, `COPY BLOB`, `TEXT TO BLOB` and
 * `BLOB to text`, `INTEGER`/`LONGINT`/`REAL TO BLOB` and `BLOB to integer`/`longint`/`real`, and
 * `Convert to text` and `CONVERT FROM TEXT` (charsets.ts).
 *
 * A command that alters a BLOB takes a BLOB variable (an OutParameter, arguments/out-parameter.ts) and
 * assigns it new bytes (a BLOB is never changed in place: values/blob-object.ts); given a 4D.Blob it
 * raises 9415, as dt_blob.md says those commands "do not support the 4D.Blob type". The reading
 * commands take either BLOB. An `offset` is a variable the command advances by the bytes it read
 * or wrote; `*` appends. "Native" byte ordering and real format are little-endian (the
 * processors 4D runs on: Intel and Apple silicon); the 10-byte Extended real format is refused.
 * Reading past the end of a BLOB, which the pages call "unpredictable", raises 9415.
 *
 * The budget (context/budget.ts): a conversion between text and bytes counts each piece it
 * converts (charsets.ts); a command that copies bytes (one native copy of up to the bound of a
 * BLOB's size, tens of milliseconds) counts them before it starts.
 */
import { BlobObject, blobBytes, blobObject } from '../values/blob-object.js'
import {
  integerArg,
  invalid,
  numberArg,
  optionalInteger,
  textArg,
  withoutStar,
  wrongType,
} from '../arguments/arguments.js'
import { charsetOf, decodeText, encodeText } from '../arguments/charsets.js'
import { spend, type Passes } from '../values/passes.js'
import { isOutParameter, outArg, type OutParameter } from '../arguments/out-parameter.js'
import type { CommandSpec } from './table.js'
import { withinLimit } from '../values/limits.js'

/** A BLOB argument a command reads: either BLOB's bytes (the variable's, given one). */
function bytesArg(command: string, v: unknown): Uint8Array {
  const value = isOutParameter(v) ? v.get() : v
  return blobBytes(value) ?? wrongType(command, 'blob', 'a BLOB', value)
}

/** The BLOB variable a command alters, and its bytes (Undefined, a new variable, is empty). */
function blobVariable(command: string, v: unknown): [OutParameter, Uint8Array] {
  const target = outArg(command, 'blob', v)
  const held = target.get()
  if (held === undefined) return [target, new Uint8Array(0)]
  if (held instanceof Uint8Array) return [target, held]
  if (held instanceof BlobObject)
    return invalid(command, 'blob', 'a BLOB variable is expected, not a 4D.Blob (not alterable)')
  return wrongType(command, 'blob', 'a BLOB', held)
}

/** A BLOB made from what the variable had: `size` bytes, the first ones copied, zeros after. */
function resized(bytes: Uint8Array, size: number, filler = 0): Uint8Array {
  const out = new Uint8Array(withinLimit('blobBytes', 'A BLOB', size))
  out.set(bytes.subarray(0, size))
  if (size > bytes.length) out.fill(filler, bytes.length)
  return out
}

function position(command: string, parameter: string, v: unknown, max: number): number {
  const at = integerArg(command, parameter, v)
  if (at < 0 || at > max) return invalid(command, parameter, `${at} is outside 0 to ${max}`)
  return at
}

/**
 * Writes `bytes` into a BLOB variable as the TO BLOB commands do (text-to-blob.md): with `*`
 * appended; at an offset variable's place, the BLOB grown (zeros) as needed and the offset
 * advanced; else in place of the whole BLOB.
 */
function writeBytes(command: string, all: readonly unknown[], bytes: Uint8Array): void {
  const { args, star } = withoutStar(all)
  const [target, held] = blobVariable(command, args[1])
  if (star) return target.set(concat(held, bytes))
  if (args[3] === undefined) return target.set(bytes)
  const offset = outArg(command, 'offset', args[3])
  const at = integerArg(command, 'offset', offset.get())
  if (at < 0) return invalid(command, 'offset', `${at} is negative`)
  const out = resized(held, Math.max(held.length, at + bytes.length))
  out.set(bytes, at)
  target.set(out)
  offset.set(at + bytes.length)
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Reads `size` bytes at the offset variable's place (0 without one), and advances it. */
function readBytes(
  command: string,
  bytes: Uint8Array,
  offsetArg: unknown,
  size: (at: number) => number,
): Uint8Array {
  const offset = offsetArg === undefined ? undefined : outArg(command, 'offset', offsetArg)
  const at = offset === undefined ? 0 : integerArg(command, 'offset', offset.get())
  const n = at < 0 || at > bytes.length ? -1 : size(at)
  if (n < 0 || at + n > bytes.length)
    return invalid(
      command,
      'offset',
      `${at} reads past the end of the BLOB (${bytes.length} bytes)`,
    )
  offset?.set(at + n)
  return bytes.subarray(at, at + n)
}

// ---- Numbers ----

const BYTE_ORDERS: Readonly<Record<number, boolean>> = { 0: true, 1: false, 2: true }
const REAL_FORMATS: Readonly<Record<number, boolean>> = { 0: true, 2: false, 3: true }

/** Whether the byte order (or real format) given is little-endian; one not listed raises. */
function littleEndian(
  command: string,
  parameter: string,
  v: unknown,
  table: Readonly<Record<number, boolean>>,
): boolean {
  const code = integerArg(command, parameter, v)
  return table[code] ?? invalid(command, parameter, `${code} is not a format supported here`)
}

type NumberFormat = {
  readonly size: number
  readonly parameter: 'byteOrder' | 'realFormat'
  readonly formats: Readonly<Record<number, boolean>>
  readonly write: (view: DataView, value: number, little: boolean) => void
  readonly read: (view: DataView, little: boolean) => number
}

const INTEGER: NumberFormat = {
  size: 2,
  parameter: 'byteOrder',
  formats: BYTE_ORDERS,
  write: (view, v, little) => view.setInt16(0, v, little),
  read: (view, little) => view.getInt16(0, little),
}
const LONGINT: NumberFormat = {
  size: 4,
  parameter: 'byteOrder',
  formats: BYTE_ORDERS,
  write: (view, v, little) => view.setInt32(0, v, little),
  read: (view, little) => view.getInt32(0, little),
}
const REAL: NumberFormat = {
  size: 8,
  parameter: 'realFormat',
  formats: REAL_FORMATS,
  write: (view, v, little) => view.setFloat64(0, v, little),
  read: (view, little) => view.getFloat64(0, little),
}

function numberToBlob(command: string, format: NumberFormat, all: readonly unknown[]): void {
  const { args } = withoutStar(all)
  const value =
    format === REAL ? numberArg(command, 'real', args[0]) : integerArg(command, 'value', args[0])
  const little = littleEndian(command, format.parameter, args[2], format.formats)
  const bytes = new Uint8Array(format.size)
  format.write(new DataView(bytes.buffer), value, little)
  writeBytes(command, all, bytes)
}

function blobToNumber(command: string, format: NumberFormat, args: readonly unknown[]): number {
  const little = littleEndian(command, format.parameter, args[1], format.formats)
  const read = readBytes(command, bytesArg(command, args[0]), args[2], () => format.size)
  return format.read(new DataView(read.buffer, read.byteOffset, read.length), little)
}

const numberCommands = (
  format: NumberFormat,
  write: [number, string, string],
  read: [number, string, string],
): CommandSpec[] => [
  {
    number: write[0],
    name: write[1],
    signature: `(${write[2]}: Real; blob: any; ${format.parameter}: Integer; offsetOrStar?: any)`,
    writes: [1, 3],
    impl: (_rt, ...all) => numberToBlob(write[1], format, all),
  },
  {
    number: read[0],
    name: read[1],
    signature: `(blob: any; ${format.parameter}: Integer; offset?: any): ${read[2]}`,
    writes: [2],
    impl: (_rt, ...args) => blobToNumber(read[1], format, args),
  },
]

// ---- Texts ----

const MAC = 'macintosh'

/** The text formats of TEXT TO BLOB (text-to-blob.md): set, and the length written before. */
const TEXT_FORMATS: Readonly<Record<number, { charset: string; prefix: 0 | 1 | 2 | 4 | 'C' }>> = {
  0: { charset: MAC, prefix: 'C' },
  1: { charset: MAC, prefix: 1 },
  2: { charset: MAC, prefix: 2 },
  3: { charset: MAC, prefix: 0 },
  4: { charset: 'utf-8', prefix: 'C' },
  5: { charset: 'utf-8', prefix: 4 },
  6: { charset: 'utf-8', prefix: 0 },
}

function textFormat(command: string, v: unknown) {
  const code = v === undefined ? 0 : integerArg(command, 'textFormat', v)
  return TEXT_FORMATS[code] ?? invalid(command, 'textFormat', `${code} is not a text format`)
}

function textToBytes(rt: Passes, text: string, format: (typeof TEXT_FORMATS)[number]): Uint8Array {
  let body = encodeText('TEXT TO BLOB', text, format.charset, rt)
  const { prefix } = format
  if (prefix === 'C') return concat(body, new Uint8Array(1))
  if (prefix === 0) return body
  // A Pascal string holds 255 bytes at most.
  if (prefix === 1) body = body.subarray(0, 255)
  const head = new Uint8Array(prefix)
  const view = new DataView(head.buffer)
  if (prefix === 1) view.setUint8(0, body.length)
  else if (prefix === 2) view.setUint16(0, body.length)
  else view.setUint32(0, body.length)
  return concat(head, body)
}

function blobToText(rt: Passes, args: readonly unknown[]): string {
  const command = 'BLOB to text'
  const bytes = bytesArg(command, args[0])
  const format = textFormat(command, args[1])
  const { prefix, charset } = format
  if (prefix === 'C') {
    const text = readBytes(command, bytes, args[2], (at) => {
      const end = bytes.indexOf(0, at)
      return end < 0 ? bytes.length - at : end - at + 1
    })
    const end = text.indexOf(0)
    return decodeText(end < 0 ? text : text.subarray(0, end), charset, rt)
  }
  if (prefix !== 0) {
    const read = readBytes(command, bytes, args[2], (at) => {
      if (at + prefix > bytes.length) return -1
      const view = new DataView(bytes.buffer, bytes.byteOffset + at, prefix)
      const n =
        prefix === 1 ? view.getUint8(0) : prefix === 2 ? view.getUint16(0) : view.getUint32(0)
      return prefix + n
    })
    return decodeText(read.subarray(prefix), charset, rt)
  }
  // Without length: `textLength` characters, or the rest of the BLOB.
  const length = args[3] === undefined ? undefined : integerArg(command, 'textLength', args[3])
  const read = readBytes(command, bytes, args[2], (at) => {
    if (length === undefined) return bytes.length - at
    const text = decodeText(bytes.subarray(at), charset, rt).slice(0, Math.max(0, length))
    return encodeText(command, text, charset, rt).length
  })
  return decodeText(read, charset, rt)
}

/** Assigns bytes made anew to a variable: a 4D.Blob to one that holds an object or Null. */
function putBlob(target: OutParameter, bytes: Uint8Array): void {
  const held = target.get()
  target.set(held === null || held instanceof BlobObject ? blobObject(bytes) : bytes)
}

export const BLOB_COMMANDS: readonly CommandSpec[] = [
  {
    number: 605,
    name: 'BLOB size',
    signature: '(blob: any): Integer',
    impl: (_rt, blob) => bytesArg('BLOB size', blob).length,
  },
  {
    number: 606,
    name: 'SET BLOB SIZE',
    signature: '(blob: any; size: Integer; filler?: Integer)',
    writes: [0],
    impl: (rt, blob, size, filler) => {
      const [target, held] = blobVariable('SET BLOB SIZE', blob)
      const n = integerArg('SET BLOB SIZE', 'size', size)
      if (n < 0) return invalid('SET BLOB SIZE', 'size', `${n} is negative`)
      spend(rt, n)
      target.set(resized(held, n, optionalInteger('SET BLOB SIZE', 'filler', filler, 0)))
    },
  },
  {
    number: 559,
    name: 'INSERT IN BLOB',
    signature: '(blob: any; offset: Integer; len: Integer; filler?: Integer)',
    writes: [0],
    impl: (rt, blob, offset, len, filler) => {
      const command = 'INSERT IN BLOB'
      const [target, held] = blobVariable(command, blob)
      const at = position(command, 'offset', offset, held.length)
      const n = position(command, 'len', len, 0x7fffffff)
      spend(rt, held.length + n)
      const out = new Uint8Array(held.length + n)
      out.set(held.subarray(0, at))
      out.fill(optionalInteger(command, 'filler', filler, 0), at, at + n)
      out.set(held.subarray(at), at + n)
      target.set(out)
    },
  },
  {
    number: 560,
    name: 'DELETE FROM BLOB',
    signature: '(blob: any; offset: Integer; len: Integer)',
    writes: [0],
    impl: (rt, blob, offset, len) => {
      const command = 'DELETE FROM BLOB'
      const [target, held] = blobVariable(command, blob)
      spend(rt, held.length)
      const at = position(command, 'offset', offset, held.length)
      const n = position(command, 'len', len, held.length - at)
      target.set(concat(held.subarray(0, at), held.subarray(at + n)))
    },
  },
  {
    number: 558,
    name: 'COPY BLOB',
    signature: '(srcBLOB: any; dstBLOB: any; srcOffset: Integer; dstOffset: Integer; len: Integer)',
    writes: [1],
    impl: (rt, src, dst, srcOffset, dstOffset, len) => {
      const command = 'COPY BLOB'
      const from = bytesArg(command, src)
      const [target, held] = blobVariable(command, dst)
      const at = position(command, 'srcOffset', srcOffset, from.length)
      const n = position(command, 'len', len, from.length - at)
      const to = position(command, 'dstOffset', dstOffset, 0x7fffffff)
      spend(rt, Math.max(held.length, to + n))
      const out = resized(held, Math.max(held.length, to + n))
      out.set(from.subarray(at, at + n), to)
      target.set(out)
    },
  },
  {
    number: 554,
    name: 'TEXT TO BLOB',
    signature: '(text: Text; blob: any; textFormat?: Integer; offsetOrStar?: any)',
    writes: [1, 3],
    impl: (rt, ...all) => {
      const { args } = withoutStar(all)
      const text = textArg('TEXT TO BLOB', 'text', args[0])
      writeBytes('TEXT TO BLOB', all, textToBytes(rt, text, textFormat('TEXT TO BLOB', args[2])))
    },
  },
  {
    number: 555,
    name: 'BLOB to text',
    signature: '(blob: any; textFormat: Integer; offset?: any; textLength?: Integer): Text',
    writes: [2],
    impl: (rt, ...args) => blobToText(rt, args),
  },
  ...numberCommands(
    INTEGER,
    [548, 'INTEGER TO BLOB', 'integer'],
    [549, 'BLOB to integer', 'Integer'],
  ),
  ...numberCommands(
    LONGINT,
    [550, 'LONGINT TO BLOB', 'longint'],
    [551, 'BLOB to longint', 'Integer'],
  ),
  ...numberCommands(REAL, [552, 'REAL TO BLOB', 'real'], [553, 'BLOB to real', 'Real']),
  {
    number: 1012,
    name: 'Convert to text',
    signature: '(blob: any; charSet: any): Text',
    impl: (rt, blob, charSet) =>
      decodeText(bytesArg('Convert to text', blob), charsetOf('Convert to text', charSet), rt),
  },
  {
    number: 1011,
    name: 'CONVERT FROM TEXT',
    signature: '(text: Text; charSet: any; convertedBLOB: any)',
    writes: [2],
    impl: (rt, text, charSet, blob) => {
      const command = 'CONVERT FROM TEXT'
      const charset = charsetOf(command, charSet)
      const bytes = encodeText(command, textArg(command, 'text', text), charset, rt)
      putBlob(outArg(command, 'convertedBLOB', blob), bytes)
    },
  },
]
