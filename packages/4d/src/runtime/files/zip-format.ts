/**
 * @module The bytes of a ZIP archive (PKWARE's APPNOTE.TXT), read and written over node:zlib, for
 * `ZIP Read archive` and `ZIP Create archive` (docs/commands/zip-read-archive.md,
 * zip-create-archive.md; the 4D objects over it are zip-objects.ts). One job: bytes to entries and
 * back, nothing of 4D's.
 *
 * Reading finds the end of central directory record from the end (past a comment), then the
 * central directory, whose sizes it trusts over a local header's (a data descriptor writes them
 * after the data); ZIP64's records and extra field are read, for an archive past 4 GB or 65,535
 * entries. Names are UTF-8 when flag bit 11 says so, Info-ZIP's Unicode path field gives them
 * or their bytes are UTF-8, CP437 otherwise. Folders are the entries whose names end in `/`; the folders a path implies are
 * the reader's to make. An entry's bytes are inflated when asked (stored, method 0, or deflated,
 * 8; LZMA, bzip2 and encrypted entries are refused), bounded: a declared size above
 * MAX_ENTRY_SIZE, inflated bytes of another size than declared, or a wrong CRC-32 are refused,
 * so that a zip bomb costs no more memory than the bound.
 *
 * Writing puts each entry's local header and data, then the central directory and the end
 * record, sizes known in advance (no data descriptor); names are UTF-8 (flag bit 11 when they
 * are not ASCII); times are the MS-DOS local date and time of the entry's modification. An entry
 * that needs ZIP64 (4 GB, 65,535 entries) is refused rather than written.
 */
import type * as Zlib from 'node:zlib'
import { nodeBuiltin } from '../platform/node-builtins.js'

/** What is wrong with an archive or an entry: the caller says which file, this says why. */
export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError'
}

/** Node's zlib, asked for at the first archive: a page has none, and says so (issue 81). */
function zlib(): typeof Zlib {
  const z = nodeBuiltin('node:zlib')
  if (z === undefined)
    throw new ZipFormatError('ZIP archives need node:zlib, which this host lacks')
  return z
}

/** The most bytes one entry may inflate to (a zip bomb is refused before inflating). */
export const MAX_ENTRY_SIZE = 256 * 1024 * 1024

export interface ZipEntry {
  /** The name as stored: names separated by `/`, a folder's ending with `/`. */
  readonly name: string
  readonly folder: boolean
  /** Epoch milliseconds, from the MS-DOS local date and time. */
  readonly modified: number
  /** The uncompressed size the archive declares. */
  readonly size: number
  readonly encrypted: boolean
  /** The entry's bytes, inflated and checked (ZipFormatError for what cannot be). */
  read(): Uint8Array
}

/** An entry to write: a folder has no bytes; `level` 0 stores, 1 to 9 deflates (zlib's). */
export interface ZipInput {
  readonly name: string
  readonly bytes?: Uint8Array
  readonly modified: number
  readonly level: number
}

const SIG = {
  local: 0x04034b50,
  central: 0x02014b50,
  end: 0x06054b50,
  end64: 0x06064b50,
  locator64: 0x07064b50,
} as const
const STORED = 0
const DEFLATED = 8
const FLAG_ENCRYPTED = 0x0001
const FLAG_UTF8 = 0x0800
const MAX16 = 0xffff
const MAX32 = 0xffffffff

// CP437's characters 128 to 255: the names of an archive whose flag does not say UTF-8.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0'

const cp437 = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => (b < 128 ? String.fromCharCode(b) : CP437_HIGH[b - 128]!)).join('')

const utf8 = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes)

/** The little-endian fields of `bytes`, each read checked against its end. */
class Reader {
  readonly view: DataView
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  private within(at: number, length: number): void {
    if (at < 0 || at + length > this.bytes.length)
      throw new ZipFormatError('the archive is truncated or damaged')
  }
  u16(at: number): number {
    this.within(at, 2)
    return this.view.getUint16(at, true)
  }
  u32(at: number): number {
    this.within(at, 4)
    return this.view.getUint32(at, true)
  }
  u64(at: number): number {
    this.within(at, 8)
    return Number(this.view.getBigUint64(at, true))
  }
  slice(at: number, length: number): Uint8Array {
    this.within(at, length)
    return this.bytes.subarray(at, at + length)
  }
}

