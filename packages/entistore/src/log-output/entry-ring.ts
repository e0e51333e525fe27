/**
 * @module The request log's hand-off from the serving thread to the logging thread: a ring of
 * records in a SharedArrayBuffer, one writer (the serving thread) and one reader (the logging
 * thread, log-thread.ts), no lock and no message. A request's entry goes in as a few numbers and
 * its strings' UTF-16 units copied in place; the reader turns it back into an entry and formats
 * it. Putting an entry in costs the serving thread a copy of its URL and three atomic accesses;
 * making its line (masking the URL, formatting numbers, encoding) and writing it cost the serving
 * thread more than four times that, and a `postMessage` an entry more still (issue 66).
 *
 * Records are of two kinds: a request's entry, and a line of text said on stdout by something
 * else (the URL line, a reload), which goes through the ring so that it keeps its place among the
 * log's lines. A record never wraps around the end: where the next one does not fit, a zero unit
 * sends the reader back to the start. The ring is full when a record does not fit before the
 * reader's position; the writer then says so (`put` answers false) and the caller counts the
 * entry as dropped, so that a logging thread that cannot keep up (an output nobody reads) costs
 * no memory beyond the ring.
 *
 * The shared control words say where each side is and let the reader sleep when no request
 * comes (`SLEEPING`: the writer wakes it once, on its next record), and the serving thread ask the
 * reader to write everything and stop (`STOP`, `DONE`: at the process's exit).
 */
import type { RequestLogEntry } from '../serve/request-log.js'

/**
 * The indexes of the control words (an Int32Array over their own SharedArrayBuffer). The words
 * the serving thread writes and those the reader writes are on cache lines of their own (64
 * bytes apart): the reader's position stored under the serving thread's feet made each of its
 * puts wait for the line to come back from the other core.
 */
export const enum Control {
  /** The writer's position, in units: the next record goes there. */
  WRITE = 0,
  /** Entries the writer dropped because the ring was full, not said yet. */
  DROPPED = 1,
  /** 1 while the reader sleeps until told (Atomics.waitAsync on it): the writer then wakes it. */
  SLEEPING = 2,
  /** 1 once the serving thread asks the reader to write everything and stop. */
  STOP = 3,
  /** Set to 1 (and told) by the serving thread when a line waits that should not wait for the next reading. */
  URGENT = 4,
  /** The reader's position: the next record to read is there. */
  READ = 16,
  /** 1 once the reader has written everything after STOP. */
  DONE = 17,
}
const CONTROL_WORDS = 32

/** The methods read back as the same strings each time (see `method`). */
const METHODS = ['GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']

const ENTRY = 1
const TEXT = 2
/** The units of an entry's record before its strings (see `putEntry`). */
const ENTRY_HEAD = 17
/** A record's length is one unit: no record is longer. */
const MAX_RECORD = 0xffff
/** The longest URL kept (the line cuts it at 500 characters anyway, masked-target.ts). */
const MAX_TARGET = 4096
const MAX_SHORT = 256

/** Whether this machine stores a Uint16Array's units low byte first (x64, arm64; not s390x). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** The two shared buffers of a ring, as handed to the logging thread. */
export interface RingBuffers {
  readonly units: SharedArrayBuffer
  readonly control: SharedArrayBuffer
}

/** A record read back: a request's entry, or a line said on stdout (a string). */
export type RingRecord = RequestLogEntry | string

/**
 * A request's record read in place: its numbers, and where its strings' units are in `units`,
 * so that a line can be made from them without a string or an entry object (plain-line.ts).
 * One view serves every record of a reading: it is valid only in the callback it is handed to.
 */
export class EntryView {
  /** The status sent, 0 for none. */
  status = 0
  ms = 0
  bytes = 0
  complete = false
  /** The method's units are [methodFrom, methodTo), the target's [methodTo, targetTo). */
  methodFrom = 0
  methodTo = 0
  targetTo = 0
  /** The user's units are [targetTo, userTo); -1 when the entry has no user. */
  userTo = -1
  #at = 0

  constructor(
    readonly units: Uint16Array,
    readonly ring: EntryRing,
  ) {}

