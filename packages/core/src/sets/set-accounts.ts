/**
 * @module What each owner holds in the entity-set cache: its sets in recency order and their
 * members (what a session's quota counts), and the order in which the cache's global bounds take
 * sets back: from the owner holding the largest share first.
 *
 * A share is an owner's sets as a part of `maxSets` plus its members as a part of `maxMembers`.
 * Among owners of equal share, one whose sets were made without a user goes first (a flood of
 * anonymous clients, one set each, takes back its own before a logged-in user's), then the least
 * recently used. The accounts sit in a binary heap on that order, so that finding whom to take
 * from, and moving an account when it changes, costs a logarithm of the number of owners.
 */
import type { RowIds } from './row-ids.js'

/** What a set weighs against the member bounds: its members, and at least one. */
export const weightOf = (rowIds: RowIds): number => Math.max(1, rowIds.length)

/** The sets of one owner (a session, or the process). */
export class Account {
  /** `session:{id}` or `process:process`; renamed with its session. */
  key: string
  /** Sessions have quotas; the process has none (the global bounds only). */
  readonly limited: boolean
  /** Set ids and their weights, least recently used first (a use re-inserts: Maps keep order). */
  readonly sets = new Map<string, number>()
  members = 0
  /** Sets whose owner had a user. */
  userSets = 0
  /** The tick of its last use. */
  used = 0
  /** Its place in the heap. */
  at = -1

  constructor(key: string, limited: boolean) {
    this.key = key
    this.limited = limited
  }

  /** The least recently used set's id. */
  get oldest(): string | undefined {
    return this.sets.keys().next().value
  }
}

/** Accounts by the order the global bounds take sets back from them (see the module note). */
export class AccountHeap {
  readonly #items: Account[] = []
  readonly #maxSets: number
  readonly #maxMembers: number

  constructor(maxSets: number, maxMembers: number) {
    this.#maxSets = maxSets
    this.#maxMembers = maxMembers
  }

  /**
   * An account's share of the cache, scaled by `maxSets × maxMembers` to stay an integer: `sets`
   * and `members` as given (an account with a set it is about to keep), else its own.
   */
  share(a: Account, sets = a.sets.size, members = a.members): number {
    return sets * this.#maxMembers + members * this.#maxSets
  }

  /** The account to take from first, if any. */
  top(): Account | undefined {
    return this.#items[0]
  }

  /** Puts `a` in the heap, or moves it to its place after a change. */
  update(a: Account): void {
    if (a.at < 0) {
      a.at = this.#items.length
      this.#items.push(a)
    }
    this.#up(a.at)
    this.#down(a.at)
  }

  remove(a: Account): void {
    const at = a.at
    if (at < 0) return
    const last = this.#items.pop()!
    a.at = -1
    if (last === a) return
    this.#items[at] = last
    last.at = at
    this.#up(at)
    this.#down(at)
  }

  clear(): void {
    for (const a of this.#items) a.at = -1
    this.#items.length = 0
  }

  /** Whether `a` is taken from before `b`. */
  #before(a: Account, b: Account): boolean {
    const sa = this.share(a)
    const sb = this.share(b)
    if (sa !== sb) return sa > sb
    if ((a.userSets === 0) !== (b.userSets === 0)) return a.userSets === 0
    return a.used < b.used
  }

  #up(i: number): void {
    const items = this.#items
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.#before(items[i]!, items[parent]!)) return
      this.#swap(i, parent)
      i = parent
    }
  }

  #down(i: number): void {
    const items = this.#items
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let first = i
      if (l < items.length && this.#before(items[l]!, items[first]!)) first = l
      if (r < items.length && this.#before(items[r]!, items[first]!)) first = r
      if (first === i) return
      this.#swap(i, first)
      i = first
    }
  }

  #swap(i: number, j: number): void {
    const items = this.#items
    const a = items[i]!
    const b = items[j]!
    items[i] = b
    items[j] = a
    a.at = j
    b.at = i
  }
}
