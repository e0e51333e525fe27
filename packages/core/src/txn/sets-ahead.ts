/**
 * @module The answers of computed attributes' setters called ahead of a write, in steps in its
 * slices (orda/writes/setter-steps.ts), which the write's `computedSets` finds instead of calling
 * the setters at once: a setter that loops then holds no other client, and what it gave (or threw)
 * is checked, permitted and written (or thrown) by the write itself, as a setter called there
 * would be, so that a setter's failure leaves nothing of the write applied. An answer is the
 * write's alone: found once, and only for the version it was made on (another write of the entity
 * between the steps and the write: the write calls the setter again, at once).
 */
import type { CalculatedAttributeDef } from '../schema/definitions.js'
import type { EntityRecord } from '../store/entity-record.js'

/** What one setter's call made ahead ended with: the assignments it gave, or what it threw. */
export type SetAnswer = { readonly value: unknown } | { readonly error: unknown }

/** The version a setter was called on: the entity's key and stamp, or null for a create. */
export type SetBase = Pick<EntityRecord, 'key' | 'stamp'> | null

/** The setters' answers made ahead of one write, by attribute. */
export class SetsAhead {
  readonly #kept = new Map<CalculatedAttributeDef, SetAnswer>()

  constructor(readonly base: SetBase) {}

  /** Keeps what the call of `attr`'s setter ended with. */
  keep(attr: CalculatedAttributeDef, answer: SetAnswer): void {
    this.#kept.set(attr, answer)
  }

  /** Whether no answer is kept (the write needs none). */
  get empty(): boolean {
    return this.#kept.size === 0
  }

  /** The answer kept for `attr`'s setter on `base`, taken (found once), or undefined. */
  take(attr: CalculatedAttributeDef, base: SetBase): SetAnswer | undefined {
    if (!sameVersion(this.base, base)) return undefined
    const answer = this.#kept.get(attr)
    if (answer !== undefined) this.#kept.delete(attr)
    return answer
  }
}

const sameVersion = (a: SetBase, b: SetBase): boolean =>
  a === b || (a !== null && b !== null && a.key === b.key && a.stamp === b.stamp)

// The answers of the write running now (`withSetsAhead`), else undefined: the setters are reached
// through the transaction's checks of the write, long after its caller gave them.
let ahead: SetsAhead | undefined

/** Runs `write` where its `computedSets` finds `answers` rather than calling their setters. */
export function withSetsAhead<T>(answers: SetsAhead, write: () => T): T {
  const outer = ahead
  ahead = answers
  try {
    return write()
  } finally {
    ahead = outer
  }
}

/** The answer made ahead for `attr`'s setter on `base` in the write running now, taken. */
export const setAnswerAhead = (
  attr: CalculatedAttributeDef,
  base: SetBase,
): SetAnswer | undefined => ahead?.take(attr, base)