  /** Reads the record at `at`, ending at `next`. */
  read(at: number, next: number): this {
    const u = this.units
    const flags = u[at + 14]!
    this.#at = at
    this.status = u[at + 13]!
    this.ms = this.ring.getDouble(at + 6)
    this.bytes = u[at + 10]! + u[at + 11]! * 0x10000 + u[at + 12]! * 0x100000000
    this.complete = (flags & 1) === 1
    this.methodFrom = at + ENTRY_HEAD
    this.methodTo = this.methodFrom + u[at + 15]!
    this.targetTo = this.methodTo + u[at + 16]!
    this.userTo = (flags & 2) === 0 ? -1 : next
    return this
  }

  /** The entry itself, its strings decoded. */
  entry(): RequestLogEntry {
    const ring = this.ring
    const status = this.status
    return {
      at: ring.getDouble(this.#at + 2),
      method: ring.method(this.methodFrom, this.methodTo),
      target: ring.string(this.methodTo, this.targetTo),
      status: status === 0 ? undefined : status,
      ms: this.ms,
      bytes: this.bytes,
      user: this.userTo < 0 ? undefined : ring.string(this.targetTo, this.userTo),
      complete: this.complete,
    }
  }
}

export class EntryRing {
  readonly units: Uint16Array
  /** The same units as bytes, to decode a string in one call (`string`). */
  readonly #bytes: Buffer
  readonly control: Int32Array
  readonly #size: number
  // Where the reader was when last looked at: the writer asks again only when that leaves no room.
  #readSeen = 0
  // A double's bits as four units, to move the times through the Uint16Array.
  readonly #double = new Float64Array(1)
  readonly #doubleUnits = new Uint16Array(this.#double.buffer)
  readonly #view: EntryView

  constructor(readonly buffers: RingBuffers) {
    this.units = new Uint16Array(buffers.units)
    this.#bytes = Buffer.from(buffers.units)
    this.control = new Int32Array(buffers.control)
    this.#size = this.units.length
    this.#view = new EntryView(this.units, this)
  }

  /**
   * The fewest units of a ring: however far its reader is, an empty ring takes the longest record
   * (before the end or, skipping the end, before the reader).
   */
  static readonly MIN_UNITS = 2 * MAX_RECORD + 2

  /** A ring of `units` UTF-16 units (2 bytes each). */
  static create(units: number): EntryRing {
    if (units < EntryRing.MIN_UNITS)
      throw new RangeError(`a ring holds at least ${EntryRing.MIN_UNITS} units`)
    return new EntryRing({
      units: new SharedArrayBuffer(units * 2),
      control: new SharedArrayBuffer(CONTROL_WORDS * 4),
    })
  }

  /** Puts a request's entry; false when the ring is full (the entry is not kept). */
  putEntry(e: RequestLogEntry): boolean {
    const method = e.method.length > MAX_SHORT ? e.method.slice(0, MAX_SHORT) : e.method
    const target = e.target.length > MAX_TARGET ? e.target.slice(0, MAX_TARGET) : e.target
    const user =
      e.user === undefined || e.user.length <= MAX_SHORT ? e.user : e.user.slice(0, MAX_SHORT)
    const at = this.#room(
      ENTRY_HEAD + method.length + target.length + (user === undefined ? 0 : user.length),
    )
    if (at < 0) return false
    const u = this.units
    u[at + 1] = ENTRY
    this.#putDouble(at + 2, e.at)
    this.#putDouble(at + 6, e.ms)
    // Bytes up to 2^48 in three units; a status of 0 for none sent.
    u[at + 10] = e.bytes & 0xffff
    u[at + 11] = (e.bytes / 0x10000) & 0xffff
    u[at + 12] = (e.bytes / 0x100000000) & 0xffff
    u[at + 13] = e.status ?? 0
    u[at + 14] = (e.complete ? 1 : 0) | (user === undefined ? 0 : 2)
    u[at + 15] = method.length
    u[at + 16] = target.length
    let p = this.#putString(at + ENTRY_HEAD, method)
    p = this.#putString(p, target)
    if (user !== undefined) p = this.#putString(p, user)
    this.#commit(p)
    return true
  }

  /** Puts a line of text (at most MAX_RECORD - 2 units); false when the ring is full. */
  putText(text: string): boolean {
    const at = this.#room(2 + text.length)
    if (at < 0) return false
    this.units[at + 1] = TEXT
    this.#commit(this.#putString(at + 2, text))
    return true
  }

