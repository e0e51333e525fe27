/**
 * @module For the fault tests of the cluster (faults.test.ts): sessions that contend for the lock
 * of one entity while the fault happens, and the proof that the lock was never held by two at once.
 *
 * Each session (a cookie of its own, every request on a fresh connection, so that consecutive
 * requests reach different processes) loops: `GET /rest/Item(k)?%24lock=true` (percent-encoded,
 * as form encoding allows); when the reply says `result: true`, it holds the lock a moment, then
 * sends `$lock=false`. A lock is **granted twice** when a session's grant was sent after another
 * session's grant was answered, and answered before that other session sent its release: the two
 * held it at the same time, whatever the clocks of the processes say. That is the only overlap
 * the clients can prove, so it is the one counted; a refusal (a 503, a dead connection) is not one.
 */
import { send, type Answer } from '../../../rest/src/node/conformance.fixture.js'
import { postJson } from './fault-load.fixture.js'

export interface LockLedger {
  /** Grants answered `result: true`. */
  granted: number
  /** Answered `result: false` (held by another session). */
  refused: number
  /** Anything else: a 503, a dead connection, a timeout (a fault may cause them). */
  failed: number
  /** Each grant that overlapped another session's hold (see the module comment). */
  readonly twice: {
    readonly session: number
    readonly other: number
    readonly sentAt: number
    readonly answeredAt: number
    readonly otherSince: number
  }[]
}

export interface LockContention {
  readonly ledger: LockLedger
  stop(): Promise<LockLedger>
}

/** The name of the entity the sessions contend for (created by startLockContention). */
export const LOCK_TARGET = 'lock-target'

/** How long a session holds the lock once granted. */
const HOLD_MS = 20
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `exchange`'s answer, or undefined when its connection died or `timeoutMs` passed. */
async function sendWithin(
  url: string,
  exchange: Parameters<typeof send>[1],
  timeoutMs: number,
): Promise<Answer | undefined> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs)
  })
  const answer = await Promise.race([send(url, exchange).catch(() => undefined), late])
  clearTimeout(timer)
  return answer
}

const cookieOf = (a: Answer): string | undefined => {
  const set = a.headers['set-cookie']
  const first = Array.isArray(set) ? set[0] : set
  return typeof first === 'string' ? first.split(';')[0] : undefined
}

const resultOf = (a: Answer | undefined): boolean | undefined => {
  if (a?.status !== 200) return undefined
  try {
    const body = JSON.parse(a.body.toString('utf8')) as { result?: unknown }
    return typeof body.result === 'boolean' ? body.result : undefined
  } catch {
    return undefined
  }
}

/** Starts `sessions` sessions contending for one new entity's lock through `url`, until `stop`. */
export async function startLockContention(
  url: string,
  { sessions = 2, requestTimeoutMs = 10_000 } = {},
): Promise<LockContention> {
  const made = await send(url, postJson('/rest/Item?$method=update', { name: LOCK_TARGET }))
  const key = String((JSON.parse(made.body.toString('utf8')) as { __KEY: string }).__KEY)
  const ledger: LockLedger = { granted: 0, refused: 0, failed: 0, twice: [] }
  // The sessions holding the lock now, as their clients know it: since when (the grant's answer).
  const holding = new Map<number, number>()
  let stopped = false

  const session = async (s: number): Promise<void> => {
    let cookie: string | undefined
    const lockRequest = (wanted: boolean) => ({
      target: `/rest/Item(${key})?%24lock=${wanted}`,
      headers: {
        'content-type': 'application/json',
        ...(cookie === undefined ? {} : { cookie }),
      },
    })
    while (!stopped) {
      const sentAt = Date.now()
      const answer = await sendWithin(url, lockRequest(true), requestTimeoutMs)
      const answeredAt = Date.now()
      if (answer) cookie = cookieOf(answer) ?? cookie
      const result = resultOf(answer)
      if (result === undefined) {
        ledger.failed++
        await pause(HOLD_MS)
        continue
      }
      if (!result) {
        ledger.refused++
        await pause(HOLD_MS / 2)
        continue
      }
      ledger.granted++
      for (const [other, since] of holding)
        if (since < sentAt)
          ledger.twice.push({ session: s, other, sentAt, answeredAt, otherSince: since })
      holding.set(s, answeredAt)
      await pause(HOLD_MS)
      // No longer sure to hold it from the moment the release is sent.
      holding.delete(s)
      await sendWithin(url, lockRequest(false), requestTimeoutMs)
    }
  }

  const running = Promise.all(Array.from({ length: sessions }, (_, s) => session(s)))
  return {
    ledger,
    async stop() {
      stopped = true
      await running
      return ledger
    },
  }
}
