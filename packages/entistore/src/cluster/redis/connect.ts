/**
 * @module `connectRedis`: the two ioredis connections of a participant (commands, and the
 * subscriber), made to fail fast (a request waiting for Redis gets 503 at once while it is down,
 * not a hang until it is back), with the scripts of redis-scripts.ts defined on the first.
 */
import { datastoreError, type Datastore } from '@entistore/core'
import type { Redis, RedisOptions } from 'ioredis'
import { importOptional } from '../optional-package.js'
import { withoutPassword } from '../redacted-url.js'
import {
  DEFAULT_COMMAND_TIMEOUT,
  DEFAULT_URL,
  messageOf,
  throttledLog,
  type RedisParticipantOptions,
} from './options.js'
import { RedisParticipant, type Commands } from './redis-participant.js'
import type { SessionWriteCommands } from './session-writes.js'
import type { LockCommands } from './lock-mirror.js'
import type { SessionCountCommands } from './redis-sessions.js'
import { ACQUIRE, CLOSE, HOLDER, LOCKS, RELEASE, RENEW, SAVE, SESSIONS } from './redis-scripts.js'

/** What defining the scripts adds to an ioredis client. */
type Scripts = SessionWriteCommands & LockCommands & SessionCountCommands

/**
 * @internal Defines the participant's scripts on `redis`, under the names the mirrors call them
 * by. The client, with them, is checked here to offer every command the mirrors' interfaces name.
 */
export function defineScripts(redis: Redis): Commands {
  redis.defineCommand('esAcquire', { numberOfKeys: 2, lua: ACQUIRE })
  redis.defineCommand('esRelease', { numberOfKeys: 2, lua: RELEASE })
  redis.defineCommand('esHolder', { numberOfKeys: 1, lua: HOLDER })
  redis.defineCommand('esLocks', { numberOfKeys: 1, lua: LOCKS })
  redis.defineCommand('esSave', { numberOfKeys: 1, lua: SAVE })
  redis.defineCommand('esClose', { numberOfKeys: 2, lua: CLOSE })
  redis.defineCommand('esRenew', { numberOfKeys: 3, lua: RENEW })
  redis.defineCommand('esSessions', { numberOfKeys: 0, lua: SESSIONS })
  const scripted: Redis & Scripts = redis as Redis & Scripts
  return scripted
}

/**
 * Connects to Redis and shares `ds`'s sessions, locks and entity sets through it. Needs the
 * package `ioredis` (an optional peer dependency): without it, rejects with MissingPackageError
 * (`connectRedis needs the package ioredis: npm install ioredis`).
 */
export async function connectRedis(
  ds: Datastore,
  target: string | RedisParticipantOptions = {},
): Promise<RedisParticipant> {
  const options = typeof target === 'string' ? { url: target } : target
  // Loaded here, not when entistore is imported.
  const { Redis } = await importOptional({
    name: 'ioredis',
    neededBy: 'connectRedis',
    load: () => import('ioredis'),
  })
  const settings: RedisOptions = {
    ...options.redis,
    lazyConnect: true,
    // A request waiting for Redis gets 503 at once while it is down, not a hang until it is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  }
  const url = options.url ?? DEFAULT_URL
  const redis = new Redis(url, settings)
  const sub = new Redis(url, settings)
  const report = options.onError ?? throttledLog()
  // The first failure says why (ECONNREFUSED…); connect() itself rejects with a vaguer one.
  let first: unknown
  const starting = (error: unknown) => (first ??= error)
  redis.on('error', starting)
  sub.on('error', starting)
  const unavailable = (error: unknown) =>
    datastoreError('SharedStateUnavailable', [`Redis at ${withoutPassword(url)}`, messageOf(error)])
  try {
    await Promise.all([redis.connect(), sub.connect()])
  } catch (error) {
    redis.disconnect()
    sub.disconnect()
    throw unavailable(first ?? error)
  }
  // ioredis reports a lost connection as an 'error' event too: without a listener, it logs it.
  for (const client of [redis, sub]) client.off('error', starting).on('error', report)
  const participant = new RedisParticipant(ds, defineScripts(redis), sub, options, report)
  try {
    await participant.listen()
  } catch (error) {
    await participant.close()
    throw unavailable(error)
  }
  return participant
}
