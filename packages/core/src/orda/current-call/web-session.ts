/**
 * @module 4D's Session class (API/SessionClass, 4D 21 R4) for code that runs as a session: what
 * `currentSession()` (current-call.ts) answers where 4D code reads `Session`, in a function called
 * over REST, a `restrict` event, any code a request runs. Its sessions are 4D's "web user
 * sessions", the only kind a REST server has. Every member reads the session as it is now, so
 * after `restore(token)` it is the restored one.
 *
 * What changes what the running code may do (`promote`, `demote`, `restore`) and the session's
 * rights (`setPrivileges`, `hasPrivilege`), its `storage` and `quotas` are the call's own
 * (calls/call-context.ts, calls/session-calls.ts): this class gives them under 4D's names with
 * 4D's answers, and adds what 4D tells of the session itself (`id`, `userName`, `isGuest()`,
 * `getPrivileges()`, `clearPrivileges()`, `idleTimeout`, `expirationDate`, `info`).
 */
import { fail } from '../../errors/datastore-error.js'
import { GUEST_PRIVILEGE } from '../../roles/roles.js'
import type { SharedObject } from '../../sessions/session-storage.js'
import type { Session } from '../../sessions/session-api.js'
import {
  noteSessionRead,
  noteVolatileRead,
  sessionStateChanged,
} from '../../sessions/session-reads.js'
import { describeValue } from '../../values/coerce.js'
import type { PrivilegeSettings } from '../calls/call-context.js'
import type { QuotaManager } from '../calls/session-quotas.js'
import type { SessionSource } from './function-call.js'

/** 4D's `Session.info` of a web user session: what Entistore knows of one. */
export interface WebSessionInfo {
  /** `rest`: a session of the REST server. */
  readonly type: 'rest'
  /** As `userName`. */
  readonly userName: string
  /** When the session was opened, ISO 8601. */
  readonly creationDateTime: string
  /** `active`: a session that can be read is alive (an expired one is closed). */
  readonly state: 'active'
  /** As `id`. */
  readonly ID: string
}

/** 4D's shortest inactivity timeout, in minutes: a lower `idleTimeout` is raised to it. */
export const MIN_IDLE_TIMEOUT = 60

const MINUTE = 60_000

const iso = (ms: number): string => new Date(ms).toISOString()

export class WebSession {
  readonly #call: SessionSource

  /** @internal Made by `currentSession()` for code that runs as a session. */
  constructor(call: SessionSource) {
    this.#call = call
  }

