/**
 * @module A session's own entity-set quota (4D 21 R4's `Session.quotas`): how many sets it may keep,
 * and the default and longest lifetime of the sets it makes from now on. A function sets them
 * (orda/calls/session-quotas.ts); the entity-set store asks for them, through a resolver, each time it
 * keeps a set, and applies them inside its own configured bounds, which stay the outer limit.
 */

/** What a session's quota says; a value left out is the store's own. All in 4D's units. */
export interface SessionQuota {
  /** Most sets the session keeps at once; past it a new one is refused (429). */
  readonly nbEntitySets?: number | undefined
  /** Lifetime of a set made without `$timeout`, in seconds. */
  readonly defaultEntitySetTimeout?: number | undefined
  /** Longest lifetime a set may have, in seconds: a longer `$timeout` is brought down to it. */
  readonly maxEntitySetTimeout?: number | undefined
}

/** The store's own lifetimes, in milliseconds: the outer bounds a session's quota stays within. */
export interface Lifetimes {
  readonly defaultTimeout: number
  readonly maxTimeout: number
}

/**
 * The lifetime in milliseconds of a set asked for `timeout` seconds (undefined: the default), under
 * `quota` and the store's `bounds`. A `$timeout` is at least a second; the session's longest
 * lifetime caps both an asked timeout and its default (4D: a default above the maximum "will be
 * aligned with" it), and the store's `maxTimeout` caps whatever the session says.
 */
export function lifetimeOf(
  timeout: number | undefined,
  quota: SessionQuota | undefined,
  bounds: Lifetimes,
): number {
  const ownMost = seconds(quota?.maxEntitySetTimeout) ?? Infinity
  const most = Math.min(bounds.maxTimeout, ownMost)
  if (timeout !== undefined) return Math.min(most, Math.max(1000, Math.round(timeout * 1000)))
  const own = seconds(quota?.defaultEntitySetTimeout)
  // The store's default is as configured, even above its maxTimeout (the embedder's choice, as it
  // always was); only the session's own maximum brings it down.
  return own === undefined ? Math.min(bounds.defaultTimeout, ownMost) : Math.min(most, own)
}

const seconds = (s: number | undefined): number | undefined => (s === undefined ? s : s * 1000)
