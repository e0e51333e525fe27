/**
 * @module `GET /rest/$info`: the caller's own entity sets and session, as the real server describes
 * them.
 */
import { EntitySets, heldPrivileges, sessionUser, setOwnerOf } from '@entistore/core'
import { ok, type Reply } from '../reply.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import type { RouteContext } from './context.js'

/** The roles file's privileges the session holds, as the file names them; none without a file. */
function privilegesOf(ctx: RouteContext): string[] {
  const roles = ctx.ds.roles
  return roles ? roles.declared(heldPrivileges(roles, ctx.session)) : []
}

/** The last time a Date holds, in ms since 1970. */
const MAX_DATE = 8.64e15

/**
 * `GET /rest/$info`: the caller's entity sets as the real server describes its cache (`cacheSize`
 * and `usedCache` are the session's quota of members and its use of it, in bytes: 4 a member, a
 * row id in an Int32Array), its sets (those of its user, or of its session), and its own session.
 * Other sessions and their sets are not listed: a session id is a credential, and another's sets
 * are theirs to know of.
 */
export function info(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'info' }> = { kind: 'info' },
): Reply {
  const privileges = { privileges: privilegesOf(ctx).map((privilege) => ({ privilege })) }
  if (target.privileges) return ok(privileges)
  const sets = ctx.ds.entitySets
  const by = setOwnerOf(ctx.session)
  const perms = ctx.perms
  // Only the sets of dataclasses the session may read.
  const list = sets.info({ by }).filter((e) => !perms || perms.may('read', e.dataClass))
  const usage = sets.usage({ by })
  // A date past the last one a Date holds (a session's timeout set huge by code) is that last one:
  // $info describes, it never fails.
  const iso = (ms: number): string =>
    new Date(Number.isFinite(ms) ? Math.min(ms, MAX_DATE) : MAX_DATE).toISOString()
  const s = ctx.session
  return ok({
    cacheSize: EntitySets.bytesPerMember * usage.maxMembers,
    usedCache: EntitySets.bytesPerMember * usage.members,
    entitySetCount: list.length,
    entitySet: list.map((e) => ({
      id: e.id,
      dataClass: e.dataClass,
      selectionSize: e.selectionSize,
      sorted: e.sorted,
      refreshed: iso(e.refreshed),
      expires: iso(e.expires),
    })),
    ProgressInfo: [],
    sessionInfo: [
      {
        sessionID: s.id,
        userName: sessionUser(s)?.name || 'default guest',
        lifeTime: Math.round(s.timeout / 1000),
        expiration: iso(s.lastAccess + s.timeout),
      },
    ],
    privileges,
  })
}