  /** The longest line `putText` takes. */
  static readonly MAX_TEXT = MAX_RECORD - 2

  /** Reads every record put so far, in order, and frees their room. */
  drain(each: (record: RingRecord) => void): void {
    this.drainInPlace((record) => each(typeof record === 'string' ? record : record.entry()))
  }

  /**
   * Reads every record put so far, in order, and frees their room: a request's as a view of its
   * units (valid in the callback only), a line of text as a string.
   */
  drainInPlace(each: (record: EntryView | string) => void): void {
    const u = this.units
    const control = this.control
    const end = Atomics.load(control, Control.WRITE)
    let at = Atomics.load(control, Control.READ)
    while (at !== end) {
      const length = u[at]!
      if (length === 0) {
        at = 0
        continue
      }
      const next = at + length
      each(u[at + 1] === TEXT ? this.string(at + 2, next) : this.#view.read(at, next))
      at = next
    }
    // The room given back once a reading, not a record at a time (see Control).
    Atomics.store(control, Control.READ, at)
  }

  /** Whether records wait to be read. */
  pending(): boolean {
    return Atomics.load(this.control, Control.WRITE) !== Atomics.load(this.control, Control.READ)
  }

  /**
   * Where a record of `length` units can go, its length written in its first unit; -1 when the
   * ring has no room for it. The end of the ring is skipped (a zero unit) when it is too short.
   */
  #room(length: number): number {
    if (length > MAX_RECORD) return -1
    const write = Atomics.load(this.control, Control.WRITE)
    let at = this.#fit(write, this.#readSeen, length)
    if (at < 0) {
      this.#readSeen = Atomics.load(this.control, Control.READ)
      at = this.#fit(write, this.#readSeen, length)
      if (at < 0) return -1
    }
    if (at !== write) this.units[write] = 0
    this.units[at] = length
    return at
  }

  /**
   * Where a record of `length` units goes with the writer at `write` and the reader at `read`:
   * `write`, or 0 past the end, or -1 for no room. Free: from write to the end, then from the
   * start to read. A unit stays free before read (and at the end, for the zero that sends the
   * reader back), so that a full ring never looks empty (write === read).
   */
  #fit(write: number, read: number, length: number): number {
    if (write < read) return write + length < read ? write : -1
    if (write + length < this.#size) return write
    return length < read ? 0 : -1
  }

  /** Makes the record ending at `next` visible to the reader, and wakes the reader if it sleeps. */
  #commit(next: number): void {
    const control = this.control
    Atomics.store(control, Control.WRITE, next)
    if (Atomics.load(control, Control.SLEEPING) === 1) {
      Atomics.store(control, Control.SLEEPING, 0)
      Atomics.notify(control, Control.SLEEPING)
    }
  }

  #putString(p: number, s: string): number {
    const u = this.units
    for (let i = 0; i < s.length; i++) u[p++] = s.charCodeAt(i)
    return p
  }

  /** The method in units [from, to): one of the usual ones without decoding it, as most are. */
  method(from: number, to: number): string {
    const u = this.units
    for (const method of METHODS) {
      if (method.length !== to - from) continue
      let i = 0
      while (i < method.length && u[from + i] === method.charCodeAt(i)) i++
      if (i === method.length) return method
    }
    return this.string(from, to)
  }

  /** The string in units [from, to). */
  // Decoded by Buffer where the units are little-endian (UTF-16LE): String.fromCharCode over
  // the units took the logging thread two and a half times as long.
  string(from: number, to: number): string {
    if (from === to) return ''
    if (LITTLE_ENDIAN) return this.#bytes.toString('utf16le', from * 2, to * 2)
    return String.fromCharCode.apply(null, this.units.subarray(from, to) as unknown as number[])
  }

  #putDouble(p: number, value: number): void {
    this.#double[0] = value
    const d = this.#doubleUnits
    const u = this.units
    u[p] = d[0]!
    u[p + 1] = d[1]!
    u[p + 2] = d[2]!
    u[p + 3] = d[3]!
  }

  /** The double in the four units at `p`. */
  getDouble(p: number): number {
    const d = this.#doubleUnits
    const u = this.units
    d[0] = u[p]!
    d[1] = u[p + 1]!
    d[2] = u[p + 2]!
    d[3] = u[p + 3]!
    return this.#double[0]!
  }
}
