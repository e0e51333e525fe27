/**
 * @module What `connectRedis` and `--redis <url>` are given: the options, their defaults, and the
 * default report of failures no request waits for.
 */
import type { ConnectionOptions } from 'node:tls'
import type { Schedule } from '@entistore/rest'

/**
 * ioredis's connection options (its `RedisOptions`), passed to it as given. Declared here, the
 * same as ioredis's, so that entistore's types compile without ioredis installed; a value typed as
 * ioredis's own `RedisOptions` may be given too, with its other options.
 */
export interface RedisClientOptions {
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly path?: string | undefined
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly db?: number | undefined
  /** TLS: Node's `tls.connect` options (`ca`, `servername`…); `rediss://` turns it on too. */
  readonly tls?: ConnectionOptions | undefined
  readonly family?: number | undefined
  readonly connectionName?: string | undefined
  readonly connectTimeout?: number | undefined
  readonly keepAlive?: number | undefined
  readonly noDelay?: boolean | undefined
  /** Sentinel: the sentinels to ask, and the name of the master they watch. */
  readonly sentinels?: Array<Partial<{ host: string; port: number; family: number }>> | undefined
  readonly name?: string | undefined
  readonly role?: 'master' | 'slave' | undefined
  readonly sentinelUsername?: string | undefined
  readonly sentinelPassword?: string | undefined
  readonly sentinelTLS?: ConnectionOptions | undefined
  readonly enableTLSForSentinelMode?: boolean | undefined
}

export interface RedisParticipantOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). @default 'redis://127.0.0.1:6379' */
  readonly url?: string
  /** More ioredis options (TLS, Sentinel…); the participant sets its own for failing fast. */
  readonly redis?: RedisClientOptions
  /** Prefix of every key and of the channel. @default `entistore:<application name>:` */
  readonly prefix?: string
  /** The session cookie's name, as the REST handler's option. @default `4DSID_<application name>` */
  readonly sessionCookieName?: string
  /** How long a Redis command may take before the request that waits for it gets 503. @default 2000 */
  readonly commandTimeout?: number
  /**
   * The bound of read-your-writes of sessions, in milliseconds: how long a lease lasts (a process
   * that has not heard its heartbeat back for that long reads sessions from Redis before
   * answering), and how long a session's change waits for a process to acknowledge it.
   * @default 2000
   */
  readonly leaseMs?: number
  /** Milliseconds of a monotonic clock (the leases' clock). @default performance.now */
  readonly now?: () => number
  /** Runs the heartbeats and the acknowledgement waits. @default setTimeout, unref'd */
  readonly schedule?: Schedule
  /**
   * Told of a failure that no request waits for (a touch or release that could not be written).
   * @default a line on stderr, at most one every 10 seconds
   */
  readonly onError?: (error: unknown) => void
}

export const DEFAULT_URL = 'redis://127.0.0.1:6379'
export const DEFAULT_COMMAND_TIMEOUT = 2000

/** The lease of `options`, checked: an integer of 4 ms or more (a heartbeat every quarter). */
export function leaseMsOf(options: RedisParticipantOptions): number {
  const leaseMs = options.leaseMs ?? 2000
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 4)
    throw new TypeError(`redis: leaseMs must be an integer of 4 or more: ${leaseMs}`)
  return leaseMs
}

/** A line on stderr per failure, at most one every 10 seconds (an outage fails every touch). */
export function throttledLog(): (error: unknown) => void {
  let last = 0
  return (error) => {
    const now = Date.now()
    if (now - last < 10_000) return
    last = now
    process.stderr.write(`entistore: redis: ${messageOf(error)}\n`)
  }
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
