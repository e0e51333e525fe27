/**
 * @module An in-memory Redis of the few commands the mirrors send (the interfaces of
 * mirrors.ts's `MirrorCommands`), for tests that run without a server: strings and sets with
 * TTLs (and the sorted set of the scripts' index of sessions) on an injectable clock (a key is gone once its time is reached, as Redis's lazy expiry
 * makes it look), MULTI and pipelines run in one step, PUBLISH to in-process listeners, and the
 * participant's Lua scripts (redis-scripts.ts) written again in TypeScript, step for step.
 * scripts-agree.test.ts runs the same calls here and on a real server and compares the answers;
 * fake-cluster.fixture.ts runs processes' mirrors on it. Test-only.
 */
import type { MirrorCommands } from './mirrors.js'

/** A string, a set, or a sorted set (member → score). */
type Value = string | Set<string> | Map<string, number>

interface Entry {
  value: Value
  /** When it expires, on the fake's clock (ms); undefined: never. */
  expireAt: number | undefined
}

/** One command of a MULTI or pipeline, with its arguments. */
type Queued = () => unknown

/** A MULTI or pipeline: commands queued, run together by `exec` (an answer per command). */
export class FakeBatch {
  readonly #redis: FakeRedis
  readonly #queued: Queued[] = []

  constructor(redis: FakeRedis) {
    this.#redis = redis
  }

  #add(command: Queued): this {
    this.#queued.push(command)
    return this
  }

  get(key: string): this {
    return this.#add(() => this.#redis.getNow(key))
  }

  pttl(key: string): this {
    return this.#add(() => this.#redis.pttlNow(key))
  }

  set(key: string, value: string, ...options: (string | number)[]): this {
    return this.#add(() => this.#redis.setNow(key, value, options))
  }

  sadd(key: string, ...members: string[]): this {
    return this.#add(() => this.#redis.saddNow(key, members))
  }

  srem(key: string, ...members: string[]): this {
    return this.#add(() => this.#redis.sremNow(key, members))
  }

  del(key: string): this {
    return this.#add(() => this.#redis.delNow(key))
  }

  pexpire(key: string, ms: number, when?: 'NX' | 'GT'): this {
    return this.#add(() => this.#redis.pexpireNow(key, ms, when))
  }

  publish(channel: string, message: string): this {
    return this.#add(() => this.#redis.publishNow(channel, message))
  }

  /** Runs every command queued, in one step (nothing else runs between them). */
  exec(): Promise<[Error | null, unknown][]> {
    return this.#redis.run(() =>
      this.#queued.map((command): [Error | null, unknown] => {
        try {
          return [null, command()]
        } catch (error) {
          return [error as Error, null]
        }
      }),
    )
  }
}

/**
 * The in-memory Redis. `now` is its clock in ms (a test's manual clock). `down = true` makes every
 * command reject, as a client does while its server cannot be reached.
 */
export class FakeRedis implements MirrorCommands {
  readonly #now: () => number
  readonly #keys = new Map<string, Entry>()
  readonly #listeners = new Map<string, Set<(message: string) => void>>()
  /** Every command rejects while true (the server is down). */
  down = false
  #frozen: number | undefined

  constructor(now: () => number) {
    this.#now = now
  }

  /**
   * Runs `fn` as a command's answer: asynchronously, or rejected while `down`. Its time is one
   * (whole ms), as Redis 7 reads its clock once per script or MULTI.
   */
  async run<T>(fn: () => T): Promise<T> {
    await Promise.resolve()
    if (this.down) throw new Error('Connection is closed.')
    this.#frozen = Math.floor(this.#now())
    try {
      return fn()
    } finally {
      this.#frozen = undefined
    }
  }

