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
 *   as much as writing each distinct entity once, however large the reply. It works in steps and
 *   can stop and go on later, so that measuring never holds the event loop long either.
 */
import { spendBudget, type Entity } from '@entistore/core'
import type { Projection } from './projection.js'

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

/** The bytes `text` takes in UTF-8: its length, plus one or two for each character past ASCII. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** Writes the parts of one entity as text, a piece at a time (see the module note). */
export class PartsText {
  readonly #expand: Expand
  readonly #stack: Iterator<Part>[]

  constructor(root: Iterator<Part>, expand: Expand) {
    this.#expand = expand
    this.#stack = [root]
  }

  /** Whether every part has been written. */
  get done(): boolean {
    return this.#stack.length === 0
  }

  /** `out` followed by the next parts, until it is `upTo` characters long or the parts end. */
  take(out: string, upTo: number): string {
    const stack = this.#stack
    while (stack.length > 0) {
      const next = stack[stack.length - 1]!.next()
      if (next.done) {
        stack.pop()
        continue
      }
      const part = next.value
      if (typeof part === 'string') {
        out += part
        if (out.length >= upTo) return out
        continue
      }
      const expanded = this.#expand(part)
      if (typeof expanded === 'string') {
        out += expanded
        if (out.length >= upTo) return out
      } else stack.push(expanded)
    }
    return out
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

/**
 * The UTF-8 size of many entities' parts (a reply's roots, one after the other), in steps: `run`
 * goes on until everything is measured, `limit` bytes are passed, or it has gone through `units`
 * parts. Each part counts against the request's time budget (`spendBudget`).
 */
export class PartsSize {
  readonly #expand: Expand
  readonly #roots: () => Iterator<Part> | undefined
  readonly #limit: number
  readonly #known = new Map<Projection, Map<Entity, number>>()
  readonly #stack: Frame[] = []
  #bytes = 0
  #rootsDone = false

  /** `roots()` gives the next root's parts, or undefined when there are no more. */
  constructor(roots: () => Iterator<Part> | undefined, expand: Expand, limit: number) {
    this.#roots = roots
    this.#expand = expand
    this.#limit = limit
  }

  /** The bytes measured so far: the whole size once `done`, more than the limit once `over`. */
  get bytes(): number {
    return this.#bytes
  }

  get over(): boolean {
    return this.#bytes > this.#limit
  }

  get done(): boolean {
    return this.#rootsDone && this.#stack.length === 0
  }

  /** Measures on for at most `units` parts; true once done or over the limit. */
  run(units: number): boolean {
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
        continue
      }
      const expanded = this.#expand(part)
      if (typeof expanded === 'string') {
        const size = utf8Bytes(expanded)
        this.#remember(part, size)
        this.#add(frame, size)
      } else stack.push({ parts: expanded, nested: part, bytes: 0 })
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
