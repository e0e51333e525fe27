/**
 * @module A JSON text written in pieces: an opening, a long list whose items are rendered only as
 * the pieces are asked for, and a closing. The pieces joined are exactly the text `JSON.stringify`
 * gives for the whole value (when the items' texts are), so no reader can tell how it was produced.
 *
 * Why: a page of 100,000 entities is tens of megabytes of text. Built as one string, every client
 * that reads slowly holds a copy (ten of them once took a server from 185 MB to 1.6 GB). Rendered
 * piece by piece, a transport that waits for the client before asking for the next piece holds one.
 *
 * An item may itself be any size (an entity whose projection writes relations out: reply-parts.ts):
 * it is then given as parts, and a piece can end inside it. Such a reply is measured before it is
 * sent (`measure`), and every reply counts the bytes it hands out against its limit (`limitTo`).
 * A piece of such items also ends with the turn's slice (`SLICE_MS`, shared with every other
 * reply's work: slices/turns.ts; a related entity may read a relation of a whole table:
 * `Company?$attributes=staff.reports.ID` on 100,000 employees once took 440 ms a piece), so that
 * a transport that writes a piece a turn lets others in; the texts of the related entities it
 * wrote are kept for the rows that write them again (`WrittenTexts`).
 *
 * Pieces are asked for after the request's own code has returned (by the transport, as the client
 * reads): a reply made while a session acts (a request's Actor, a function's promotion) is written
 * as that session, whoever asks for its pieces, so that `restrict` and the permissions of the code
 * it runs (a computed attribute) hold in its last piece as in its first.
 */
import { actingNow, datastoreError, runActor } from '@entistore/core'
import { utf8Bytes } from './utf8-bytes.js'
import {
  PartsSize,
  PartsText,
  WrittenTexts,
  type Expand,
  type Part,
  type ReplyLimits,
} from './reply-parts.js'
import { LOOP_CLOCK, type SliceClock } from '../slices/turns.js'

/** The size a piece grows to before it is handed out, in UTF-16 code units. */
export const CHUNK_CHARS = 64 * 1024

/** Runs a piece of a reply's writing: as its actor, where the getters find their answers. */
export type Around = <T>(write: () => T) => T

/** One item's JSON text, its parts (`nested` replies), or undefined to leave it out. */
export type ChunkItem = string | Iterator<Part> | undefined

// The `expand` of a reply whose items are texts: none of its parts is a related entity.
const holdsNone: Expand = () => {
  throw new TypeError('a reply of whole texts has no related entity to write')
}

/** The parts of one text: how a reply's opening, commas and closing are measured. */
function* only(text: string): Generator<Part, void, undefined> {
  yield text
}

export class JsonChunks implements Iterable<string> {
  readonly #open: string
  readonly #count: number
  readonly #render: (index: number) => ChunkItem
  #close: string
  readonly #expand: Expand | undefined
  #next = 0
  #opened = false
  #done = false
  #written = false
  // The item being written when the last piece ended inside it.
  #current: PartsText | undefined
  #bytes = 0
  #limit = Infinity
  // Made with the first item given as parts: a reply of texts has none.
  #texts: WrittenTexts | undefined
  #clock: SliceClock = LOOP_CLOCK
  readonly #release: (() => void) | undefined

  /**
   * `open` and `close` are JSON text around the list (`{"a":1,"list":[` and `]}`); `render(i)`
   * gives the JSON text of the list's item `i` (0 ≤ i < count), its parts, or undefined to leave
   * it out. It must read a snapshot: a piece may be asked for long after the reply was made.
   * `expand` writes the related entities of items given as parts; with it, the reply is `nested`.
   * `release` is called once the reply is done with what `render` reads (all written, cut short,
   * or refused: `release()`). `around` runs each piece of the writing (an item's, a part's): where
   * the getters find their answers made ahead (getters-ahead.ts).
   */
  constructor(
    open: string,
    count: number,
    render: (index: number) => ChunkItem,
    close: string,
    expand?: Expand,
    release?: () => void,
    around?: Around,
  ) {
    this.#open = open
    this.#count = count
    this.#close = close
    this.#release = release
    const actor = actingNow()
    const asActor: Around | undefined = actor && ((write) => runActor(actor, write))
    const within: Around | undefined =
      around === undefined
        ? asActor
        : asActor === undefined
          ? around
          : (w) => asActor(() => around(w))
    this.#render =
      within === undefined
        ? render
        : (index) =>
            inside(
              within,
              within(() => render(index)),
            )
    this.#expand =
      within === undefined || expand === undefined
        ? expand
        : (nested) =>
            inside(
              within,
              within(() => expand(nested)),
            )
  }

