/**
 * @module Ids of sessions that ended before their time (a logout, a login's renewal), kept until
 * they are too old to be taken up: `visit` (session-store.ts) must not take one up as a new guest,
 * or the copy of an id a login renewed (planted by another, session fixation) would name a
 * session again.
 */
export class BuriedIds {
  // Id → when it is too old to be taken up; ids go in about the order they grow too old.
  readonly #until = new Map<string, number>()
  readonly #most: number

  /**
   * `most`: ids kept at most, the oldest forgotten first (an id that names nothing is what it
   * would be taken up as).
   */
  constructor(most: number) {
    this.#most = most
  }

  has(id: string): boolean {
    return this.#until.has(id)
  }

  /** Keeps `id` until `until`. */
  bury(id: string, until: number): void {
    this.#until.set(id, until)
    if (this.#until.size > this.#most) this.#until.delete(this.#until.keys().next().value!)
  }

  /** Forgets the ids too old at `now`: the first ones are those that grew too old first. */
  sweep(now: number): void {
    for (const [id, until] of this.#until) {
      if (until > now) break
      this.#until.delete(id)
    }
  }
}
