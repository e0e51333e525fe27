/**
 * Concurrent writers over a real socket: many HTTP clients read an entity, then write it back with
 * the stamp they read, against one node:http server. The REST core answers each request whole and
 * synchronously, so requests never run at the same time inside the server; what these tests check
 * is what a client sees when other clients' requests land between its read and its write: a stale
 * stamp is refused (409, `__STATUS.status` 2) and saves nothing, so no acknowledged write is lost,
 * and an `$atomic` batch is saved whole or not at all.
 *
 * No sleeps and no timing assertions: the interleaving is whatever the event loop makes of 16
 * concurrent fetch loops, and every check holds for any interleaving. A barrier after the first
 * read makes stale stamps certain (several clients hold the same stamp of one entity), so the
 * refusal path is always exercised, not only when the scheduler happens to interleave.
 */
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { serveOnSocket } from '../node/serve.fixture.js'

const CLIENTS = 16
// Each test makes a few thousand HTTP requests: about two seconds alone, more on a 2-core machine
// busy with the rest of the suite. Nothing is timed: the project's bound turns a hang into a failure.

const model: ModelJson = {
  __NAME: 'bank',
  dataClasses: [
    {
      name: 'Account',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'counter', type: 'long' },
        { name: 'balance', type: 'long' },
      ],
    },
  ],
}

/**
 * A datastore of `accounts` accounts served over node:http on a free port. Internal errors (5xx)
 * are collected: a concurrent write must never become one.
 */
async function serve(accounts: number, balance: number) {
  const rows = Array.from({ length: accounts }, (_, i) => ({ ID: i + 1, counter: 0, balance }))
  const ds = createDatastore(model, {
    data: { Account: rows } as unknown as DataFile,
    clock: new ManualClock(),
  })
  const { base, internal } = await serveOnSocket(ds)
  return { ds, internal, base }
}

interface Answer {
  readonly status: number
  readonly json: Record<string, any>
}

/**
 * One HTTP client: it keeps the session cookie the server gives it, as a browser would, so that 16
 * clients are 16 sessions rather than one new session per request.
 */
function httpClient(base: string) {
  let cookie: string | undefined
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = {}
    if (cookie) headers.cookie = cookie
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(base + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const set = res.headers.getSetCookie()[0]
    if (set) cookie = set.slice(0, set.indexOf(';'))
    return { status: res.status, json: JSON.parse(await res.text()) as Record<string, any> }
  }
}

/** A seeded generator (mulberry32): each client's choices are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Resolves once `count` callers have arrived. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return () => {
    if (++arrived === count) open()
    return opened
  }
}

/** 2, 3, …, 1 + n: the stamps n acknowledged writes to an entity loaded at stamp 1 returned. */
const stampsAfter = (n: number) => Array.from({ length: n }, (_, i) => i + 2)

/** The errCodes of an `__ERROR` list. */
const codes = (json: Record<string, any>): number[] =>
  ((json.__ERROR ?? []) as { errCode: number }[]).map((e) => e.errCode)

