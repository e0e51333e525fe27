/**
 * @module Entities whose text may be any size, written and measured a piece at a time.
 *
 * A projection that writes relations out (`$attributes=staff.employer.staff.ID`, `$expand=staff`)
 * multiplies: each level embeds up to a page of related entities in every entity of the level
 * above, so one entity of a 24-row reply once stood for 600 MB of text, written in one string
 * while every other client waited. The entity writer therefore gives such an entity as *parts*:
 * text, and the related entities to write where they go (`Nested`). Two walkers take them:
 *
 * - `PartsText` writes them out, up to a given length at a time, keeping its place in an explicit
 *   stack: a reply's chunk can end in the middle of the deepest entity, and the next chunk, in a
 *   later turn of the event loop, goes on from there.
 * - `PartsSize` adds up their UTF-8 bytes without writing the text, so that a reply past its size
 *   limit is refused before its status is sent. It remembers the size of each related entity it
 *   measured under each projection: the same few entities come back again and again in a reply
 *   that multiplies (the same employer under each of its staff), so measuring a reply costs about
 *   as much as writing each distinct entity once, however large the reply; each time one comes
 *   back, its bytes count again. It works in steps and can stop and go on later, so that measuring
 *   never holds the event loop long either.
 *
 * What multiplies is a related entity that writes relations out coming back: its text holds a
 * page of entities, and it comes back once for each entity that points at it, so that 50 bytes of
 * request (`Employee?$top=20000&$attributes=employer.staff.ID`) stood for 160 MB, the same 24
 * companies' pages written 20,000 times. `PartsSize` counts those bytes apart (`repeated`), for a
 * limit of their own. Any other text grows with the rows the reply reads: a related entity written
 * whole in each row (`employer.*`) as a row's own attributes do, and each distinct entity under
 * each projection once (the request's paths times the data).
 */
import { spendBudget, type Entity } from '@entistore/core'
import type { Projection } from './projection.js'
import { utf8Bytes } from './utf8-bytes.js'

/** A related entity written out inside the text around it, in the `__ENTITIES` member form. */
export interface Nested {
  readonly entity: Entity
  readonly projection: Projection
}

/** A piece of an entity's JSON text: text, or a related entity to write in its place. */
export type Part = string | Nested

/**
 * How a related entity is written: its whole text when its projection writes no relation out
 * (its size is then bounded by the entity's own), else its parts.
 */
export type Expand = (nested: Nested) => string | Iterator<Part>

/** The most characters of one related entity's text kept to write again (`WrittenTexts`). */
export const KEPT_TEXT_CHARS = 256 * 1024

/** The most characters of related entities' texts one reply keeps, all together. */
export const KEPT_TEXTS_CHARS = 1024 * 1024

/**
 * The texts of the related entities a reply has written, by projection and entity, to write again
 * where they come back: the same employer under each of 20,000 employees (`Employee?$attributes=
 * employer.staff.ID`) was written 20,000 times, its staff relation read each time, 63 s of CPU
 * for 160 MB; with its text kept, the relation is read once. Bounded: an entity of at most
 * KEPT_TEXT_CHARS, KEPT_TEXTS_CHARS for them all; the ones past it are written again each time.
 */
export class WrittenTexts {
  readonly #texts = new Map<Projection, Map<Entity, string>>()
  #chars = 0

  get({ entity, projection }: Nested): string | undefined {
    return this.#texts.get(projection)?.get(entity)
  }

