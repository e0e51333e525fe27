/**
 * @module The web server quotas' counts shared through Redis (`--redis`): what a process counted in
 * a turn goes out in one pipeline, an INCRBY on the key of each quota and window, with the time left
 * in the window as its TTL; each INCRBY's answer is the count of every process, of which the others'
 * part is what this process has not sent itself. A request never waits for Redis: it is checked on
 * this process's own counts plus the others' as of its last report. Redis unreachable, the counts
 * of that turn are lost to the others (reported once, throttled) and each process counts its own.
 */
import { BatchedCounts, type CountEntry, type Defer } from '@entistore/rest'
import type { Redis } from 'ioredis'
import type { RedisKeys } from './wire.js'

/** The quota counts of the process whose command connection is `redis`, shared through it. */
export function redisQuotaCounts(
  redis: Redis,
  keys: RedisKeys,
  now: () => number,
  report: (error: unknown) => void,
  defer?: Defer,
): BatchedCounts {
  // By key, what this process has sent (the part of Redis's count that is its own) until when.
  const sent = new Map<string, [own: number, end: number]>()
  let nextPrune = Infinity
  const send = (counts: CountEntry[]): void => {
    const at = now()
    if (at >= nextPrune) {
      nextPrune = Infinity
      for (const [key, [, end]] of sent)
        if (end <= at) sent.delete(key)
        else nextPrune = Math.min(nextPrune, end)
    }
    const batch = redis.pipeline()
    const mine: number[] = []
    for (const [key, amount, end] of counts) {
      const own = (sent.get(key)?.[0] ?? 0) + amount
      sent.set(key, [own, end])
      nextPrune = Math.min(nextPrune, end)
      mine.push(own)
      batch.incrby(keys.quota(key), amount).pexpire(keys.quota(key), Math.max(1, end - at))
    }
    batch.exec().then(
      (answers) => {
        const others: CountEntry[] = []
        counts.forEach(([key, , end], i) => {
          const [error, total] = answers?.[i * 2] ?? [new Error('no answer')]
          if (error) return report(error)
          others.push([key, Number(total) - mine[i]!, end])
        })
        shared.heard(others)
      },
      (error: unknown) => report(error),
    )
  }
  const shared = new BatchedCounts(send, now, defer)
  return shared
}
