/**
 * @module What the processes write to Redis and tell each other: the key names and the JSON of a
 * session, a lock, an entity set and a message, each encoded and decoded here alone. The field
 * names are short and must stay as they are: processes of an older entistore read the same keys
 * (and the Lua scripts, redis-scripts.ts, read `i` of a lock and write `v` of a session).
 */
import type { KeyValue, Lock, Session, SetAccess, SetOwner, StoredSet } from '@entistore/core'

/** A session as Redis holds it, under `s:<id>`, with its inactivity timeout as its TTL. */
export interface SharedSession {
  /** Its version, given by the scripts from the `version` counter (absent: an older writer's). */
  readonly v: number
  /** When it was created (ms since the epoch). */
  readonly c: number
  /** Its inactivity timeout in ms. */
  readonly t: number
  /** Whether it is established (1): a login, or a function's session storage. */
  readonly e: 0 | 1
  /** Its data's entries (the user, a function's session storage), absent when none. */
  readonly d?: [string, unknown][]
}

/** A lock as Redis holds it, under `l:<dataclass>:<key as JSON>`; it lives as its owner's session. */
export interface SharedLock {
  /** The id of the session that holds it. */
  readonly i: string
  /** The entity's dataclass. */
  readonly d: string
  /** The entity's key. */
  readonly k: KeyValue
  /** The owner's client info, for `lockInfo`. */
  readonly n?: Lock['owner']['info']
}

/** An entity set as Redis holds it, under `e:<id>`: keys, not row ids (those are a process's own). */
export interface SharedSet {
  /** Its dataclass. */
  readonly dc: string
  /** Its members' entity keys in order; null for a member deleted when it was kept. */
  readonly k: (KeyValue | null)[]
  /** Whether it is sorted. */
  readonly s: boolean
  /** Its timeout in ms. */
  readonly t: number
  /** Its saved filter and order, when it has them. */
  readonly f?: string
  readonly o?: string
  /** Its owner: kind, id, user. Without it (a set written before owners were), the process. */
  readonly w?: { readonly k: SetOwner['kind']; readonly i: string; readonly u?: string }
  /** The view that made it and what its making needed (core's StoredSet `view`, `access`). */
  readonly v?: string
  readonly a?: SetAccess
}

/**
 * What processes tell each other on `events`: `o` the sender, `n` the number its acknowledgement
 * names (a session's change), the session as written (`s`) or the version of its close (`v`).
 */
export type Message =
  | {
      readonly o: string
      readonly n: number
      readonly t: 'session'
      readonly id: string
      readonly s: SharedSession
    }
  | {
      readonly o: string
      readonly n: number
      readonly t: 'closed'
      readonly id: string
      readonly v: number
    }
  | { readonly o: string; readonly t: 'set-released'; readonly id: string }

/** The names of the keys and of the channel under one prefix (see redis-scripts.ts). */
export class RedisKeys {
  /** The channel of what processes tell each other. */
  readonly channel: string
  /** The set of lock key names, for a refresh. */
  readonly locks: string
  /** The key that signs entity-set ids to their owners, one for every process. */
  readonly setIdKey: string

  constructor(readonly prefix: string) {
    this.channel = `${prefix}events`
    this.locks = `${prefix}locks`
    this.setIdKey = `${prefix}set-id-key`
  }

  session(id: string): string {
    return `${this.prefix}s:${id}`
  }

  /** A web server quota's count in one window (`RateCounts`' key: scope, quota, window start). */
  quota(key: string): string {
    return `${this.prefix}q:${key}`
  }

  set(id: string): string {
    return `${this.prefix}e:${id}`
  }

  lock(dataClass: string, key: KeyValue): string {
    return `${this.prefix}l:${lockId(dataClass, key)}`
  }

  /**
   * The lists of set ids kept per owner: the session's (`os:`), and its user's (`ou:`: any session
   * of theirs manages the sets, and `$info` lists them). None for the process's own sets.
   */
  owners(owner: SetOwner): string[] {
    if (owner.kind !== 'session') return []
    const keys = [`${this.prefix}os:${owner.id}`]
    if (owner.user !== undefined) keys.push(`${this.prefix}ou:${owner.user}`)
    return keys
  }
}

/** A lock's dataclass and key as one string (keys are numbers or strings: JSON tells them apart). */
export const lockId = (dataClass: string, key: KeyValue): string =>
  `${dataClass}:${JSON.stringify(key)}`