interface Directory {
  readonly count: number
  readonly offset: number
}

/** The end of central directory record, searched backwards past a comment of up to 64 KB. */
function findDirectory(r: Reader): Directory {
  const last = r.bytes.length - 22
  for (let at = last; at >= Math.max(0, last - MAX16); at--) {
    if (r.view.getUint32(at, true) !== SIG.end) continue
    // A signature inside the comment would not end the file with the comment's length.
    if (at + 22 + r.u16(at + 20) !== r.bytes.length) continue
    const count = r.u16(at + 10)
    const offset = r.u32(at + 16)
    // ZIP64 marks its fields 0xFFFF and 0xFFFFFFFF here, and puts its locator just before.
    const zip64 =
      (count === MAX16 || offset === MAX32) && at >= 20 && r.u32(at - 20) === SIG.locator64
    if (zip64) return findDirectory64(r, at - 20)
    if (r.u16(at + 4) !== 0 || r.u16(at + 8) !== count)
      throw new ZipFormatError('archives split over several disks are not supported')
    return { count, offset }
  }
  throw new ZipFormatError('it is not a ZIP archive (no end of central directory)')
}

/** ZIP64's end record, through its locator. */
function findDirectory64(r: Reader, locator: number): Directory {
  const at = r.u64(locator + 8)
  if (r.u32(at) !== SIG.end64) throw new ZipFormatError('the ZIP64 end record is damaged')
  return { count: r.u64(at + 32), offset: r.u64(at + 48) }
}

/**
 * The name of a central entry: UTF-8 by its flag or by Info-ZIP's Unicode path field (0x7075);
 * else UTF-8 still when its bytes are (Info-ZIP's zip on Unix writes them so, flag unset, and
 * libzip, which 4D zips with, guesses the same way), CP437 otherwise.
 */
function entryName(raw: Uint8Array, flags: number, extras: Map<number, Uint8Array>): string {
  if (flags & FLAG_UTF8) return utf8(raw)
  const unicode = extras.get(0x7075)
  // Version 1, then the CRC-32 of the header's name it stands for: a stale one is ignored.
  if (unicode !== undefined && unicode.length > 5 && unicode[0] === 1) {
    const view = new DataView(unicode.buffer, unicode.byteOffset, unicode.byteLength)
    if (view.getUint32(1, true) === zlib().crc32(raw)) return utf8(unicode.subarray(5))
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw)
  } catch {
    return cp437(raw)
  }
}

function extraFields(bytes: Uint8Array): Map<number, Uint8Array> {
  const fields = new Map<number, Uint8Array>()
  const r = new Reader(bytes)
  for (let at = 0; at + 4 <= bytes.length;) {
    const size = r.u16(at + 2)
    fields.set(r.u16(at), bytes.subarray(at + 4, Math.min(bytes.length, at + 4 + size)))
    at += 4 + size
  }
  return fields
}

function dosTime(time: number, date: number): number {
  const d = new Date(
    1980 + (date >> 9),
    ((date >> 5) & 15) - 1,
    date & 31,
    time >> 11,
    (time >> 5) & 63,
    (time & 31) * 2,
  )
  return date === 0 || Number.isNaN(d.getTime()) ? new Date(1980, 0, 1).getTime() : d.getTime()
}

