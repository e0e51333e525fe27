/**
 * Issue 61: a `$filter` through a chain of relations (`employer.staff.employer.staff…`) read the
 * keys of every row each link joined in one piece, 14–18 ms at 100,000 employees in a single
 * slice, whatever `sliceMs`; an `$orderby` whose keys go through relations read 4,096 rows' keys a
 * step however many reads a row took (12 ms a step). The turns are run by the test and the values
 * read counted in each: never timed.
 */
import type { Datastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { isPending, type RestReply, type RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { scaledCompany } from '../serialize/chain.fixture.js'
import { replyText } from '../sync-reply.fixture.js'

type Table = ReturnType<Datastore['dataClass']>['table']

const EMPLOYEES = 24_000
// A step of the engine: 4,096 rows (core's BUDGET_STEP).
const STEP = 4096

/** Counts every key and value `table` reads from now on. */
function counted(table: Table, reads: { n: number }): void {
  const keyOf = table.keyOf.bind(table)
  const reader = table.reader.bind(table)
  Object.assign(table, {
    keyOf: (rowId: number) => (reads.n++, keyOf(rowId)),
    reader: (name: string) => {
      const read = reader(name)
      return (rowId: number) => (reads.n++, read(rowId))
    },
  })
}

const get = (query: string): RestRequest => ({
  method: 'GET',
  path: '/rest/Employee',
  query,
  headers: {},
})

/** Runs `query` with every step a slice, the turns run here: its reply, and the rows read in each slice. */
async function readsPerSlice(ds: Datastore, query: string) {
  const reads = { n: 0 }
  counted(ds.dataClass('Employee').table, reads)
  counted(ds.dataClass('Company').table, reads)
  const turns: (() => void)[] = []
  const handler = createRestHandler(ds, { sliceMs: 0, nextTurn: (fn) => turns.push(fn) })
  const perSlice: number[] = []
  let mark = 0
  const reply = handler.respond(get(query))
  perSlice.push(reads.n - mark)
  expect(isPending(reply)).toBe(true)
  let done: RestReply | undefined
  void (reply as Promise<RestReply>).then((r) => (done = r))
  while (done === undefined && turns.length > 0) {
    mark = reads.n
    turns.shift()!()
    perSlice.push(reads.n - mark)
    await new Promise((r) => setImmediate(r))
  }
  return { text: replyText(done!.body), perSlice }
}

/** `query` answered in one piece. */
const whole = (ds: Datastore, query: string): string =>
  replyText((createRestHandler(ds, { sliceMs: Infinity }).respond(get(query)) as RestReply).body)

describe('a read through a chain of relations', () => {
  it('filters reading at most a step of rows a slice, and answers as in one piece', async () => {
    const ds = scaledCompany(EMPLOYEES)
    ds.buildIndexes()
    const query = `$filter="employer.staff.employer.staff.ID>0"&$top=5&$attributes=ID`
    const expected = whole(ds, query)
    const { text, perSlice } = await readsPerSlice(ds, query)
    expect(text).toBe(expected)
    // Each of the two links reads its 24,000 rows' keys, a step at a time.
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(STEP)
    expect(perSlice.length).toBeGreaterThan((2 * EMPLOYEES) / STEP)
  })

  it('orders by keys through relations reading fewer rows a step, some 8,192 values', async () => {
    const ds = scaledCompany(EMPLOYEES)
    ds.buildIndexes()
    // Up to five reads a row (a key through two relations, one through one): 4,096 rows a step
    // read 12,288 values here (no employee has a manager: three reads a row).
    const query = `$orderby=manager.employer.name desc, employer.city&$top=5&$attributes=ID`
    const expected = whole(ds, query)
    const { text, perSlice } = await readsPerSlice(ds, query)
    expect(text).toBe(expected)
    expect(Math.max(...perSlice)).toBeLessThanOrEqual(2 * STEP)
  })
})