  add({ entity, projection }: Nested, text: string): void {
    if (text.length > KEPT_TEXT_CHARS || this.#chars + text.length > KEPT_TEXTS_CHARS) return
    let texts = this.#texts.get(projection)
    if (texts === undefined) this.#texts.set(projection, (texts = new Map()))
    texts.set(entity, text)
    this.#chars += text.length
  }
}

/** How far past its size a piece may go rather than end inside a kept text. */
const SLACK = 2048

/** Asked between two related entities written: whether the piece may go on (its time is not up). */
export type More = () => boolean
const ALWAYS: More = () => true

interface Writing {
  readonly parts: Iterator<Part>
  /** The related entity written (undefined: the root). */
  readonly nested: Nested | undefined
  /** Its text so far, while it may be kept (`WrittenTexts`). */
  text: string | undefined
}

/** Writes the parts of one entity as text, a piece at a time (see the module note). */
export class PartsText {
  readonly #expand: Expand
  readonly #texts: WrittenTexts
  readonly #stack: Writing[]
  // The frames from this one up keep their text: a frame's text holds those of the frames above
  // it, so the ones that grew past KEPT_TEXT_CHARS are the lowest.
  #keepFrom = 1
  // The rest of a kept text that did not fit in the last piece.
  #rest = ''

  constructor(root: Iterator<Part>, expand: Expand, texts = new WrittenTexts()) {
    this.#expand = expand
    this.#texts = texts
    this.#stack = [{ parts: root, nested: undefined, text: undefined }]
  }

  /** Whether every part has been written. */
  get done(): boolean {
    return this.#stack.length === 0 && this.#rest === ''
  }

  /**
   * `out` followed by the next parts, until it is `upTo` characters long, the parts end, or `more`
   * says no (asked after each related entity begun or written, where the work is, reading its
   * relations, once there is some text to hand out).
   */
  take(out: string, upTo: number, more: More = ALWAYS): string {
    if (this.#rest !== '') {
      out = this.#fit(out, this.#rest, upTo)
      if (this.#rest !== '' || out.length >= upTo) return out
    }
    const stack = this.#stack
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const next = frame.parts.next()
      if (next.done) {
        stack.pop()
        if (frame.text !== undefined) this.#texts.add(frame.nested!, frame.text)
        if (this.#keepFrom > stack.length) this.#keepFrom = stack.length
        continue
      }
      const part = next.value
      if (typeof part === 'string') {
        out += part
        this.#keep(part)
        if (out.length >= upTo) return out
        continue
      }
      let text = this.#texts.get(part)
      if (text === undefined) {
        const expanded = this.#expand(part)
        if (typeof expanded !== 'string') {
          stack.push({ parts: expanded, nested: part, text: '' })
          if (out.length > 0 && !more()) return out
          continue
        }
        this.#texts.add(part, expanded)
        text = expanded
      }
      this.#keep(text)
      out = this.#fit(out, text, upTo)
      if (out.length >= upTo || !more()) return out
    }
    return out
  }

  // `out` and `text`, or as much of a long text as makes `upTo` (the rest is `#rest`): a kept text
  // may be long, and a piece is not.
  #fit(out: string, text: string, upTo: number): string {
    let room = Math.max(upTo - out.length, 0)
    if (text.length <= room + SLACK) {
      this.#rest = ''
      return out + text
    }
    // Not between the two halves of a surrogate pair: each piece is UTF-8 on its own.
    const code = text.charCodeAt(room - 1)
    if (code >= 0xd800 && code <= 0xdbff) room--
    this.#rest = text.slice(room)
    return out + text.slice(0, room)
  }

