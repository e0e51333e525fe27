import { createDatastore, type Clock, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { RestBody, RestRequest } from './exchange.js'
import { createRestHandler, type RestHandlerOptions } from './handler.js'
import { replyText } from './sync-reply.fixture.js'

// Issue 11, "a hardened edge": a per-request time budget for queries (`queryBudgetMs`). `respond`
// is synchronous, so a long scan held every other client: past the budget it is answered 400
// QueryBudgetExceeded (9090), and the next request is answered as usual. Time is a clock that
// moves 1 ms at every reading: the engine reads it every 4,096 rows.

const model: ModelJson = {
  __NAME: 'budget',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'title', type: 'string' },
        { name: 'size', type: 'number' },
      ],
    },
  ],
}
const N = 100_000
const data = {
  Doc: Array.from({ length: N }, (_, i) => ({ ID: i + 1, title: `doc ${i}`, size: i % 1000 })),
} as unknown as DataFile

class TickingClock implements Clock {
  #t = Date.UTC(2024, 0, 1)
  now(): number {
    return this.#t++
  }
}

const handler = (options: RestHandlerOptions = {}) => {
  const ds = createDatastore(model, { data, clock: new TickingClock() })
  // Built now: a read that needs an unbuilt index waits for it. A read of every row still may wait
  // for the rows' key order (made in slices past 65,536 rows): the replies are awaited.
  ds.buildIndexes()
  return createRestHandler(ds, options)
}

const get = (path: string): RestRequest => {
  const [p, q = ''] = path.split('?') as [string, string?]
  return { method: 'GET', path: p, query: q, headers: {} }
}

const text = (body: unknown): string => replyText(body as RestBody)

const SCAN = "/rest/Doc?$filter=title%3D'%40oc%40'&$top=1"
const ERROR = {
  __ERROR: [
    {
      message: 'The query took more than 10 ms and was stopped: narrow the $filter or add an index',
      componentSignature: 'enti',
      errCode: 9090,
    },
  ],
}

describe('queryBudgetMs', () => {
  it('answers a scan past the budget 400 (9090), then a cheap request as usual', async () => {
    const rest = handler({ queryBudgetMs: 10 })
    const refused = await rest.respond(get(SCAN))
    expect(refused.status).toBe(400)
    expect(JSON.parse(text(refused.body))).toEqual(ERROR)
    const cheap = await rest.respond(get('/rest/Doc(5)'))
    expect(cheap.status).toBe(200)
    expect(JSON.parse(text(cheap.body))).toMatchObject({ ID: 5, title: 'doc 4' })
    // A query through an index is never stopped.
    expect((await rest.respond(get('/rest/Doc?$filter=ID%3D7'))).status).toBe(200)
  })

  it('stops $orderby, $compute and $distinct over many rows too', async () => {
    const rest = handler({ queryBudgetMs: 10 })
    for (const path of [
      '/rest/Doc?$orderby=title%20desc&$top=1',
      '/rest/Doc/size?$compute=sum',
      '/rest/Doc/title?$distinct=true',
    ]) {
      const reply = await rest.respond(get(path))
      expect(reply.status, path).toBe(400)
      expect(JSON.parse(text(reply.body)), path).toEqual(ERROR)
    }
  })

  it('answers the scan within a larger budget, with 0 (none), and by default (2,000 ms)', async () => {
    for (const options of [{ queryBudgetMs: 1000 }, { queryBudgetMs: 0 }, {}]) {
      const reply = await handler(options).respond(get(SCAN))
      expect(reply.status).toBe(200)
      expect(JSON.parse(text(reply.body))).toMatchObject({ __COUNT: N })
    }
  })

  it('gives each request its own budget', async () => {
    // A scan reads the clock ≈25 times, and each slice of it twice more; slices end by real
    // time, so a busy machine makes more of them: the bound leaves room for that, and ten scans
    // in one budget would spend it more than twice over.
    const rest = handler({ queryBudgetMs: 150 })
    for (let i = 0; i < 10; i++) expect((await rest.respond(get(SCAN))).status).toBe(200)
  })
})
