/**
 * 4D's transactions in functions called over REST: each request runs as a process of its own
 * (core's processes.ts), so a function may start a transaction, await, and validate it while other
 * requests go on (they see none of its writes, and cannot write what it wrote); a request whose
 * function returns with its transaction open has it cancelled (docs/compat.md).
 */
import {
  createDatastore,
  defineFunctions,
  ManualClock,
  type Datastore,
  type EntitySelection,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

type Json = Record<string, any>

/** What the function waits for between its two saves: the test opens it. */
let paid: { wait: Promise<void>; open: () => void } | undefined
const gate = () => {
  let open!: () => void
  const wait = new Promise<void>((resolve) => (open = resolve))
  return (paid = { wait, open })
}

const functions = defineFunctions({
  dataClasses: {
    Employee: {
      entitySelection: {
        /**
         * Raises every member by `amount` in a transaction, then reads the selection and a query
         * of it back: the members' new salaries, in their new order, and cancels.
         */
        tryRaise: {
          exposed: true,
          params: ['number'],
          call(amount: number) {
            const ds = this.dataClass.datastore as unknown as Datastore
            ds.startTransaction()
            for (const e of this) e.edit({ salary: (e.get('salary') as number) + amount }).save()
            const read = {
              members: this.toCollection('salary').map((e) => e.salary),
              over: this.query('salary > :1', 6500).length,
              ordered: this.orderBy('salary desc').first()?.get('lastName'),
              total: this.sum('salary'),
            }
            ds.cancelTransaction()
            return read
          },
        },
      },
    },
  },
  dataStore: {
    /** Moves `amount` of salary from one employee to another, in one transaction across an await. */
    transfer: {
      exposed: true,
      params: ['number', 'number', 'number'],
      async call(from: number, to: number, amount: number) {
        const ds = this as unknown as Datastore
        ds.startTransaction()
        const a = ds.dataClass('Employee').get(from)!
        a.edit({ salary: (a.get('salary') as number) - amount }).save()
        await paid?.wait
        const b = ds.dataClass('Employee').get(to)!
        b.edit({ salary: (b.get('salary') as number) + amount }).save()
        const level = ds.transactionLevel()
        ds.validateTransaction()
        return { level, after: ds.transactionLevel() }
      },
    },
    /** Starts a transaction, writes, and returns with it open. */
    forget: {
      exposed: true,
      async call() {
        const ds = this as unknown as Datastore
        ds.startTransaction()
        ds.dataClass('Employee').update(3, { salary: 1 })
        await Promise.resolve()
        return ds.transactionLevel()
      },
    },
    /**
     * Hires, raises and fires inside a transaction, reads it back through queries, a relation to
     * many and aggregates, then cancels (`keep`: validates, and returns its query's selection).
     */
    reshuffle: {
      exposed: true,
      params: ['boolean'],
      call(keep: boolean) {
        const ds = this as unknown as Datastore
        const Employee = ds.dataClass('Employee')
        ds.startTransaction()
        Employee.create({ lastName: 'Hamilton', salary: 9000, employer: 2 })
        Employee.update(1, { salary: 9500 })
        Employee.drop(3)
        const rich = Employee.query('salary > :1 order by salary desc', 8000)
        if (keep) {
          ds.validateTransaction()
          return rich
        }
        const read = {
          rich: rich.toCollection('lastName').map((e) => e.lastName),
          globex: Employee.query('employer.name = :1', 'Globex').length,
          acme: (ds.dataClass('Company').get(1)!.get('staff') as EntitySelection).length,
          payroll: Employee.all().sum('salary'),
        }
        ds.cancelTransaction()
        return { ...read, after: Employee.query('salary > :1', 8000).length }
      },
    },
    level: {
      exposed: true,
      call() {
        return (this as unknown as Datastore).transactionLevel()
      },
    },
  },
})

const fresh = () => {
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock: new ManualClock(Date.UTC(2026, 0, 2, 10)),
    functions,
  })
  const rest = createRestHandler(ds)
  /** A client with its own cookie jar (its own session). */
  const client = () => {
    let cookie: string | undefined
    const send = async (path: string, init: RequestInit = {}) => {
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) }
      if (cookie) headers.cookie = cookie
      const res = await rest.request(path, { ...init, headers })
      const set = res.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]
      return { status: res.status, json: JSON.parse(await res.text()) as Json }
    }
    return {
      get: (path: string) => send(path),
      post: (path: string, body?: unknown) =>
        send(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
    }
  }
  return { ds, client }
}