  /**
   * Adds `member` (`"name":value`, JSON text) to the object the reply closes, before any piece is
   * handed out: a function's `__WEBFORM` beside the selection it returned.
   */
  addMember(member: string): void {
    if (this.#opened) throw new TypeError('addMember: the reply is already being written')
    const end = this.#close.lastIndexOf('}')
    this.#close = `${this.#close.slice(0, end)},${member}${this.#close.slice(end)}`
  }

  /** Whether every piece has been handed out. */
  get done(): boolean {
    return this.#done
  }

  /**
   * Whether items are written in parts: the reply's size is then not bounded by the rows it reads
   * (it multiplies), so it is measured before it is sent.
   */
  get nested(): boolean {
    return this.#expand !== undefined
  }

  /**
   * The most UTF-8 bytes the pieces may add up to: the piece that passes it throws ReplyTooLarge
   * (9091) instead. Checked before the reply is sent (`measure`, `estimatedBytes`), this only
   * cuts a reply whose data grew meanwhile.
   */
  limitTo(bytes: number): void {
    this.#limit = bytes
  }

  /** The clock that ends a piece of items given as parts (tests: one that counts, not times). */
  sliceBy(clock: SliceClock): void {
    this.#clock = clock
  }

  /**
   * The next piece: at least `CHUNK_CHARS` long unless it is the last, or one of items given as
   * parts that ended with the turn's slice (never empty but for the last). The first holds the
   * opening, the last the closing. '' once done.
   */
  take(): string {
    if (this.#done) return ''
    let piece: string
    try {
      piece = this.#piece()
    } catch (error) {
      this.release()
      throw error
    }
    this.#bytes += utf8Bytes(piece)
    if (this.#bytes > this.#limit) {
      this.release()
      throw tooLarge(`at least ${this.#bytes}`, this.#limit)
    }
    if (this.#done) this.release()
    return piece
  }

  /** Ends the reply: no more pieces, and what its items read is let go. */
  release(): void {
    this.#done = true
    this.#current = undefined
    this.#release?.()
  }

  #piece(): string {
    let out = ''
    if (!this.#opened) {
      this.#opened = true
      out = this.#open
    }
    // Asked between the related entities of items given as parts (a text is as long as its row).
    const clock = this.#clock
    const deadline = clock.deadline()
    const more = (): boolean => clock.now() < deadline
    if (this.#current !== undefined) {
      out = this.#current.take(out, CHUNK_CHARS, more)
      if (!this.#current.done) return out
      this.#current = undefined
      if (out.length > 0 && !more()) return out
    }
    while (this.#next < this.#count) {
      const item = this.#render(this.#next++)
      if (item === undefined) continue
      if (this.#written) out += ','
      this.#written = true
      if (typeof item === 'string') out += item
      else {
        const text = new PartsText(item, this.#expand!, (this.#texts ??= new WrittenTexts()))
        out = text.take(out, CHUNK_CHARS, more)
        if (!text.done) {
          this.#current = text
          return out
        }
        if (!more()) return out
      }
      if (out.length >= CHUNK_CHARS) return out
    }
    this.#done = true
    return out + this.#close
  }

  /**
   * The whole reply's size if it were written out once the first piece is: the bytes handed out
   * so far, in proportion of the items they hold. For a reply whose items are alike (a page of
   * rows), this tells one past its limit before its status is sent.
   */
  estimatedBytes(): number {
    if (this.#done || this.#next === 0) return this.#bytes
    return Math.round((this.#bytes * this.#count) / this.#next)
  }

  /** A measure of the whole reply's UTF-8 size (reply-parts.ts), for a `nested` reply. */
  measure(limits: number | ReplyLimits): PartsSize {
    const roots = this.#roots()
    return new PartsSize(
      () => {
        const next = roots.next()
        return next.done ? undefined : next.value
      },
      this.#expand ?? holdsNone,
      limits,
    )
  }

  *#roots(): Generator<Iterator<Part>, void, undefined> {
    yield only(this.#open)
    let written = false
    for (let i = 0; i < this.#count; i++) {
      const item = this.#render(i)
      if (item === undefined) continue
      if (written) yield only(',')
      written = true
      yield typeof item === 'string' ? only(item) : item
    }
    yield only(this.#close)
  }

  *[Symbol.iterator](): Iterator<string> {
    try {
      while (!this.#done) yield this.take()
    } finally {
      // Also when the reader stops early (`return`).
      if (!this.#done) this.release()
    }
  }
}

/**
 * `item` as it is written: a text at once, parts whose every step (where entities are read) runs
 * `within` (as the reply's actor, with the getters' answers made ahead).
 */
function inside<T extends string | Iterator<Part> | undefined>(within: Around, item: T): T {
  if (item === undefined || typeof item === 'string') return item
  const parts = item as Iterator<Part>
  return { next: () => within(() => parts.next()) } as T
}

/** ReplyTooLarge for a reply of `size` bytes (a number, or text such as "about 5000"). */
export function tooLarge(size: number | string, limit: number): Error {
  return datastoreError('ReplyTooLarge', [String(size), limit], { details: { limit } })
}

/** ReplyRepeatsTooLarge for a reply that writes `size` bytes of related entities again. */
export function tooRepetitive(size: number, limit: number): Error {
  return datastoreError('ReplyRepeatsTooLarge', [size, limit], { details: { limit } })
}
