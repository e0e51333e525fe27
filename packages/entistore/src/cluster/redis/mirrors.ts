/**
 * @module The mirrors of one process, made and wired together on one command connection: what
 * the participant (redis-participant.ts) puts in front of requests, and what a test runs against
 * an in-memory Redis (fake-redis.fixture.ts), wired the same. Only the commands named by the
 * mirrors' interfaces are sent.
 */
import type { Datastore } from '@entistore/core'
import { unrefSchedule } from '@entistore/rest'
import { Following } from './following.js'
import { LockMirror, type LockCommands } from './lock-mirror.js'
import { DEFAULT_COMMAND_TIMEOUT, leaseMsOf, type RedisParticipantOptions } from './options.js'
import { PendingWrites } from './pending-writes.js'
import { Presence, type PresenceCommands } from './redis-presence.js'
import { SessionMirror, type SessionCommands } from './session-mirror.js'
import { SessionWrites, type SessionWriteCommands } from './session-writes.js'
import { SetMirror, type SetCommands } from './set-mirror.js'
import type { SessionCountCommands } from './redis-sessions.js'
import { Touches, type TouchCommands } from './touches.js'
import { decodeMessage, RedisKeys } from './wire.js'

/** Every command the mirrors and the presence send. */
export type MirrorCommands = SessionCommands &
  SessionWriteCommands &
  SessionCountCommands &
  LockCommands &
  SetCommands &
  TouchCommands &
  PresenceCommands

/** The mirrors of one process, and what they share. */
export interface Mirrors {
  readonly ds: Datastore
  readonly keys: RedisKeys
  readonly presence: Presence
  readonly pending: PendingWrites
  readonly touches: Touches
  readonly sessions: SessionMirror
  readonly sessionWrites: SessionWrites
  readonly locks: LockMirror
  readonly sets: SetMirror
  /** Starts writing through what requests do to the stores; answers the stops. */
  observe(): (() => void)[]
  /** A message heard on the `events` channel. */
  onMessage(text: string): void
}

/** The mirrors of `ds` on `redis`, with `options`' defaults (url, redis and onError unused). */
export function createMirrors(
  ds: Datastore,
  redis: MirrorCommands,
  options: RedisParticipantOptions,
  report: (error: unknown) => void,
): Mirrors {
  SessionMirror.check(ds)
  const leaseMs = leaseMsOf(options)
  const now = options.now ?? (() => performance.now())
  const schedule = options.schedule ?? unrefSchedule
  const keys = new RedisKeys(options.prefix ?? `entistore:${ds.name}:`)
  const resync = (): Promise<void> => sessions.resync()
  const prefix = keys.prefix
  const presence = new Presence(redis, { prefix, leaseMs, now, schedule, report, resync })
  const following = new Following()
  const pending = new PendingWrites(report)
  const touches: Touches = new Touches({
    ...{ redis, keys, pending, now: () => ds.clock.now() },
    sessionGone: (id) => sessions.gone(id),
    setGone: (id) => sets.gone(id),
  })
  const shared = { ds, redis, keys, pending, following }
  // A close is remembered for as long as a read answered before it may still be in flight.
  const tombMs = 2 * (options.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT) + leaseMs
  const sessions = new SessionMirror({ ...shared, presence, report, now, tombMs })
  const sessionWrites = new SessionWrites({ ...shared, sessions, presence, touches, report })
  const locks = new LockMirror({ ...shared, sessions })
  const sets = new SetMirror({ ...shared, origin: presence.id, touches })
  return {
    ...{ ds, keys, presence, pending, touches, sessions, sessionWrites, locks, sets },
    observe: () => [...sessionWrites.observe(), locks.observe(), sets.observe()],
    onMessage(text) {
      const message = decodeMessage(text)
      if (message === undefined || message.o === presence.id) return
      if (message.t === 'set-released') sets.gone(message.id)
      else sessions.onMessage(message)
    },
  }
}
