/**
 * @module 4D 21 R5's web server quotas, by 4D's names (`QuotaManager.json`, `WebServer.quotas`):
 * what each one bounds, how a value is checked, and the live settings a running server reads at
 * each request (`RestHandler.quotas`). Undefined: the quota is not enforced. A value must be a
 * whole number above 0; 4D refuses anything else with an error and keeps the value it had.
 */
import { systemClock, type Clock } from '@entistore/core'

/** The server-wide quotas: rates in fixed windows, and concurrent sessions. */
export const SERVER_QUOTAS = [
  'nbRequestsPerMin',
  'nbRequestsPerHour',
  'inBytesPerMin',
  'inBytesPerHour',
  'outBytesPerMin',
  'outBytesPerHour',
  'nbSessions',
  'nbGuestSessions',
] as const

/** The defaults of each new session: rates in fixed windows, and its entity sets (REST). */
export const SESSION_QUOTAS = [
  'nbRequestsPerMinPerSession',
  'nbRequestsPerHourPerSession',
  'inBytesPerMinPerSession',
  'inBytesPerHourPerSession',
  'outBytesPerMinPerSession',
  'outBytesPerHourPerSession',
  'nbEntitySetsPerSession',
] as const

export type WebQuotaName = (typeof SERVER_QUOTAS)[number] | (typeof SESSION_QUOTAS)[number]

/** Every quota, each undefined (not enforced) or a whole number above 0. */
export type WebQuotas = { -readonly [N in WebQuotaName]?: number | undefined }

const NAMES: ReadonlySet<string> = new Set<string>([...SERVER_QUOTAS, ...SESSION_QUOTAS])

/** Why `value` cannot be quota `name`, or undefined when it can. */
export function quotaProblem(name: string, value: unknown): string | undefined {
  if (!NAMES.has(name))
    return `${JSON.stringify(name)} is not a web server quota (${[...NAMES].join(', ')})`
  if (value === undefined) return undefined
  return Number.isSafeInteger(value) && (value as number) > 0
    ? undefined
    : `${name} must be a whole number above 0, not ${JSON.stringify(value) ?? String(value)}`
}

/**
 * `value` read as quotas (a `QuotaManager.json`'s object, an option): every member named and
 * valued as 4D takes them.
 * @throws TypeError naming the first member that is not, as `where.name: why`
 */
export function readWebQuotas(value: unknown, where = 'quotas'): WebQuotas {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError(`${where}: a JSON object of quotas is expected`)
  const quotas: WebQuotas = {}
  for (const [name, v] of Object.entries(value)) {
    // JSON has no undefined: null leaves a quota out, as undefined does in 4D code.
    const given = v === null ? undefined : v
    const problem = quotaProblem(name, given)
    if (problem !== undefined) throw new TypeError(`${where}.${name}: ${problem}`)
    if (given !== undefined) quotas[name as WebQuotaName] = given as number
  }
  return quotas
}

/** What a live quotas object holds besides its values: when each was last set. */
interface Live {
  readonly values: ReadonlyMap<string, number>
  /** By name, the clock's time of its last change at run time (absent: set from the start). */
  readonly since: ReadonlyMap<string, number>
}

const LIVE = new WeakMap<WebQuotas, Live>()

/**
 * Whether `quotas` enforce nothing: a server without quotas pays one lookup a request for them.
 */
export function enforcesNone(quotas: WebQuotas): boolean {
  const live = LIVE.get(quotas)
  return live ? live.values.size === 0 : Object.values(quotas).every((v) => v === undefined)
}

/**
 * When quota `name` of `quotas` was last changed at run time, on their clock; -Infinity when it
 * holds its value from the start (or `quotas` are not live).
 */
export function changedAt(quotas: WebQuotas, name: WebQuotaName): number {
  return LIVE.get(quotas)?.since.get(name) ?? -Infinity
}

/** `quotas` themselves when they are live (`liveQuotas`), else live quotas holding their values. */
export function asLiveQuotas(quotas: WebQuotas | undefined, clock?: Clock): WebQuotas {
  return quotas !== undefined && LIVE.has(quotas) ? quotas : liveQuotas(quotas, clock)
}

/**
 * The quotas a running server enforces (4D's `WebServer.quotas`): each one read and written under
 * its name. A write that 4D refuses throws a RangeError and keeps the old value; undefined stops
 * enforcing the quota. A change applies to the next request; a per-session one to the sessions
 * opened from then on (its time is read on `clock`).
 */
export function liveQuotas(initial: WebQuotas = {}, clock: Clock = systemClock): WebQuotas {
  const values = new Map<string, number>()
  const since = new Map<string, number>()
  const live = {} as WebQuotas
  LIVE.set(live, { values, since })
  let started = false
  for (const name of NAMES)
    Object.defineProperty(live, name, {
      enumerable: true,
      get: () => values.get(name),
      set: (value: unknown) => {
        const problem = quotaProblem(name, value)
        if (problem !== undefined) throw new RangeError(`quotas.${problem}`)
        if (value === undefined) values.delete(name)
        else values.set(name, value as number)
        if (started) since.set(name, clock.now())
      },
    })
  for (const [name, value] of Object.entries(readWebQuotas(initial)))
    live[name as WebQuotaName] = value
  started = true
  return Object.seal(live)
}