  /** The time of the command running (whole ms). */
  #time(): number {
    return this.#frozen ?? Math.floor(this.#now())
  }

  /** Hears what is published on `channel` (a subscriber's view); answers the stop. */
  subscribe(channel: string, listener: (message: string) => void): () => void {
    const listeners = this.#listeners.get(channel) ?? new Set()
    this.#listeners.set(channel, listeners)
    listeners.add(listener)
    return () => listeners.delete(listener)
  }

  /** Every live key, sorted (what a test compares). */
  keys(): string[] {
    return [...this.#keys.keys()].filter((key) => this.#entry(key)).sort()
  }

  // ---- the commands, as a client sends them ----

  multi(): FakeBatch {
    return new FakeBatch(this)
  }

  pipeline(): FakeBatch {
    return new FakeBatch(this)
  }

  get(key: string): Promise<string | null> {
    return this.run(() => this.getNow(key))
  }

  set(key: string, value: string, ...options: (string | number)[]): Promise<'OK' | null> {
    return this.run(() => this.setNow(key, value, options))
  }

  pttl(key: string): Promise<number> {
    return this.run(() => this.pttlNow(key))
  }

  exists(key: string): Promise<number> {
    return this.run(() => (this.#entry(key) ? 1 : 0))
  }

  del(key: string): Promise<number> {
    return this.run(() => this.delNow(key))
  }

  smembers(key: string): Promise<string[]> {
    return this.run(() => this.smembersNow(key))
  }

  srem(key: string, ...members: string[]): Promise<number> {
    return this.run(() => this.sremNow(key, members))
  }

  publish(channel: string, message: string): Promise<number> {
    return this.run(() => this.publishNow(channel, message))
  }

  // ---- the scripts (redis-scripts.ts), each in one step ----

  esAcquire(...[lockKey, index, lock, sid, prefix]: Parameters<MirrorCommands['esAcquire']>) {
    return this.run(() => {
      const held = this.#heldByAnother(lockKey, prefix, (holder) => holder === sid)
      if (held === 'asker') return [1]
      if (held) return held
      if (!this.#entry(`${prefix}s:${sid}`)) return [-1]
      this.setNow(lockKey, lock, [])
      this.saddNow(index, [lockKey])
      return [1]
    })
  }

  esRelease(...[lockKey, index, sid, prefix]: Parameters<MirrorCommands['esRelease']>) {
    return this.run(() => {
      const held = this.#heldByAnother(lockKey, prefix, (holder) => sid === '' || holder === sid)
      if (held && held !== 'asker') return held
      this.delNow(lockKey)
      this.sremNow(index, [lockKey])
      return [1]
    })
  }

  esHolder(...[lockKey, prefix]: Parameters<MirrorCommands['esHolder']>) {
    return this.run(() => {
      const held = this.#heldByAnother(lockKey, prefix, () => false)
      return held && held !== 'asker' ? held : [1]
    })
  }

  esLocks(...[index, prefix]: Parameters<MirrorCommands['esLocks']>) {
    return this.run(() => {
      const out: unknown[] = []
      for (const key of this.smembersNow(index)) {
        const cur = this.getNow(key)
        const session = cur === null ? '' : `${prefix}s:${holderOf(cur)}`
        const pttl = cur === null ? -2 : this.pttlNow(session)
        if (pttl > 0) out.push(cur, this.getNow(session), pttl)
        else {
          this.delNow(key)
          this.sremNow(index, [key])
        }
      }
      return out
    })
  }

  esSave(
    ...[sessionKey, prefix, session, ttl, mode, message, user]: Parameters<MirrorCommands['esSave']>
  ) {
    return this.run(() => {
      const v = this.#incr(`${prefix}version`)
      const json = `{"v":${v},${session.slice(1)}`
      const id = sessionKey.slice(prefix.length + 2)
      if (mode === 'open') {
        this.setNow(sessionKey, json, ['PX', ttl])
        this.#indexed(prefix, id, ttl, user)
        this.#prune(prefix, 2)
        return [v]
      }
      if (this.setNow(sessionKey, json, ['PX', ttl, 'XX']) === null) return [0]
      this.#indexed(prefix, id, ttl, user)
      return this.#told(prefix, `${message},"s":${json}}`, v)
    })
  }

  esSessions(prefix: string) {
    return this.run(() => {
      this.#prune(prefix, 1000)
      return [this.#zset(`${prefix}sx`)?.size ?? 0, this.smembersNow(`${prefix}su`).length]
    })
  }

  esClose(...[sessionKey, index, sid, prefix, message]: Parameters<MirrorCommands['esClose']>) {
    return this.run(() => {
      this.delNow(sessionKey)
      this.#unindexed(prefix, sid)
      for (const key of this.smembersNow(index)) {
        const cur = this.getNow(key)
        if (cur === null || holderOf(cur) === sid) {
          this.delNow(key)
          this.sremNow(index, [key])
        }
      }
      const v = this.#incr(`${prefix}version`)
      return this.#told(prefix, `${message},"v":${v}}`, v)
    })
  }

  esRenew(
    ...[oldKey, newKey, index, oldSid, newSid, session, ttl, prefix, message, user]: Parameters<
      MirrorCommands['esRenew']
    >
  ) {
    return this.run(() => {
      const v = this.#incr(`${prefix}version`)
      this.setNow(newKey, `{"v":${v},${session.slice(1)}`, ['PX', ttl])
      this.#unindexed(prefix, oldSid)
      this.#indexed(prefix, newSid, ttl, user)
      if (this.delNow(oldKey) === 1) {
        // Edited in place, as the script does (cjson would round large numeric keys).
        const from = `"i":${cjsonString(oldSid)}`
        const to = `"i":${cjsonString(newSid)}`
        for (const key of this.smembersNow(index)) {
          const cur = this.getNow(key)
          if (cur === null || holderOf(cur) !== oldSid) continue
          const at = cur.indexOf(from)
          if (at >= 0) this.setNow(key, cur.slice(0, at) + to + cur.slice(at + from.length), [])
        }
      }
      return this.#told(prefix, `${message},"v":${v}}`, v)
    })
  }

  // ---- the commands run in one step (by a script, a MULTI or a pipeline) ----

  getNow(key: string): string | null {
    const entry = this.#entry(key)
    if (entry === undefined) return null
    if (typeof entry.value !== 'string') throw wrongType()
    return entry.value
  }

  /** SET with its options: `NX`, `XX`, `PX <ms>` (without PX, the key's TTL goes). */
  setNow(key: string, value: string, options: readonly (string | number)[]): 'OK' | null {
    let px: number | undefined
    let when: 'NX' | 'XX' | undefined
    for (let i = 0; i < options.length; i++) {
      const option = String(options[i]).toUpperCase()
      if (option === 'PX') px = Number(options[++i])
      else if (option === 'NX' || option === 'XX') when = option
      else throw new Error(`ERR syntax error: SET ${option}`)
    }
    if (px !== undefined && !(Number.isInteger(px) && px > 0))
      throw new Error('ERR invalid expire time in set')
    const exists = this.#entry(key) !== undefined
    if ((when === 'NX' && exists) || (when === 'XX' && !exists)) return null
    const expireAt = px === undefined ? undefined : this.#time() + px
    this.#keys.set(key, { value, expireAt })
    return 'OK'
  }

  /** The key's remaining life in ms: -2 when there is no key, -1 when it does not expire. */
  pttlNow(key: string): number {
    const entry = this.#entry(key)
    if (entry === undefined) return -2
    return entry.expireAt === undefined ? -1 : entry.expireAt - this.#time()
  }

  delNow(key: string): number {
    const existed = this.#entry(key) !== undefined
    this.#keys.delete(key)
    return existed ? 1 : 0
  }

  /** PEXPIRE: 1 when the TTL was set. NX: only a key without one; GT: only a longer one. */
  pexpireNow(key: string, ms: number, when?: 'NX' | 'GT'): number {
    const entry = this.#entry(key)
    if (entry === undefined) return 0
    const at = this.#time() + ms
    // A key without a TTL lives for ever: no TTL is greater than that.
    if (when === 'NX' && entry.expireAt !== undefined) return 0
    if (when === 'GT' && (entry.expireAt === undefined || at <= entry.expireAt)) return 0
    if (ms <= 0) return this.delNow(key)
    entry.expireAt = at
    return 1
  }

  saddNow(key: string, members: readonly string[]): number {
    const entry = this.#entry(key)
    if (entry !== undefined && !(entry.value instanceof Set)) throw wrongType()
    const set = (entry?.value as Set<string> | undefined) ?? new Set<string>()
    if (entry === undefined) this.#keys.set(key, { value: set, expireAt: undefined })
    const before = set.size
    for (const member of members) set.add(member)
    return set.size - before
  }

  sremNow(key: string, members: readonly string[]): number {
    const set = this.#set(key)
    if (set === undefined) return 0
    let removed = 0
    for (const member of members) if (set.delete(member)) removed++
    // Redis deletes a set left empty.
    if (set.size === 0) this.#keys.delete(key)
    return removed
  }

  smembersNow(key: string): string[] {
    return [...(this.#set(key) ?? [])]
  }

  /** Delivers `message` to the listeners of `channel` (after this turn, as a server's would). */
  publishNow(channel: string, message: string): number {
    const listeners = [...(this.#listeners.get(channel) ?? [])]
    queueMicrotask(() => {
      for (const listener of listeners) listener(message)
    })
    return listeners.length
  }

  #entry(key: string): Entry | undefined {
    const entry = this.#keys.get(key)
    if (entry?.expireAt !== undefined && entry.expireAt <= this.#time()) {
      this.#keys.delete(key)
      return undefined
    }
    return entry
  }

  #set(key: string): Set<string> | undefined {
    const entry = this.#entry(key)
    if (entry !== undefined && !(entry.value instanceof Set)) throw wrongType()
    return entry?.value as Set<string> | undefined
  }

  #incr(key: string): number {
    const n = Number(this.getNow(key) ?? 0) + 1
    const entry = this.#entry(key)
    this.#keys.set(key, { value: String(n), expireAt: entry?.expireAt })
    return n
  }

  /** The sorted set at `key` (made empty when `make` and there is none). */
  #zset(key: string, make = false): Map<string, number> | undefined {
    const entry = this.#entry(key)
    if (entry !== undefined && !(entry.value instanceof Map)) throw wrongType()
    if (entry !== undefined || !make) return entry?.value as Map<string, number> | undefined
    const zset = new Map<string, number>()
    this.#keys.set(key, { value: zset, expireAt: undefined })
    return zset
  }

  /** ZREM, the sorted set deleted when left empty (as Redis deletes it). */
  #zrem(key: string, member: string): void {
    const zset = this.#zset(key)
    if (zset?.delete(member) && zset.size === 0) this.#keys.delete(key)
  }

  // The scripts' index of open sessions (INDEX of redis-scripts.ts), step for step.
  #indexed(prefix: string, id: string, ttl: number, user: string): void {
    this.#zset(`${prefix}sx`, true)!.set(id, this.#time() + Number(ttl))
    if (user === '1') this.saddNow(`${prefix}su`, [id])
    else this.sremNow(`${prefix}su`, [id])
  }

  #unindexed(prefix: string, id: string): void {
    this.#zrem(`${prefix}sx`, id)
    this.sremNow(`${prefix}su`, [id])
  }

  #prune(prefix: string, n: number): void {
    const now = this.#time()
    // ZRANGEBYSCORE -inf now LIMIT 0 n: by score, then by member.
    const due = [...(this.#zset(`${prefix}sx`) ?? [])]
      .filter(([, score]) => score <= now)
      .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, n)
    for (const [id] of due) {
      const pttl = this.pttlNow(`${prefix}s:${id}`)
      if (pttl > 0) this.#zset(`${prefix}sx`)!.set(id, now + pttl)
      else this.#unindexed(prefix, id)
    }
  }

  /**
   * The scripts' look at a lock: 'asker' when `isAsker(its holder)`, the answer `{0, lock, its
   * session, TTL}` when another live session holds it, undefined when nobody does.
   */
  #heldByAnother(
    lockKey: string,
    prefix: string,
    isAsker: (holder: string) => boolean,
  ): unknown[] | 'asker' | undefined {
    const cur = this.getNow(lockKey)
    if (cur === null) return undefined
    const holder = holderOf(cur)
    if (isAsker(holder)) return 'asker'
    const session = `${prefix}s:${holder}`
    const pttl = this.pttlNow(session)
    return pttl > 0 ? [0, cur, this.getNow(session), pttl] : undefined
  }

  /** The scripts' `told`: published, and `{v, the processes serving...}` (the gone ones dropped). */
  #told(prefix: string, message: string, v: number): unknown[] {
    this.publishNow(`${prefix}events`, message)
    const out: unknown[] = [v]
    const index = `${prefix}members`
    for (const member of this.smembersNow(index))
      if (this.#entry(`${prefix}m:${member}`)) out.push(member)
      else this.sremNow(index, [member])
    return out
  }
}

const wrongType = () =>
  new Error('WRONGTYPE Operation against a key holding the wrong kind of value')

/** The session id a lock's JSON names (`cjson.decode(cur).i`). */
const holderOf = (lock: string): string => (JSON.parse(lock) as { i: string }).i

/** A string as Lua's cjson encodes it: as JSON.stringify does, and `/` escaped too. */
const cjsonString = (s: string): string => JSON.stringify(s).replaceAll('/', '\\/')