describe('a function that starts a transaction and awaits', () => {
  it('validates it at the end; meanwhile other requests read the committed data and cannot write what it wrote', async () => {
    const { ds, client } = fresh()
    const [a, b] = [client(), client()]
    const open = gate()
    const transfer = a.post('/rest/$catalog/transfer', [1, 2, 100])
    await Promise.resolve()
    // Another session's requests while the function awaits.
    expect((await b.get('/rest/Employee(1)')).json.salary).toBe(5000)
    const refused = await b.post('/rest/Employee?$method=update', { __KEY: '1', salary: 1 })
    expect(refused.status).toBe(409)
    expect(refused.json.__ERROR[0].errCode).toBe(9070)
    expect((await b.post('/rest/$catalog/level')).json).toEqual({ result: 0 })
    open.open()
    expect(await transfer).toEqual({ status: 200, json: { result: { level: 1, after: 0 } } })
    expect((await b.get('/rest/Employee(1)')).json.salary).toBe(4900)
    expect((await b.get('/rest/Employee(2)')).json.salary).toBe(6100)
    expect(ds.locks.size).toBe(0)
  })

  it('returning with its transaction open, has it cancelled when the request ends', async () => {
    const { ds, client } = fresh()
    const a = client()
    expect((await a.post('/rest/$catalog/forget')).json).toEqual({ result: 1 })
    expect(ds.dataClass('Employee').get(3)?.get('salary')).toBe(7000)
    expect(ds.locks.size).toBe(0)
    // The session's next request starts with no transaction, and may write the entity.
    expect((await a.post('/rest/$catalog/level')).json).toEqual({ result: 0 })
    const update = await a.post('/rest/Employee?$method=update', { __KEY: '3', salary: 7100 })
    expect(update.status).toBe(200)
    expect(ds.dataClass('Employee').get(3)?.get('salary')).toBe(7100)
  })
})

describe('a function that reads inside its transaction', () => {
  it('finds what it created, saved and dropped through queries, relations and aggregates; cancelled, nothing', async () => {
    const { ds, client } = fresh()
    const a = client()
    expect((await a.post('/rest/$catalog/reshuffle', [false])).json).toEqual({
      result: {
        rich: ['Lovelace', 'Hamilton'],
        globex: 1,
        acme: 2,
        payroll: 9500 + 6000 + 9000,
        after: 0,
      },
    })
    expect(ds.dataClass('Employee').all().length).toBe(3)
  })

  it('a selection function on a $filter reads its members and queries them with their saved values', async () => {
    const { ds, client } = fresh()
    const reply = await client().post('/rest/Employee/tryRaise?$filter="salary<6500"', [1000])
    expect(reply.json).toEqual({
      result: { members: [6000, 7000], over: 1, ordered: 'Turing', total: 13000 },
    })
    expect(ds.dataClass('Employee').get(2)?.get('salary')).toBe(6000)
  })

  it("returns its query's selection once validated, with the entity it created", async () => {
    const { client } = fresh()
    const a = client()
    const reply = await a.post('/rest/$catalog/reshuffle', [true])
    expect(reply.status).toBe(200)
    const found = reply.json.__ENTITIES as Json[]
    expect(found.map((e) => [e.lastName, e.salary])).toEqual([
      ['Lovelace', 9500],
      ['Hamilton', 9000],
    ])
    const filtered = await a.get('/rest/Employee?$filter="salary>8000"&$orderby="salary desc"')
    expect(filtered.json.__ENTITIES.map((e: Json) => e.lastName)).toEqual(['Lovelace', 'Hamilton'])
  })
})
