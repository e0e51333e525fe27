/**
 * @module Failed logins, counted per user name and per client address, so that passwords cannot be
 * tried at the speed of the server. A few failures are free; past them each failure makes its user
 * name and its address wait, the wait doubling with each one up to a cap, and a login asked while
 * either must wait is refused unchecked (429 with `Retry-After`). A successful login forgets its
 * user name's failures, not its address's: an attacker who owns one account cannot clear the count
 * of the address it tries the others from. Failures are forgotten after a quiet while.
 *
 * Time is the datastore's clock (tests move it). Memory is bounded: each table keeps its most
 * recent `maxEntries` names or addresses (an LRU), so a flood of new names forgets the oldest,
 * never grows.
 */
import { datastoreError, type Clock } from '@entistore/core'
import { LRUCache } from 'lru-cache'

export interface LoginThrottleOptions {
  /** Failed logins a user name, or an address, may make before it must wait. @default 5 */
  readonly freeAttempts?: number
  /** The wait after the first failure past the free ones, in ms; each further one doubles it. @default 1000 */
  readonly baseDelayMs?: number
  /** The longest wait, in ms. @default 300_000 (5 minutes) */
  readonly maxDelayMs?: number
  /** A name's or an address's failures are forgotten after this long without one, in ms. @default 3_600_000 */
  readonly forgetAfterMs?: number
  /** Most user names, and most addresses, remembered; the least recent are forgotten first. @default 10_000 */
  readonly maxEntries?: number
}

/** One user name's or address's failures. */
interface Failures {
  count: number
  /** When the last one was. */
  last: number
  /** Until when a login must wait (epoch ms on the clock). */
  until: number
}

// A user name is counted by its first characters, in lower case: `authenticate` may ignore case,
// and a name of 16 KB must not make a key of 16 KB. Names that share them share a count (slower
// for both, never faster).
const NAME_KEY_LENGTH = 256

export class LoginThrottle {
  readonly #clock: Clock
  readonly #free: number
  readonly #base: number
  readonly #max: number
  readonly #forget: number
  readonly #users: LRUCache<string, Failures>
  readonly #addresses: LRUCache<string, Failures>

  constructor(clock: Clock, options: LoginThrottleOptions = {}) {
    this.#clock = clock
    this.#free = options.freeAttempts ?? 5
    this.#base = options.baseDelayMs ?? 1000
    this.#max = options.maxDelayMs ?? 300_000
    this.#forget = options.forgetAfterMs ?? 3_600_000
    const max = options.maxEntries ?? 10_000
    if (!(this.#free >= 0) || !(this.#base > 0) || !(this.#max >= this.#base) || !(max >= 1))
      throw new RangeError(
        'loginThrottle: freeAttempts must be at least 0, baseDelayMs positive, maxDelayMs at least baseDelayMs, maxEntries at least 1',
      )
    // No TTL of lru-cache's own: its clock is not the datastore's; age is checked on reading.
    this.#users = new LRUCache({ max })
    this.#addresses = new LRUCache({ max })
  }

  /**
   * Refuses a login (LoginThrottled, 429 with its Retry-After) while the user name or the address
   * must wait. Either may be unknown.
   */
  check(user: string | undefined, address: string | undefined): void {
    const now = this.#clock.now()
    const until = Math.max(
      this.#read(this.#users, nameKey(user), now)?.until ?? 0,
      this.#read(this.#addresses, addressKey(address), now)?.until ?? 0,
    )
    if (until <= now) return
    const seconds = Math.ceil((until - now) / 1000)
    throw datastoreError('LoginThrottled', [seconds], { details: { retryAfter: seconds } })
  }

  /** Counts a failed login against the user name and the address. */
  failed(user: string | undefined, address: string | undefined): void {
    const now = this.#clock.now()
    this.#count(this.#users, nameKey(user), now)
    this.#count(this.#addresses, addressKey(address), now)
  }

  /** A successful login: its user name's failures are forgotten (its address's are not). */
  succeeded(user: string | undefined): void {
    const key = nameKey(user)
    if (key !== undefined) this.#users.delete(key)
  }

  /** The failures under `key`, if any are still remembered at `now`. */
  #read(table: LRUCache<string, Failures>, key: string | undefined, now: number) {
    if (key === undefined) return undefined
    const entry = table.get(key)
    if (entry && now - entry.last >= this.#forget) {
      table.delete(key)
      return undefined
    }
    return entry
  }

  #count(table: LRUCache<string, Failures>, key: string | undefined, now: number): void {
    if (key === undefined) return
    let entry = this.#read(table, key, now)
    if (!entry) table.set(key, (entry = { count: 0, last: now, until: 0 }))
    entry.count++
    entry.last = now
    const past = entry.count - this.#free
    // 2^30 past the base is beyond any cap: the exponent stops there rather than reach Infinity.
    if (past > 0) entry.until = now + Math.min(this.#base * 2 ** Math.min(past - 1, 30), this.#max)
  }
}

function nameKey(user: string | undefined): string | undefined {
  return user === undefined ? undefined : user.slice(0, NAME_KEY_LENGTH).toLowerCase()
}

/**
 * The address a failure counts against: an IPv4 address as it is, an IPv6 one by its /64 network
 * (one subscriber is usually given a whole /64, and would otherwise have 2^64 fresh addresses).
 */
export function addressKey(address: string | undefined): string | undefined {
  if (address === undefined || address === '') return undefined
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]
  if (!address.includes(':')) return address
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const split = (part: string | undefined): string[] =>
    // An IPv4 address at the end (`::1.2.3.4`) holds two groups.
    !part ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]))
  const left = split(head)
  const right = split(tail)
  // `::` stands for the zero groups that make eight.
  const zeros =
    tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0')
  const groups = [...left, ...zeros, ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