/** The entries of an archive, in the order of its central directory. */
export function readZip(bytes: Uint8Array): ZipEntry[] {
  const r = new Reader(bytes)
  if (bytes.length < 22) throw new ZipFormatError('it is not a ZIP archive (too short)')
  const { count, offset } = findDirectory(r)
  const entries: ZipEntry[] = []
  let at = offset
  for (let i = 0; i < count; i++) {
    if (r.u32(at) !== SIG.central) throw new ZipFormatError('the central directory is damaged')
    const flags = r.u16(at + 8)
    const nameLength = r.u16(at + 28)
    const extraLength = r.u16(at + 30)
    const raw = r.slice(at + 46, nameLength)
    const extras = extraFields(r.slice(at + 46 + nameLength, extraLength))
    const fields = {
      method: r.u16(at + 10),
      crc: r.u32(at + 16),
      compressed: r.u32(at + 20),
      size: r.u32(at + 24),
      local: r.u32(at + 42),
    }
    // ZIP64's field holds, in this order, those of the three that are 0xFFFFFFFF here.
    const zip64 = extras.get(0x0001)
    if (zip64 !== undefined) {
      const z = new Reader(zip64)
      let next = 0
      for (const key of ['size', 'compressed', 'local'] as const) {
        if (fields[key] !== MAX32) continue
        fields[key] = z.u64(next)
        next += 8
      }
    }
    const name = entryName(raw, flags, extras)
    entries.push({
      name,
      folder: name.endsWith('/'),
      modified: dosTime(r.u16(at + 12), r.u16(at + 14)),
      size: fields.size,
      encrypted: (flags & FLAG_ENCRYPTED) !== 0,
      read: () => inflate(r, name, flags, fields),
    })
    at += 46 + nameLength + extraLength + r.u16(at + 32)
  }
  return entries
}

interface Fields {
  readonly method: number
  readonly crc: number
  readonly compressed: number
  readonly size: number
  readonly local: number
}

/** An entry's bytes: from its local header, inflated within its declared size, CRC checked. */
function inflate(r: Reader, name: string, flags: number, f: Fields): Uint8Array {
  if (flags & FLAG_ENCRYPTED)
    throw new ZipFormatError(`"${name}" is encrypted: password-protected entries are not read here`)
  if (f.size > MAX_ENTRY_SIZE)
    throw new ZipFormatError(
      `"${name}" declares ${f.size} bytes, above the ${MAX_ENTRY_SIZE} bytes an entry may have`,
    )
  if (r.u32(f.local) !== SIG.local) throw new ZipFormatError(`the header of "${name}" is damaged`)
  const data = r.slice(f.local + 30 + r.u16(f.local + 26) + r.u16(f.local + 28), f.compressed)
  let out: Uint8Array
  if (f.method === STORED) out = new Uint8Array(data)
  else if (f.method === DEFLATED) {
    try {
      // The bound: inflating stops at the declared size, one byte more proving it a lie.
      out = new Uint8Array(zlib().inflateRawSync(data, { maxOutputLength: f.size + 1 }))
    } catch {
      throw new ZipFormatError(`"${name}" inflates past its declared size or is damaged`)
    }
  } else
    throw new ZipFormatError(
      `"${name}" is compressed with method ${f.method}: only stored (0) and deflate (8) are read here`,
    )
  if (out.length !== f.size)
    throw new ZipFormatError(`"${name}" holds ${out.length} bytes, not the ${f.size} it declares`)
  if (zlib().crc32(out) !== f.crc) throw new ZipFormatError(`"${name}" fails its CRC-32 check`)
  return out
}

/**
 * The names of an entry's path as a reader shows them: split on `/`, empty names and `.` left
 * out. Nothing is refused here: listing an archive is harmless; writing it out is not
 * (safeEntryNames).
 */
export const entryNames = (name: string): string[] =>
  name.split('/').filter((n) => n !== '' && n !== '.')

/**
 * The names of an entry's path for writing it out under a folder, or a ZipFormatError for a path
 * that would leave that folder ("zip slip"): absolute (`/x`, `\x`, `C:x`), or with a `..` (also
 * between backslashes, which Windows takes as separators), or a NUL.
 */