/**
 * The session as Redis holds it, but its version (the script puts it first): its data whole, or
 * only the entries named in `only`. Throws for data that JSON cannot carry.
 */
export function encodeSession(session: Session, only?: readonly string[]): string {
  const data = only ? [...session.data].filter(([key]) => only.includes(key)) : [...session.data]
  const shared: Omit<SharedSession, 'v'> = {
    c: session.createdAt,
    t: session.timeout,
    e: session.established ? 1 : 0,
    ...(data.length > 0 ? { d: data } : {}),
  }
  return JSON.stringify(shared)
}

export const decodeSession = (json: string): SharedSession => JSON.parse(json) as SharedSession

/**
 * The version of a session read from Redis: 0 when there is none; one written before sessions had
 * versions (by an older entistore) counts as older than any written since.
 */
export const versionOf = (s: SharedSession | null): number => (s === null ? 0 : (s.v ?? 0.5))

export function encodeLock(lock: SharedLock): string {
  const { i, d, k, n } = lock
  return JSON.stringify({ i, d, k, ...(n ? { n } : {}) } satisfies SharedLock)
}

/** The lock of a session's owner: `info` left out when there is none. */
export const sharedLock = (
  sid: string,
  dataClass: string,
  key: KeyValue,
  info: Lock['owner']['info'] | undefined,
): SharedLock => ({ i: sid, d: dataClass, k: key, ...(info ? { n: info } : {}) })

export const decodeLock = (json: string): SharedLock => JSON.parse(json) as SharedLock

/** A set kept here as Redis holds it, its members given as `keys` (null: deleted here). */
export function encodeSet(set: StoredSet, keys: (KeyValue | null)[]): string {
  const { kind, id, user } = set.owner
  const shared: SharedSet = {
    dc: set.dataClass,
    k: keys,
    s: set.sorted,
    t: set.timeout,
    ...(set.savedFilter === undefined ? {} : { f: set.savedFilter }),
    ...(set.savedOrderBy === undefined ? {} : { o: set.savedOrderBy }),
    w: { k: kind, i: id, ...(user === undefined ? {} : { u: user }) },
    ...(set.view === undefined ? {} : { v: set.view, a: set.access ?? 'unknown' }),
  }
  return JSON.stringify(shared)
}

/** A set read from Redis, with its fields named. */
export interface DecodedSet {
  readonly dataClass: string
  readonly keys: readonly (KeyValue | null)[]
  readonly sorted: boolean
  readonly timeout: number
  readonly owner: SetOwner
  readonly savedFilter?: string
  readonly savedOrderBy?: string
  /** The view that made it (null: none, the process) and what its making needed. */
  readonly view: string | null
  readonly access?: SetAccess
}

export function decodeSet(json: string): DecodedSet {
  const shared = JSON.parse(json) as SharedSet
  const w = shared.w
  return {
    dataClass: shared.dc,
    keys: shared.k,
    sorted: shared.s,
    timeout: shared.t,
    owner: w
      ? { kind: w.k, id: w.i, ...(w.u === undefined ? {} : { user: w.u }) }
      : { kind: 'process', id: 'process' },
    ...(shared.f === undefined ? {} : { savedFilter: shared.f }),
    ...(shared.o === undefined ? {} : { savedOrderBy: shared.o }),
    // A set of a session written without its view (by an older process): code's, its view unknown.
    view: shared.v ?? (w && w.k !== 'process' ? '' : null),
    ...(shared.v === undefined ? {} : { access: shared.a ?? 'unknown' }),
  }
}

/**
 * The beginning of a message telling the others of session `id` (the script ends it with the
 * session as written, or the version of its close).
 */
export function toldStart(origin: string, n: number, t: 'session' | 'closed', id: string): string {
  return `{"o":${JSON.stringify(origin)},"n":${n},"t":"${t}","id":${JSON.stringify(id)}`
}

export const setReleasedMessage = (origin: string, id: string): string =>
  JSON.stringify({ o: origin, t: 'set-released', id } satisfies Message)

/** A message heard on `events`, or undefined when it is not JSON. */
export function decodeMessage(text: string): Message | undefined {
  try {
    return JSON.parse(text) as Message
  } catch {
    return undefined
  }
}
