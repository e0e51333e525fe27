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
 * converts (charsets.ts), and gives way between two pieces, where a call in slices may stop
 * (values/resumable.ts, values/work.ts), the variable it writes written once it is done; a command
 * that copies bytes (one native copy of up to the bound of a BLOB's size, tens of milliseconds)
 * counts them before it starts.
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
import {
  charsetOf,
  decodeSteps,
  decodeWork,
  encodeSteps,
  encodeWork,
} from '../arguments/charsets.js'
import { spend, type Passes } from '../values/passes.js'
import type { Work } from '../values/work.js'
import { isOutParameter, outArg, type OutParameter } from '../arguments/out-parameter.js'
import { byWork } from './plain-forms.js'
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

/** Where a reading starts: the offset variable's place (0 without one), and the variable. */
function readAt(command: string, offsetArg: unknown): [number, OutParameter | undefined] {
  const offset = offsetArg === undefined ? undefined : outArg(command, 'offset', offsetArg)
  return [offset === undefined ? 0 : integerArg(command, 'offset', offset.get()), offset]
}

/** The `n` bytes at `at` (-1: a place the BLOB does not have); past the end of the BLOB raises. */
function taken(command: string, bytes: Uint8Array, at: number, n: number): Uint8Array {
  if (n < 0 || at + n > bytes.length)
    return invalid(
      command,
      'offset',
      `${at} reads past the end of the BLOB (${bytes.length} bytes)`,
    )
  return bytes.subarray(at, at + n)
}

/** Reads `size` bytes at the offset variable's place (0 without one), and advances it. */
function readBytes(
  command: string,
  bytes: Uint8Array,
  offsetArg: unknown,
  size: (at: number) => number,
): Uint8Array {
  const [at, offset] = readAt(command, offsetArg)
  const read = taken(command, bytes, at, at < 0 || at > bytes.length ? -1 : size(at))
  offset?.set(at + read.length)
  return read
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

/** A text's bytes with what the format writes before or after them. */
function withPrefix(text: Uint8Array, format: (typeof TEXT_FORMATS)[number]): Uint8Array {
  const { prefix } = format
  if (prefix === 'C') return concat(text, new Uint8Array(1))
  if (prefix === 0) return text
  // A Pascal string holds 255 bytes at most.
  const body = prefix === 1 ? text.subarray(0, 255) : text
  const head = new Uint8Array(prefix)
  const view = new DataView(head.buffer)
  if (prefix === 1) view.setUint8(0, body.length)
  else if (prefix === 2) view.setUint16(0, body.length)
  else view.setUint32(0, body.length)
  return concat(head, body)
}

/**
 * `BLOB to text`: the bytes of the text at the offset's place as the format says, read in its
 * set. The offset variable is advanced at the last step.
 */
function* blobToText(rt: Passes, args: readonly unknown[]): Work<string> {
  const command = 'BLOB to text'
  const bytes = bytesArg(command, args[0])
  const { prefix, charset } = textFormat(command, args[1])
  const length =
    prefix !== 0 || args[3] === undefined ? undefined : integerArg(command, 'textLength', args[3])
  const [at, offset] = readAt(command, args[2])
  const n =
    at < 0 || at > bytes.length ? -1 : yield* textSize(rt, bytes, at, prefix, length, charset)
  const read = taken(command, bytes, at, n)
  const zero = prefix === 'C' ? read.indexOf(0) : -1
  const body = prefix === 'C' ? read.subarray(0, zero < 0 ? n : zero) : read.subarray(prefix)
  const text = yield* decodeSteps(body, charset, rt)
  offset?.set(at + n)
  return text
}

/**
 * The bytes `BLOB to text` reads at `at` (-1: a length past the BLOB's end): up to a zero, a
 * length and the bytes it says, or without one `textLength` characters (their bytes found by
 * reading the rest and writing them again) or the rest.
 */
function* textSize(
  rt: Passes,
  bytes: Uint8Array,
  at: number,
  prefix: (typeof TEXT_FORMATS)[number]['prefix'],
  length: number | undefined,
  charset: string,
): Work<number> {
  if (prefix === 'C') {
    const end = bytes.indexOf(0, at)
    return end < 0 ? bytes.length - at : end - at + 1
  }
  if (prefix !== 0) {
    if (at + prefix > bytes.length) return -1
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, prefix)
    return (
      prefix +
      (prefix === 1 ? view.getUint8(0) : prefix === 2 ? view.getUint16(0) : view.getUint32(0))
    )
  }
  if (length === undefined) return bytes.length - at
  const rest = yield* decodeSteps(bytes.subarray(at), charset, rt)
  return (yield* encodeSteps('BLOB to text', rest.slice(0, Math.max(0, length)), charset, rt))
    .length
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
    ...byWork((_rt, ...all) => {
      const { args } = withoutStar(all)
      const text = textArg('TEXT TO BLOB', 'text', args[0])
      const format = textFormat('TEXT TO BLOB', args[2])
      const [bytes, work] = encodeWork('TEXT TO BLOB', text, format.charset)
      // The BLOB variable is written once the work is done: a call the budget ends leaves it as
      // it was.
      return { work, done: () => writeBytes('TEXT TO BLOB', all, withPrefix(bytes.value, format)) }
    }),
  },
  {
    number: 555,
    name: 'BLOB to text',
    signature: '(blob: any; textFormat: Integer; offset?: any; textLength?: Integer): Text',
    writes: [2],
    steps: (rt, ...args) => blobToText(rt, args),
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
    ...byWork((_rt, blob, charSet) => {
      const bytes = bytesArg('Convert to text', blob)
      const [text, work] = decodeWork(bytes, charsetOf('Convert to text', charSet))
      return { work, done: () => text.value }
    }),
  },
  {
    number: 1011,
    name: 'CONVERT FROM TEXT',
    signature: '(text: Text; charSet: any; convertedBLOB: any)',
    writes: [2],
    ...byWork((_rt, text, charSet, blob) => {
      const command = 'CONVERT FROM TEXT'
      const charset = charsetOf(command, charSet)
      const [bytes, work] = encodeWork(command, textArg(command, 'text', text), charset)
      return { work, done: () => putBlob(outArg(command, 'convertedBLOB', blob), bytes.value) }
    }),
  },
]
