/**
 * @module The logged-in sessions of each user, least recently used first: what bounds a user's
 * sessions (`maxSessionsPerUser`) and lets a login past that bound give up its own user's oldest
 * session, never another user's. A session store keeps one index; its sessions carry their links
 * (an intrusive list per user, as the store's pools are), so that filing, touching and finding the
 * oldest are O(1) whatever the number of users and sessions.
 *
 * Users are told apart by their user name as 4D compares names: ignoring case, not diacritics
 * ("Ann" and "ann" are one user, "Zoé" and "Zoe" two). A session whose user has no name (4D's
 * `setPrivileges` without `userName`) belongs to no user here: it counts against no quota and is
 * nobody's own to give up.
 */
import type { AuthUser } from './session-api.js'

/** A session as the index links it: its user's key, and its neighbours in that user's list. */
export interface UserLinked<E extends UserLinked<E>> {
  /** The key of the user whose list holds it (`userKey`); undefined: in none. */
  userKey: string | undefined
  userOlder: E | undefined
  userNewer: E | undefined
}

/** The key a user is counted under; undefined for a user without a name. */
export function userKey(user: AuthUser | null | undefined): string | undefined {
  const name: unknown = user?.name
  return typeof name === 'string' && name !== '' ? name.toLowerCase() : undefined
}

/** One user's sessions, least recently used first. */
class UserList<E extends UserLinked<E>> {
  oldest: E | undefined
  newest: E | undefined
  size = 0
}

export class SessionsPerUser<E extends UserLinked<E>> {
  readonly #lists = new Map<string, UserList<E>>()

  /** How many sessions the user of this key has (0 for undefined). */
  count(key: string | undefined): number {
    return key === undefined ? 0 : (this.#lists.get(key)?.size ?? 0)
  }

  /** The least recently used session of the user of this key. */
  oldest(key: string): E | undefined {
    return this.#lists.get(key)?.oldest
  }

  /**
   * Puts `entry` in the list of `key` (undefined: in none). Joining a list makes it the newest
   * there; staying in its list keeps its place unless `touched`.
   */
  file(entry: E, key: string | undefined, touched: boolean): void {
    if (entry.userKey === key) {
      if (touched) this.touch(entry)
      return
    }
    this.remove(entry)
    if (key === undefined) return
    let list = this.#lists.get(key)
    if (!list) this.#lists.set(key, (list = new UserList<E>()))
    entry.userKey = key
    entry.userOlder = list.newest
    entry.userNewer = undefined
    if (list.newest) list.newest.userNewer = entry
    else list.oldest = entry
    list.newest = entry
    list.size++
  }

  /** Makes `entry` the newest of its user's list (a request came back). */
  touch(entry: E): void {
    const key = entry.userKey
    if (key === undefined) return
    const list = this.#lists.get(key)!
    if (list.newest === entry) return
    this.#unlink(list, entry)
    entry.userOlder = list.newest
    entry.userNewer = undefined
    list.newest!.userNewer = entry
    list.newest = entry
    list.size++
  }

  /** Takes `entry` out of its user's list (closed, logged out); an empty list is dropped. */
  remove(entry: E): void {
    const key = entry.userKey
    if (key === undefined) return
    const list = this.#lists.get(key)!
    this.#unlink(list, entry)
    entry.userKey = entry.userOlder = entry.userNewer = undefined
    if (list.size === 0) this.#lists.delete(key)
  }

  #unlink(list: UserList<E>, entry: E): void {
    if (entry.userOlder) entry.userOlder.userNewer = entry.userNewer
    else list.oldest = entry.userNewer
    if (entry.userNewer) entry.userNewer.userOlder = entry.userOlder
    else list.newest = entry.userOlder
    list.size--
  }
}
