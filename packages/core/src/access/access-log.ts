/**
 * @module What a view was asked while it made something kept for later (an entity set): each
 * permission it needed, so that another view reading what was made is asked the same first.
 *
 * A set made by `GET /rest/Employee?$orderby="salary desc"&$method=entityset` holds a ranking by
 * salary: read through its id by a session that may not read `salary`, it would tell what that
 * session could not query. So the set keeps the permissions its making needed, and a reader of
 * another view is asked each of them, as if it made the set itself. What code made (a function's
 * reply kept as a set: its code may have read anything its view may) cannot be told this way: such
 * a log is `unknown`, and only its maker's view reads it.
 */
import type { PermissionAction } from './authorize.js'

/** One permission asked: the action, the dataclass, and the attribute (none: the dataclass itself). */
export type AccessAsked = readonly [action: PermissionAction, dataClass: string, attribute?: string]

export class AccessLog {
  readonly #seen = new Set<string>()
  readonly #entries: AccessAsked[] = []
  #unknown = false

  /** Notes that `action` on `dataClass` (and `attribute`) was asked. */
  add(action: PermissionAction, dataClass: string, attribute?: string): void {
    if (action === 'describe') return
    // Code runs: what it reads through its own calls is not all told here.
    if (action === 'execute') this.#unknown = true
    const key = `${action}\u0000${dataClass}\u0000${attribute ?? ''}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.#entries.push(
      attribute === undefined ? [action, dataClass] : [action, dataClass, attribute],
    )
  }

  /** Notes that what was made depends on what code made (an unknown log read by its maker). */
  markUnknown(): void {
    this.#unknown = true
  }

  /** What was asked, or `unknown` when code took part. */
  get asked(): readonly AccessAsked[] | 'unknown' {
    return this.#unknown ? 'unknown' : this.#entries.slice()
  }
}
