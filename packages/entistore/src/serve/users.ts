/**
 * @module `entistore serve --users users.json`: a fixed list of users for `$directory/login`,
 * `{ "ada": { "password": "…", "groups": ["Sales"], "privileges": ["sales"], "roles": ["Clerk"] } }`
 * (`privileges` and `roles` name those of a roles file, `serve --roles`). For fixtures and demos:
 * the passwords are in the file in plain text.
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
    for (const key of ['groups', 'privileges', 'roles'] as const) {
      const names = (e as Record<string, unknown>)[key]
      if (
        names !== undefined &&
        (!Array.isArray(names) || !names.every((g) => typeof g === 'string'))
      )
        return `user "${name}": "${key}" must be an array of names`
    }
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
  type Entry = { password: string; groups?: string[]; privileges?: string[]; roles?: string[] }
  const users = new Map(
    Object.entries(json as Record<string, Entry>).map(([name, e]) => [
      name,
      {
        hash: digest(e.password),
        user: {
          name,
          groups: e.groups ?? [],
          // A roles file's privileges and roles (serve --roles): what the user may do.
          ...(e.privileges ? { privileges: e.privileges } : {}),
          ...(e.roles ? { roles: e.roles } : {}),
        } satisfies AuthUser,
      },
    ]),
  )
  return ({ user, password }) => {
    const entry = users.get(user)
    // A digest is compared even for an unknown user: the time does not say which names exist.
    const ok = timingSafeEqual(entry?.hash ?? digest(`\0${password}`), digest(password))
    return entry && ok ? entry.user : null
  }
}