export function safeEntryNames(name: string): string[] {
  if (/^([/\\]|[A-Za-z]:)/.test(name) || name.includes('\0'))
    throw new ZipFormatError(`the entry "${name}" has an absolute path`)
  const names = entryNames(name)
  if (names.some((n) => n.split('\\').includes('..')))
    throw new ZipFormatError(`the entry "${name}" leaves its folder ("..")`)
  return names
}

/** Little-endian fields and byte runs, joined once at the end. */
class Writer {
  private readonly parts: Uint8Array[] = []
  private pending: number[] = []
  length = 0

  u16(v: number): this {
    this.pending.push(v & 0xff, (v >>> 8) & 0xff)
    this.length += 2
    return this
  }
  u32(v: number): this {
    this.pending.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff)
    this.length += 4
    return this
  }
  bytes(b: Uint8Array): this {
    this.flush()
    this.parts.push(b)
    this.length += b.length
    return this
  }
  private flush(): void {
    if (this.pending.length > 0) this.parts.push(Uint8Array.from(this.pending))
    this.pending = []
  }
  result(): Uint8Array {
    this.flush()
    const out = new Uint8Array(this.length)
    let at = 0
    for (const part of this.parts) {
      out.set(part, at)
      at += part.length
    }
    return out
  }
}

/** MS-DOS's local time and date of epoch milliseconds, 1980 at the earliest. */
function toDos(ms: number): { time: number; date: number } {
  const d = new Date(Math.max(ms, new Date(1980, 0, 1).getTime()))
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((Math.min(d.getFullYear(), 2107) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  }
}

// Unix's mode in the high half of the external attributes ("made by" Unix): what unzip restores.
const MADE_BY_UNIX = (3 << 8) | 20
const FOLDER_ATTRIBUTES = ((0o40755 << 16) | 0x10) >>> 0
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0

/** An archive of `inputs`, in their order; a name given twice is refused. */
export function writeZip(inputs: readonly ZipInput[]): Uint8Array {
  if (inputs.length >= MAX16) throw new ZipFormatError('too many entries: ZIP64 is not written')
  const seen = new Set<string>()
  const out = new Writer()
  const central = new Writer()
  for (const input of inputs) {
    if (seen.has(input.name)) throw new ZipFormatError(`"${input.name}" is given twice`)
    seen.add(input.name)
    const name = new TextEncoder().encode(input.name)
    const bytes = input.bytes ?? new Uint8Array(0)
    const deflated =
      input.level > 0 && bytes.length > 0
        ? zlib().deflateRawSync(bytes, { level: input.level })
        : undefined
    // A deflated entry no smaller than its bytes is stored, as zip does.
    const deflate = deflated !== undefined && deflated.length < bytes.length
    const data = deflate ? new Uint8Array(deflated) : bytes
    if (bytes.length >= MAX32 || out.length + data.length >= MAX32)
      throw new ZipFormatError('the archive would pass 4 GB: ZIP64 is not written')
    const flags = /^[\x20-\x7e]*$/.test(input.name) ? 0 : FLAG_UTF8
    const { time, date } = toDos(input.modified)
    const crc = zlib().crc32(bytes)
    const offset = out.length
    const common = (w: Writer): Writer =>
      w
        .u16(20)
        .u16(flags)
        .u16(deflate ? DEFLATED : STORED)
        .u16(time)
        .u16(date)
        .u32(crc)
        .u32(data.length)
        .u32(bytes.length)
        .u16(name.length)
        .u16(0)
    common(out.u32(SIG.local)).bytes(name).bytes(data)
    common(central.u32(SIG.central).u16(MADE_BY_UNIX))
      .u16(0) // comment
      .u16(0) // disk
      .u16(0) // internal attributes
      .u32(input.bytes === undefined ? FOLDER_ATTRIBUTES : FILE_ATTRIBUTES)
      .u32(offset)
      .bytes(name)
  }
  const directory = central.result()
  const start = out.length
  out.bytes(directory)
  out.u32(SIG.end).u16(0).u16(0).u16(inputs.length).u16(inputs.length)
  out.u32(directory.length).u32(start).u16(0)
  return out.result()
}
