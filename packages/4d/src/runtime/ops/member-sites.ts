/**
 * @module A member read at one place of the generated code (`$e.salary`): `getAt(site, obj,
 * "salary")` reads as `get` does, and keeps in its site the reader its host last gave for that
 * name (host.ts, MEMBER_READER): at the next pass, an object of the same kind (an entity of the
 * same dataclass) is read through it without the dispatch and the lookup by name. What a site
 * keeps is only where the member is (an attribute's definition and how its value converts): each
 * read still asks what it asks through `get` (an entity's attribute, the session's permission at
 * that moment, through core's readAttribute). A site is one object a place of a compiled function,
 * made when the function is (emit/function.ts); any other object takes `get`'s way.
 *
 * `getInto(site, obj, "employer", l0)` reads as `getAt`, for a local that keeps nothing it is
 * given (compile/emit/reused-local.ts): a reader that has `into` then gives `l0` again, pointed at
 * the new value, rather than a new object (a relation's entity, a pass of a loop an allocation
 * less), when `l0` is one it made and no class code has had it.
 */
import { MEMBER_READER, MISS, type MemberReader, type ReaderHost } from '../values/host.js'
import { get } from './members.js'

/** The state of one place of the generated code that reads a member by its name. */
export interface Site {
  /** The reader kept, or null before a host has given one. */
  r: MemberReader | null
}

/** `target.key` at `site`. */
export function getAt(site: Site, target: unknown, key: string): unknown {
  const read = site.r
  if (read !== null) {
    const value = read(target)
    if (value !== MISS) return value
  }
  if (typeof target === 'object' && target !== null) {
    const host = (target as Partial<ReaderHost>)[MEMBER_READER]
    const reader = host === undefined ? undefined : host.call(target, key)
    if (reader !== undefined) {
      // The last kind seen wins: a place that sees two alternately reads both right, the second
      // through `get` until it is the one kept.
      site.r = reader
      const value = reader(target)
      if (value !== MISS) return value
    }
  }
  return get(target, key)
}

/** `target.key` at `site`, into `reuse` (what this read gave the call's last time) if it can. */
export function getInto(site: Site, target: unknown, key: string, reuse: unknown): unknown {
  const into = site.r?.into
  if (into !== undefined) {
    const value = into(target, reuse)
    if (value !== MISS) return value
  }
  return getAt(site, target, key)
}
