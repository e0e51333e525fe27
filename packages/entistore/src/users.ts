/**
 * @module `entistore serve --users users.json`: a fixed list of users for `$directory/login`,
 * `{ "ada": { "password": "…", "groups": ["Sales"] } }`. For fixtures and demos: the passwords
 * are in the file in plain text.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { AuthUser, Credentials } from '@entistore/rest'

/** Why a users file is not valid, or undefined. */
function problem(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return 'expected an object { "<user name>": { "password": "…", "groups": ["…"] } }'
  for (const [name, entry] of Object.entries(json)) {
    const e = entry as { password?: unknown; groups?: unknown } | null
    if (typeof e !== 'object' || e === null || typeof e.password !== 'string')
      return `user "${name}": expected { "password": "…" }`
    if (
      e.groups !== undefined &&
      (!Array.isArray(e.groups) || !e.groups.every((g) => typeof g === 'string'))
    )
      return `user "${name}": "groups" must be an array of names`
  }
  return undefined
}

// Compared as digests: equal lengths, in constant time, whatever the password's length.
const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/**
 * The `authenticate` function for a users file's content. Throws an Error saying what is wrong
 * with it.
 */
export function usersAuthenticate(json: unknown): (credentials: Credentials) => AuthUser | null {
  const why = problem(json)
  if (why) throw new Error(why)
  const users = new Map(
    Object.entries(json as Record<string, { password: string; groups?: string[] }>).map(
      ([name, e]) => [name, { hash: digest(e.password), groups: e.groups ?? [] }],
    ),
  )
  return ({ user, password }) => {
    const entry = users.get(user)
    // A digest is compared even for an unknown user: the time does not say which names exist.
    const ok = timingSafeEqual(entry?.hash ?? digest(`\0${password}`), digest(password))
    return entry && ok ? { name: user, groups: entry.groups } : null
  }
}