  // Adds `text` to the frames that keep theirs, and stops keeping the ones it makes too long.
  #keep(text: string): void {
    const stack = this.#stack
    for (let i = this.#keepFrom; i < stack.length; i++) stack[i]!.text += text
    while (this.#keepFrom < stack.length && stack[this.#keepFrom]!.text!.length > KEPT_TEXT_CHARS)
      stack[this.#keepFrom++]!.text = undefined
  }
}

/** The whole text of `parts`: for the rare caller that needs one string (a function's result). */
export function partsText(parts: Iterator<Part>, expand: Expand): string {
  return new PartsText(parts, expand).take('', Infinity)
}

interface Frame {
  readonly parts: Iterator<Part>
  /** The entity and projection measured, to remember the size under (undefined: a root). */
  readonly nested: Nested | undefined
  bytes: number
}

/** What a reply may write, in UTF-8 bytes. */
export interface ReplyLimits {
  /** All of it (`maxReplyBytes`). */
  readonly bytes: number
  /**
   * Of it, the related entities that write relations out, written again (`maxRepeatedBytes`:
   * see the module note).
   */
  readonly repeatedBytes: number
}

/**
 * The UTF-8 size of many entities' parts (a reply's roots, one after the other), in steps: `run`
 * goes on until everything is measured, a limit is passed, or it has gone through `units` parts.
 * Each part counts against the request's time budget (`spendBudget`).
 */
export class PartsSize {
  readonly #expand: Expand
  readonly #roots: () => Iterator<Part> | undefined
  readonly #limits: ReplyLimits
  readonly #known = new Map<Projection, Map<Entity, number>>()
  readonly #stack: Frame[] = []
  #bytes = 0
  #repeated = 0
  #rootsDone = false

  /**
   * `roots()` gives the next root's parts, or undefined when there are no more; a number for
   * `limits` bounds the bytes alone.
   */
  constructor(
    roots: () => Iterator<Part> | undefined,
    expand: Expand,
    limits: number | ReplyLimits,
  ) {
    this.#roots = roots
    this.#expand = expand
    this.#limits = typeof limits === 'number' ? { bytes: limits, repeatedBytes: Infinity } : limits
  }

  /** The bytes measured so far: the whole size once `done`, more than the limit once `over`. */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * Of `bytes`, those of related entities that write relations out written again, each time
   * counted whole (what they hold included).
   */
  get repeated(): number {
    return this.#repeated
  }

  get limits(): ReplyLimits {
    return this.#limits
  }

  /** Past a limit: the bytes', or the repeated bytes' (`repeatsOver`). */
  get over(): boolean {
    return this.#bytes > this.#limits.bytes || this.repeatsOver
  }

  get repeatsOver(): boolean {
    return this.#repeated > this.#limits.repeatedBytes
  }

  get done(): boolean {
    return this.#rootsDone && this.#stack.length === 0
  }

  /**
   * Measures on for at most `units` parts, or until `more` says no (asked after each related
   * entity begun or measured whole, where the work is); true once done or over the limit.
   */
  run(units: number, more: More = ALWAYS): boolean {
    const stack = this.#stack
    for (let spent = 0; spent < units; spent++) {
      if (this.over) return true
      if (stack.length === 0) {
        if (this.#rootsDone) return true
        const root = this.#roots()
        if (root === undefined) {
          this.#rootsDone = true
          return true
        }
        stack.push({ parts: root, nested: undefined, bytes: 0 })
      }
      const frame = stack[stack.length - 1]!
      const next = frame.parts.next()
      spendBudget(1)
      if (next.done) {
        stack.pop()
        if (frame.nested) {
          this.#remember(frame.nested, frame.bytes)
          stack[stack.length - 1]!.bytes += frame.bytes
        }
        continue
      }
      const part = next.value
      if (typeof part === 'string') {
        this.#add(frame, utf8Bytes(part))
        continue
      }
      const known = this.#known.get(part.projection)?.get(part.entity)
      if (known !== undefined) {
        this.#add(frame, known)
        if (part.projection.nested) this.#repeated += known
        continue
      }
      const expanded = this.#expand(part)
      if (typeof expanded === 'string') {
        const size = utf8Bytes(expanded)
        this.#remember(part, size)
        this.#add(frame, size)
      } else stack.push({ parts: expanded, nested: part, bytes: 0 })
      if (!more()) return this.over
    }
    return this.done || this.over
  }

  // The reply's total grows as each piece is met, so that a reply past the limit stops the
  // measure there; a frame's own count is what its entity's size is remembered as.
  #add(frame: Frame, bytes: number): void {
    frame.bytes += bytes
    this.#bytes += bytes
  }

  #remember({ entity, projection }: Nested, bytes: number): void {
    let sizes = this.#known.get(projection)
    if (sizes === undefined) this.#known.set(projection, (sizes = new Map()))
    sizes.set(entity, bytes)
  }
}
