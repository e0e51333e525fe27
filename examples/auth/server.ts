/**
 * An Entistore server with login and permissions, on the company example:
 *
 *   npx tsx --conditions=source examples/auth/server.ts     # http://127.0.0.1:8080/rest
 *
 * Two users log in with `POST /rest/$directory/login` (headers `username-4D`, `password-4D`):
 * `ada` (group HR) and `bob` (group Sales). Everyone logged in reads the data, but only HR reads
 * and writes salaries and changes employees; companies and projects are read-only for all.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import {
  loadDatastoreFiles,
  serve,
  sessionUser,
  type AuthUser,
  type Authorize,
  type Credentials,
  type RunningServer,
} from 'entistore'

// Passwords as SHA-256 digests, compared in constant time (use scrypt for real passwords).
const digest = (text: string): Buffer => createHash('sha256').update(text).digest()
const USERS = new Map([
  ['ada', { hash: digest('ada-secret'), fullName: 'Ada Lovelace', groups: ['HR'] }],
  ['bob', { hash: digest('bob-secret'), fullName: 'Bob Smith', groups: ['Sales'] }],
])

/** Who may log in: the user, or null. */
export function authenticate({ user, password }: Credentials): AuthUser | null {
  const entry = USERS.get(user)
  if (!entry || !timingSafeEqual(entry.hash, digest(password))) return null
  return { name: user, fullName: entry.fullName, groups: entry.groups }
}

/** Who may do what: asked for each dataclass and attribute a request touches. */
export const authorize: Authorize = (session, action, target) => {
  const hr = sessionUser(session)?.groups?.includes('HR') ?? false
  // Salaries are HR's only, to read and to write (and even to see in the catalog).
  if (target.dataClass === 'Employee' && target.attribute === 'salary') return hr
  switch (action) {
    case 'describe':
    case 'read':
      return true
    case 'create':
    case 'update':
    case 'delete':
      return target.dataClass === 'Employee' && hr
    default:
      return false
  }
}

/** Starts the server (port 0: a free one). */
export async function start(port = 8080): Promise<RunningServer> {
  const here = (name: string): string =>
    fileURLToPath(new URL(`../company/${name}`, import.meta.url))
  const ds = await loadDatastoreFiles({ model: here('model.json'), data: here('data.json') })
  // forceLogin: a session that has not logged in may only read the catalog (401 otherwise).
  return serve(ds, { port, authenticate, authorize, forceLogin: true })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await start(Number(process.env.PORT ?? 8080))
  console.log(`Listening on ${server.url}/rest (users: ada / ada-secret, bob / bob-secret)`)
}