describe('concurrent HTTP writers', () => {
  it('lose no update: every acknowledged write counts, every other one is a 409 status 2', async () => {
    const ENTITIES = 4
    const WRITES_PER_CLIENT = 24
    // A bound that a correct server never reaches (some writer always wins each round); it turns
    // a livelock or a server that refuses everything into a failure instead of a hung test.
    const MAX_ATTEMPTS = 2000
    const { ds, internal, base } = await serve(ENTITIES, 0)
    const acked = new Array<number>(ENTITIES + 1).fill(0)
    const ackedStamps: number[][] = Array.from({ length: ENTITIES + 1 }, () => [])
    const unexpected: { what: string; status: number; json: unknown }[] = []
    let conflicts = 0
    const firstReadDone = barrier(CLIENTS)

    const run = async (c: number): Promise<void> => {
      const call = httpClient(base)
      const rng = random(c + 1)
      let first = true
      for (let w = 0; w < WRITES_PER_CLIENT; w++) {
        // Client c starts on entity c % ENTITIES: four clients share each entity's first stamp.
        const k = first ? 1 + (c % ENTITIES) : 1 + Math.floor(rng() * ENTITIES)
        for (let attempt = 0; ; attempt++) {
          if (attempt === MAX_ATTEMPTS) {
            unexpected.push({ what: `client ${c}: no write acknowledged`, status: 0, json: null })
            return
          }
          const read = await call('GET', `/rest/Account(${k})`)
          if (read.status !== 200) {
            unexpected.push({ what: `GET Account(${k})`, status: read.status, json: read.json })
            return
          }
          if (first) {
            first = false
            await firstReadDone()
          }
          const stamp = read.json.__STAMP as number
          const r = await call('POST', '/rest/Account?$method=update', {
            __KEY: String(k),
            __STAMP: stamp,
            counter: (read.json.counter as number) + 1,
          })
          if (r.status === 200) {
            acked[k]!++
            ackedStamps[k]!.push(r.json.__STAMP as number)
            break
          }
          // A refusal shows the entity as stored now: it must have moved past the stamp we read.
          if (
            r.status === 409 &&
            r.json.__STATUS?.status === 2 &&
            r.json.__STATUS?.success === false &&
            (r.json.__STAMP as number) > stamp &&
            codes(r.json)[0] === 1263
          ) {
            conflicts++
            continue
          }
          unexpected.push({ what: `update Account(${k})`, status: r.status, json: r.json })
          return
        }
      }
    }

    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => run(c)))

    expect(unexpected).toEqual([])
    expect(internal).toEqual([])
    const total = acked.reduce((a, b) => a + b, 0)
    expect(total).toBe(CLIENTS * WRITES_PER_CLIENT)
    // The barrier leaves four clients holding stamp 1 of each entity: three of each are refused.
    expect(conflicts).toBeGreaterThanOrEqual(CLIENTS - ENTITIES)
    const call = httpClient(base)
    for (let k = 1; k <= ENTITIES; k++) {
      const e = (await call('GET', `/rest/Account(${k})`)).json
      expect({ k, counter: e.counter, stamp: e.__STAMP }).toEqual({
        k,
        counter: acked[k],
        stamp: 1 + acked[k]!,
      })
      // Each acknowledged write made its own version: no two clients were told the same stamp.
      expect(ackedStamps[k]!.sort((a, b) => a - b)).toEqual(stampsAfter(acked[k]!))
    }
    expect(ds.globalStamp).toBe(total)
    console.log(
      `concurrent updates: ${total} acknowledged writes, ` +
        `${conflicts} stale-stamp refusals, ${CLIENTS} clients`,
    )
  })

  it('saves an $atomic transfer whole or not at all: balances replay the acknowledged ones', async () => {
    const ACCOUNTS = 8
    const INITIAL = 1000
    const TRANSFERS_PER_CLIENT = 16
    const MAX_ATTEMPTS = 2000
    const UNKNOWN = 999_999
    const { ds, internal, base } = await serve(ACCOUNTS, INITIAL)
    const done: { from: number; to: number; amount: number }[] = []
    const ackedStamps: number[][] = Array.from({ length: ACCOUNTS + 1 }, () => [])
    const unexpected: { what: string; status: number; json: unknown }[] = []
    const refusedPoison = { unknownKey: 0, badType: 0, stale: 0 }
    let conflicts = 0
    const firstReadDone = barrier(CLIENTS)

    const run = async (c: number): Promise<void> => {
      const call = httpClient(base)
      const rng = random(1000 + c)
      let first = true
      for (let t = 0; t < TRANSFERS_PER_CLIENT; t++) {
        // The first transfer of every client is from account 1 to 2 + c % 7: all read stamp 1 of
        // account 1, so all but one of these batches hold a stale stamp on their first item.
        const from = first ? 1 : 1 + Math.floor(rng() * ACCOUNTS)
        const to = first
          ? 2 + (c % (ACCOUNTS - 1))
          : 1 + ((from + Math.floor(rng() * (ACCOUNTS - 1))) % ACCOUNTS)
        const amount = 1 + Math.floor(rng() * 50)
        // One batch in four is poisoned by a third item that must cancel the two good ones. Never
        // the first: sixteen clean batches on one stamp make fifteen certain stale refusals.
        const roll = rng()
        const poison = first
          ? undefined
          : roll < 0.125
            ? 'unknownKey'
            : roll < 0.25
              ? 'badType'
              : undefined
        // A third account that exists, so that a bad value is the only thing wrong with its item.
        let third = from
        while (third === from || third === to) third = (third % ACCOUNTS) + 1
        for (let attempt = 0; ; attempt++) {
          if (attempt === MAX_ATTEMPTS) {
            unexpected.push({
              what: `client ${c}: no transfer acknowledged`,
              status: 0,
              json: null,
            })
            return
          }
          const a = await call('GET', `/rest/Account(${from})`)
          const b = await call('GET', `/rest/Account(${to})`)
          if (a.status !== 200 || b.status !== 200) {
            unexpected.push({ what: 'GET', status: a.status, json: [a.json, b.json] })
            return
          }
          if (first) {
            first = false
            await firstReadDone()
          }
          const batch: Record<string, unknown>[] = [
            { __KEY: String(from), __STAMP: a.json.__STAMP, balance: a.json.balance - amount },
            { __KEY: String(to), __STAMP: b.json.__STAMP, balance: b.json.balance + amount },
          ]
          if (poison === 'unknownKey') batch.push({ __KEY: String(UNKNOWN), balance: 0 })
          if (poison === 'badType') batch.push({ __KEY: String(third), balance: 'a lot' })
          const r = await call('POST', '/rest/Account?$method=update&$atomic=true', batch)
          const errs = codes(r.json)
          const stale = r.status === 409 && errs[0] === 1263 && errs.at(-1) === 9041
          if (poison) {
            // Refused whole, whichever item failed first (a stale stamp comes before the poison).
            if (stale) refusedPoison.stale++
            else if (poison === 'unknownKey' && r.status === 404 && errs.join() === '1542,9041')
              refusedPoison.unknownKey++
            else if (poison === 'badType' && r.status === 400 && errs.join() === '1570,1517,9041')
              refusedPoison.badType++
            else
              unexpected.push({
                what: `poisoned (${poison}) batch`,
                status: r.status,
                json: r.json,
              })
            break
          }
          if (r.status === 200) {
            const [ea, eb] = r.json.__ENTITIES as Record<string, any>[]
            if (ea?.__STATUS?.success !== true || eb?.__STATUS?.success !== true) {
              unexpected.push({ what: 'transfer', status: r.status, json: r.json })
              return
            }
            done.push({ from, to, amount })
            ackedStamps[from]!.push(ea.__STAMP as number)
            ackedStamps[to]!.push(eb.__STAMP as number)
            break
          }
          if (stale) {
            conflicts++
            continue
          }
          unexpected.push({ what: 'transfer', status: r.status, json: r.json })
          return
        }
      }
    }

    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => run(c)))

    expect(unexpected).toEqual([])
    expect(internal).toEqual([])
    const poisoned = refusedPoison.unknownKey + refusedPoison.badType + refusedPoison.stale
    expect(done.length + poisoned).toBe(CLIENTS * TRANSFERS_PER_CLIENT)
    expect(refusedPoison.unknownKey).toBeGreaterThan(0)
    expect(refusedPoison.badType).toBeGreaterThan(0)
    expect(conflicts).toBeGreaterThanOrEqual(CLIENTS - 1)

    // The acknowledged transfers only, replayed on the initial balances.
    const expected = new Array<number>(ACCOUNTS + 1).fill(INITIAL)
    const touched = new Array<number>(ACCOUNTS + 1).fill(0)
    for (const { from, to, amount } of done) {
      expected[from]! -= amount
      expected[to]! += amount
      touched[from]!++
      touched[to]!++
    }
    const all = (await httpClient(base)('GET', '/rest/Account?$top=100')).json
    const balances = new Array<number>(ACCOUNTS + 1).fill(0)
    for (const e of all.__ENTITIES as Record<string, any>[]) {
      const k = Number(e.__KEY)
      balances[k] = e.balance
      expect({ k, stamp: e.__STAMP }).toEqual({ k, stamp: 1 + touched[k]! })
      expect(ackedStamps[k]!.sort((x, y) => x - y)).toEqual(stampsAfter(touched[k]!))
    }
    expect(balances.reduce((x, y) => x + y, 0)).toBe(ACCOUNTS * INITIAL)
    expect(balances).toEqual([0, ...expected.slice(1)])
    // Each acknowledged batch changed two entities; a refused one, none.
    expect(ds.globalStamp).toBe(2 * done.length)
    expect(all.__GlobalStamp).toBe(2 * done.length)
    console.log(
      `atomic transfers: ${done.length} acknowledged, ` +
        `${conflicts} stale-stamp refusals retried, ` +
        `poisoned batches refused: ${JSON.stringify(refusedPoison)}`,
    )
  })
})
