// 4D's ORDA request log on the DataStore class (API/DataStoreClass, 4D 21 R4): startRequestLog,
// getRequestLog, stopRequestLog, from the page's examples, and what Entistore bounds and records.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { storeFixture } from './objects/datastore.fixture.js'
import type { RequestLogEntry } from './objects/datastore.js'

describe('the request log in memory', () => {
  it('4D’s example: keep 3 requests, then find the longest', () => {
    // ds.startRequestLog(3); $employees:=ds.Employee.query("name = :1";"yo@")
    // $employee:=$employees.first(); $log:=ds.getRequestLog(); $log.max("duration")
    const { ds, clock } = storeFixture()
    ds.startRequestLog(3)
    const employees = ds.Employee.query('lastName = :1', 'T@')
    clock.advance(5)
    const employee = employees.first()
    expect(employee?.get('lastName')).toBe('Turing')
    const log = ds.getRequestLog()
    expect(log).toEqual([
      {
        sequenceNumber: 1,
        url: '/rest/Employee?$filter="lastName = :1"&$params=["T@"]',
        startTime: '2026-01-05T09:00:00.000Z',
        endTime: '2026-01-05T09:00:00.000Z',
        duration: 0,
        response: { status: 200 },
      },
    ])
    expect(Math.max(...log.map((r) => r.duration))).toBe(0)
    expectTypeOf(log).toEqualTypeOf<RequestLogEntry[]>()
  })

  it('records reads by key, relations, queries and writes, the most recent first, with refusals', () => {
    const { ds } = storeFixture()
    ds.startRequestLog()
    const ada = ds.Employee.get(1)!
    ada.get('employer')
    ds.Employee.all()
    ada.edit({ salary: 5100 }).save()
    ds.Persons.create({ lastname: 'New' })
    ds.Persons.drop(2)
    expect(() => ds.Persons.update(99, { lastname: 'x' })).toThrow()
    const log = ds.getRequestLog()
    expect(log.map((r) => r.url)).toEqual([
      '/rest/Persons(99)?$method=update',
      '/rest/Persons(2)?$method=delete',
      '/rest/Persons?$method=update',
      '/rest/Employee(1)?$method=update',
      '/rest/Employee',
      '/rest/Company(1)',
      '/rest/Employee(1)',
    ])
    expect(log.map((r) => r.sequenceNumber)).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(log[0]!.response).toEqual({
      body: {
        __ERROR: [
          {
            message: 'Cannot find entity with "99" key in the "Persons" dataclass',
            componentSignature: 'dbmg',
            errCode: 1542,
          },
        ],
      },
    })
  })

  it('is bounded: the oldest requests go first; startRequestLog(n) empties it', () => {
    const { ds } = storeFixture()
    ds.startRequestLog(2)
    for (const key of [1, 2, 3]) ds.Employee.get(key)
    expect(ds.getRequestLog().map((r) => r.url)).toEqual(['/rest/Employee(3)', '/rest/Employee(2)'])
    ds.startRequestLog(5)
    expect(ds.getRequestLog()).toEqual([])
    ds.Persons.get(1)
    expect(ds.getRequestLog().map((r) => r.sequenceNumber)).toEqual([4])
    expect(() => ds.startRequestLog(0)).toThrow(RangeError)
  })

  it('stopRequestLog stops recording, and what was recorded stays readable; nothing is recorded before a start', () => {
    const { ds } = storeFixture()
    ds.Employee.get(1)
    expect(ds.getRequestLog()).toEqual([])
    ds.startRequestLog()
    ds.Employee.get(2)
    ds.stopRequestLog()
    ds.Employee.get(3)
    ds.Employee.update(3, { salary: 1 })
    expect(ds.getRequestLog().map((r) => r.url)).toEqual(['/rest/Employee(2)'])
    // Taken off the dataclass: its members are its class's again.
    expect(Object.hasOwn(ds.Employee, 'get')).toBe(false)
  })

  it('times each request on the datastore’s clock', () => {
    const { ds, clock } = storeFixture()
    ds.startRequestLog()
    ds.onCommit(() => clock.advance(7))
    ds.Persons.update(1, { lastname: 'Slow' })
    const [entry] = ds.getRequestLog()
    expect(entry).toMatchObject({
      startTime: '2026-01-05T09:00:00.000Z',
      endTime: '2026-01-05T09:00:00.007Z',
      duration: 7,
    })
  })
})

describe('the request log to a function (4D’s log file)', () => {
  it('4D’s example: log the requests of a get to a file', () => {
    // ds.startRequestLog($file); $e:=ds.Persons.get(30001); ds.stopRequestLog()
    const { ds } = storeFixture()
    const lines: string[] = []
    ds.startRequestLog((entry) => lines.push(JSON.stringify(entry)))
    expect(ds.Persons.get(30001)).toBeNull()
    ds.stopRequestLog()
    expect(lines.map((l) => JSON.parse(l).url)).toEqual(['/rest/Persons(30001)'])
    // The log in memory is stopped and emptied meanwhile.
    expect(ds.getRequestLog()).toEqual([])
  })
})