  // The session now (a restore replaces it; there is always one, see the constructor), read for
  // its own state: noted, since an answer that read it is that session's alone.
  get #session(): Session {
    noteSessionRead()
    return this.#call.session!
  }

  /** 4D's `id`: the session's id, what its cookie carries (it changes when the session logs in). */
  get id(): string {
    return this.#session.id
  }

  /** 4D's `userName`: the user set by `setPrivileges({ userName })` or a login; '' for a guest. */
  get userName(): string {
    return this.#call.user?.name ?? ''
  }

  /** 4D's `isGuest()`: true until `setPrivileges()` (or a login) gives the session a user. */
  isGuest(): boolean {
    return this.#call.user === undefined
  }

  /**
   * 4D's `getPrivileges()`: the roles file's privileges given to the session (by `setPrivileges`
   * or a login: its privileges, its roles' and those they include) as the file spells them, in its
   * order; not `guest`, nor what a function promotes. [] without a roles file.
   */
  getPrivileges(): string[] {
    const roles = this.#call.datastore.roles
    const user = this.#call.user
    if (roles === undefined || user === undefined) return []
    const given = roles.privilegesOf({ privileges: user.privileges, roles: user.roles })
    const asGuest = roles.privilegesOf({})
    const named = new Set((user.privileges ?? []).map((p) => p.toLowerCase()))
    // What every session holds as a guest is not given to it, unless named.
    const own = new Set([...given].filter((p) => !asGuest.has(p) || named.has(p)))
    return roles
      .declared(own)
      .filter((p) => p.toLowerCase() !== GUEST_PRIVILEGE || named.has(GUEST_PRIVILEGE))
  }

  /** 4D's `hasPrivilege()`: promoted privileges count (21). */
  hasPrivilege(privilege: string): boolean {
    return this.#call.hasPrivilege(privilege)
  }

  /**
   * 4D's `setPrivileges()`: a privilege, names separated by commas, a list, or `{ privileges,
   * roles, userName }`; replaces what the session held, and the session gets a new id (as at a
   * login). True: failures throw (SessionLimit when no session can be established).
   */
  setPrivileges(settings: PrivilegeSettings): boolean {
    noteSessionRead()
    return this.#call.setPrivileges(settings)
  }

  /**
   * 4D's `clearPrivileges()` ("invalidate a web user session"): the session holds no privilege
   * and no user any more, a guest again (under a new id); what a function promotes stays until it
   * ends. True.
   */
  clearPrivileges(): boolean {
    noteSessionRead()
    this.#call.logOut()
    return true
  }

  /** 4D's `promote()` (20 R10): see `FunctionCall.promote`. */
  promote(privilege: string): number {
    noteSessionRead()
    return this.#call.promote(privilege)
  }

  /** 4D's `demote()` (20 R10): see `FunctionCall.demote`. */
  demote(promoteId: number): void {
    noteSessionRead()
    this.#call.demote(promoteId)
  }

  /** 4D's `createOTP()` (20 R9): a one-time token for `$4DSID` or `restore`, `lifespan` seconds. */
  createOTP(lifespan?: number): string {
    noteSessionRead()
    return this.#call.createOTP(lifespan)
  }

  /** 4D's `restore()` (20 R9): the rest of the call acts as the token's session. */
  restore(token: string): boolean {
    noteSessionRead()
    return this.#call.restore(token)
  }

  /** 4D's `storage`: the session's shared object, written inside `use(storage, (s) => …)`. */
  get storage(): SharedObject {
    noteSessionRead()
    return this.#call.storage!
  }

  /** 4D's `quotas` (21 R4): the session's entity-set quotas. */
  get quotas(): QuotaManager {
    noteSessionRead()
    return this.#call.quotas
  }

  /**
   * 4D's `idleTimeout`: minutes of inactivity after which the session closes. Set, it takes effect
   * at once (and `expirationDate` with it); below 60 it is raised to 60, as 4D does.
   * @throws DatastoreError InvalidParameter (1806) for a value that is not a finite number
   */
  get idleTimeout(): number {
    return this.#session.timeout / MINUTE
  }

  set idleTimeout(minutes: number) {
    if (typeof minutes !== 'number' || !Number.isFinite(minutes))
      fail('InvalidParameter', ['idleTimeout', describeValue(minutes), 'a number of minutes'])
    const session = this.#session
    session.timeout = Math.max(MIN_IDLE_TIMEOUT, minutes) * MINUTE
    // The session's own state, which a `restrict` may have read (session-reads.ts).
    sessionStateChanged(session)
    // Told to the store (a mirror in another process takes the new timeout with the touch).
    this.#call.datastore.sessions.touch(session.id)
  }

  /** 4D's `expirationDate`: when the session closes if no request comes, ISO 8601. */
  get expirationDate(): string {
    const session = this.#session
    // Every request of the session moves it, untold: an answer that read it is not kept.
    noteVolatileRead()
    return iso(session.lastAccess + session.timeout)
  }

  /** 4D's `info` of a web user session: a new object at each read. */
  get info(): WebSessionInfo {
    const session = this.#session
    return {
      type: 'rest',
      userName: this.userName,
      creationDateTime: iso(session.createdAt),
      state: 'active',
      ID: session.id,
    }
  }
}
