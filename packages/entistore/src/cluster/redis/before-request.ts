/**
 * @module Before a request is answered: what it names that another process may have made or
 * changed, brought into this process's mirrors from Redis (its session, unless held here with a
 * lease; the sets it names; the sets `$info` lists; the lock `$lock` asks for, claimed in Redis
 * first). The common case, a session held here with a lease and nothing else named, allocates
 * nothing and answers synchronously.
 */
import type { RequestNames, RestRequest } from '@entistore/rest'
import type { Mirrors } from './mirrors.js'
import { unavailable } from './pending-writes.js'

/**
 * What `request` needs fetched first, or undefined when nothing: `cookie` is its session
 * cookie's value, `names` what it names (read once by REST's rules). Rejects with 503 when Redis
 * cannot be reached.
 */
export function prepare(
  m: Mirrors,
  request: RestRequest,
  names: RequestNames,
  cookie: string | undefined,
): Promise<void> | undefined {
  // The hot path: a session held here, with a lease, is answered from the mirror at once.
  const stale = cookie !== undefined && !m.sessions.vouchesFor(cookie)
  const sid = cookie ?? names.sessionId
  const fetchSession = sid !== undefined && (stale || !m.sessions.vouchesFor(sid))
  const { entitySets: sets, lock } = names
  // `$info` lists the session's sets, wherever they were made.
  const lists = names.target?.kind === 'info' && !names.target.privileges && sid !== undefined
  if (!fetchSession && sets.length === 0 && lock === undefined && !lists) return undefined
  return fetchNamed(m, request, fetchSession ? sid : undefined, sets, sid, lock, lists)
}

async function fetchNamed(
  m: Mirrors,
  request: RestRequest,
  session: string | undefined,
  sets: readonly string[],
  sid: string | undefined,
  lock: RequestNames['lock'],
  lists: boolean,
): Promise<void> {
  const { ds } = m
  try {
    await Promise.all([
      session === undefined ? undefined : m.sessions.fetch(session),
      sets.length === 0 ? undefined : m.sets.confirm(sets),
    ])
    const held = lists && sid !== undefined ? ds.sessions.peek(sid) : undefined
    if (held) await m.sets.list(held)
    if (!lock) return
    if (sid !== undefined && ds.sessions.peek(sid)) await m.locks.claim(request, sid, lock)
    // A client without a session yet: the core makes one, then the lock is written. Its
    // holder, if any, is fetched first, so that the core refuses it as Redis would.
    else await m.locks.fetchHolder(request, lock)
  } catch (error) {
    throw unavailable(error)
  }
}
