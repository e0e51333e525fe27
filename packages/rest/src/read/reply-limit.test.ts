import { ManualClock, type Clock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { RestBody, RestRequest } from '../exchange.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { chain, companyDatastore, scaledCompany } from '../serialize/chain.fixture.js'
import { syncReply } from '../sync-reply.fixture.js'
import { replyText } from '../sync-reply.fixture.js'

// Issue 28: one 120-byte GET (`$attributes=staff.employer.staff.employer…`) made a reply that
// multiplied by about 15 at each level, 1.78 GB at five levels, written in one piece while every
// other client waited. A reply is now measured before its status is sent (maxReplyBytes), and
// written a piece at a time.

const handler = (options: RestHandlerOptions = {}, clock: Clock = new ManualClock(0)) =>
  createRestHandler(companyDatastore(clock), options)

const get = (path: string, query = ''): RestRequest => ({
  method: 'GET',
  path,
  query,
  headers: {},
})

const text = (body: unknown): string => replyText(body as RestBody)

const errorOf = (body: unknown) => (JSON.parse(text(body)) as { __ERROR: unknown[] }).__ERROR[0]

describe('maxReplyBytes', () => {
  it('refuses a chain of relations that would make gigabytes, at once, with 400 9091', async () => {
    // Its repeats alone are refused sooner (maxRepeatedBytes, below): the bytes' limit here.
    const rest = handler({ maxRepeatedBytes: Infinity })
    for (const levels of [5, 6, 9]) {
      const start = performance.now()
      const reply = await rest.respond(get('/rest/Company', `$attributes=${chain(levels)}`))
      expect(performance.now() - start).toBeLessThan(1000)
      expect(reply.status).toBe(400)
      expect(errorOf(reply.body)).toEqual({
        message: expect.stringMatching(
          /^The reply would be at least \d+ bytes, more than the limit of 268435456 \(maxReplyBytes\)/,
        ) as unknown,
        componentSignature: 'enti',
        errCode: 9091,
      })
    }
    // The same chain from one entity, and through $expand's relations.
    const one = await rest.respond(get('/rest/Company(1)', `$attributes=${chain(6)}`))
    expect([one.status, (errorOf(one.body) as { errCode: number }).errCode]).toEqual([400, 9091])
    expect(syncReply(rest.respond(get('/rest/Company(1)'))).status).toBe(200)
  })

  it('answers a reply within the limit whole, and refuses it one byte below its size', async () => {
    const open = handler({ maxReplyBytes: Infinity })
    const path = ['/rest/Company', `$attributes=${chain(2)}&$top=5`] as const
    const whole = text((await open.respond(get(...path))).body)
    const bytes = Buffer.byteLength(whole)
    const fits = await handler({ maxReplyBytes: bytes }).respond(get(...path))
    expect([fits.status, text(fits.body)]).toEqual([200, whole])
    const over = await handler({ maxReplyBytes: bytes - 1 }).respond(get(...path))
    expect(over.status).toBe(400)
    expect(errorOf(over.body)).toMatchObject({ errCode: 9091 })
  })

  it('holds every reply to it: an entity, the catalog, a page of rows', () => {
    const rest = handler({ maxReplyBytes: 200 })
    for (const [path, query] of [
      ['/rest/Company(1)', ''],
      ['/rest/$catalog/$all', ''],
      ['/rest/Employee', '$top=1000'],
    ] as const) {
      const reply = syncReply(rest.respond(get(path, query)))
      expect([reply.status, (errorOf(reply.body) as { errCode: number }).errCode], path).toEqual([
        400, 9091,
      ])
    }
    expect(syncReply(rest.respond(get('/rest/Company(1)', '$attributes=name'))).status).toBe(200)
  })

  it('stops measuring a reply past the time budget with 400 9092, also across slices', async () => {
    // A clock that moves 1 ms at every reading: the measure reads it after each related entity.
    let t = 0
    const rest = handler({ queryBudgetMs: 1, maxReplyBytes: 1e15 }, { now: () => t++ })
    // Six levels: about 12,000 parts to measure, whatever the size.
    const reply = await rest.respond(get('/rest/Company', `$attributes=${chain(6)}`))
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toMatchObject({
      message: expect.stringMatching(/^The reply took more than 1 ms to prepare/) as unknown,
      errCode: 9092,
    })
  })
})

describe('maxRepeatedBytes', () => {
  // Issue 61: `Employee?$top=20000&$attributes=employer.staff.ID` (50 bytes, 100,000 employees)
  // started a reply of 160 MB, within maxReplyBytes: the same 24 companies' pages of 100 staff,
  // written under each employee again and again. 4,800 employees here: 200 a company, so that a
  // company's staff fill a page of 100, and the reply is some 30 MB, 95% of it repeats.
  const ds = scaledCompany(4800)
  const rows = '$top=4800&$attributes=employer.staff.ID'

  it('refuses a reply whose related entities come back past it, before its status', async () => {
    const reply = await createRestHandler(ds).respond(get('/rest/Employee', rows))
    expect(reply.status).toBe(400)
    expect(errorOf(reply.body)).toEqual({
      message: expect.stringMatching(
        /^The reply would write the same related entities again for at least \d+ bytes, more than the limit of 16777216 \(maxRepeatedBytes\)/,
      ) as unknown,
      componentSignature: 'enti',
      errCode: 9093,
    })
  })

  it('counts a related entity each time it comes back, whole, to the byte', async () => {
    const path = ['/rest/Employee', '$top=200&$attributes=employer.staff.ID'] as const
    const open = await createRestHandler(ds, { maxRepeatedBytes: Infinity }).respond(get(...path))
    const whole = text(open.body)
    // The bytes of each employer's text (its page of staff), but for its first time.
    const seen = new Set<string>()
    let repeated = 0
    for (const row of (JSON.parse(whole) as { __ENTITIES: { employer: { __KEY: string } }[] })
      .__ENTITIES) {
      if (seen.has(row.employer.__KEY)) repeated += Buffer.byteLength(JSON.stringify(row.employer))
      seen.add(row.employer.__KEY)
    }
    expect(seen.size).toBe(24)
    const fits = await createRestHandler(ds, { maxRepeatedBytes: repeated }).respond(get(...path))
    expect([fits.status, text(fits.body)]).toEqual([200, whole])
    const over = createRestHandler(ds, { maxRepeatedBytes: repeated - 1 })
    expect(errorOf((await over.respond(get(...path))).body)).toMatchObject({
      message: expect.stringContaining(`for at least ${repeated} bytes`) as unknown,
      errCode: 9093,
    })
  })

  it('does not count a related entity that writes no relation out, nor a tree', async () => {
    const rest = createRestHandler(ds, { maxRepeatedBytes: 1 })
    // The same 24 employers in every row, written whole: as long as the rows are many.
    const flat = await rest.respond(get('/rest/Employee', '$top=4800&$attributes=ID,employer.*'))
    expect(flat.status).toBe(200)
    // Each company's page of staff, once.
    expect((await rest.respond(get('/rest/Company', '$expand=staff'))).status).toBe(200)
  })
})

describe('a large reply through fetch', () => {
  it('lets other work run while a reader takes its chunks as fast as they come', async () => {
    const rest = handler()
    const res = await rest.request(`/rest/Company?$attributes=${chain(3)}`)
    expect(res.status).toBe(200)
    // Turns of the event loop while the body is read: a reader that never waits would read every
    // chunk in microtasks, and no turn would pass.
    let turns = 0
    let ticking = true
    const tick = (): void => {
      turns++
      if (ticking) setImmediate(tick)
    }
    setImmediate(tick)
    const reader = res.body!.getReader()
    let bytes = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
    }
    ticking = false
    expect(bytes).toBeGreaterThan(5_000_000)
    expect(turns).toBeGreaterThan(1)
  })
})
