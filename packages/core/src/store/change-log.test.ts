import { describe, expect, it } from 'vitest'
import type { ManualClock } from '../clock/clock.js'
import { DatastoreError } from '../errors/datastore-error.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { writeClock, writeData, writeModel } from '../txn/writes.fixture.js'
import type { CommitInfo } from './store.js'
import { applyLogRecords, logRecordOf, snapshotRecords, snapshotRows } from './change-log.js'
import type { LogRecord } from './log-record.js'
import { dumpData } from './dump-data.js'
import type { SnapshotRows } from './snapshot-rows.js'
import { openStoreView } from './store-view.js'

type Names = 'Company' | 'Employee' | 'Hidden' | 'Tag'
const setup = () => {
  const ds = createDatastore<Names>(writeModel(), { clock: writeClock(), data: writeData() })
  const log: LogRecord[] = []
  const kinds: CommitInfo[] = []
  ds.onCommit((changes, info) => {
    kinds.push(info)
    log.push(logRecordOf(ds, changes, info))
  })
  return { ds, log, kinds }
}

describe('logRecordOf', () => {
  it('writes a commit as plain JSON: full rows, the global stamp and the sequences after it', () => {
    const { ds, log } = setup()
    ds.Employee.update(2, { salary: 6500, extra: { a: [1, 'x'] } })
    expect(log).toHaveLength(1)
    expect(JSON.parse(JSON.stringify(log[0]))).toEqual(log[0])
    expect(log[0]).toEqual({
      format: 1,
      kind: 'write',
      changes: [
        {
          op: 'update',
          dataClass: 'Employee',
          key: 2,
          stamp: 2,
          timestamp: writeClock().now(),
          values: {
            ID: 2,
            lastName: 'Turing',
            salary: 6500,
            email: 'alan@acme',
            extra: { a: [1, 'x'] },
            employerID: 1,
          },
        },
      ],
      globalStamp: 1,
      sequences: { Employee: { ID: 3 } },
    })
  })

  it('tells a load, a write and a restore apart, and writes a restore even when only stamps move', () => {
    const { ds, log, kinds } = setup()
    const initial = ds.snapshot()
    ds.loadData({ Tag: [{ label: 'x' }] })
    const made = ds.Company.create({ name: 'Initech' })
    ds.Company.drop(made.getKey())
    ds.restore(initial)
    expect(kinds.map((k) => [k.kind, k.globalStamp])).toEqual([
      ['load', 0],
      ['write', 1],
      ['write', 2],
      ['restore', 0],
    ])
    // The restore deletes the loaded Tag, and puts Company's sequence back from 3 to 2.
    expect(log[3]!.changes.map((c) => [c.op, c.dataClass])).toEqual([['delete', 'Tag']])
    expect(log[3]!.sequences.Company).toEqual({ ID: 2 })
    // A restore with nothing to undo but the global stamp is still written.
    ds.Company.drop(ds.Company.create({ name: 'x' }).getKey())
    ds.restore(initial)
    expect(log.at(-1)).toMatchObject({ kind: 'restore', changes: [], globalStamp: 0 })
    ds.restore(initial)
    expect(log.at(-1)).toMatchObject({ kind: 'restore', changes: [] })
    expect(kinds.at(-1)!.kind).toBe('restore')
  })

  it('writes pictures and BLOBs as base64 with their version, and reads them back', () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'Doc',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'body', type: 'blob' },
            ],
          },
        ],
      },
      { data: { Doc: [{ ID: 1, body: { $base64: 'AAEC/w==', type: 'x/y', version: 7 } }] } },
    )
    const [record] = [...snapshotRecords(ds)]
    expect(record!.changes[0]).toMatchObject({
      values: { ID: 1, body: { $base64: 'AAEC/w==', type: 'x/y', version: 7 } },
    })
    const copy = createDatastore(ds.schema)
    applyLogRecords(copy, [JSON.parse(JSON.stringify(record)) as LogRecord])
    const body = copy.dataClass('Doc').get(1)!.get('body') as { bytes: Uint8Array; version: number }
    expect([...body.bytes]).toEqual([0, 1, 2, 255])
    expect(body.version).toBe(7)
  })

  it('puts pictures and BLOBs in attachments, as they are, when asked: no base64', () => {
    const ds = docStore()
    const log: LogRecord[] = []
    ds.onCommit((changes, info) => log.push(logRecordOf(ds, changes, info, ATTACHED)))
    const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2])
    ds.dataClass('Doc').update(1, { photo })
    const stored = ds.dataClass('Doc').get(1)!
    const [record] = log
    // The bytes are the store's own: nothing copied, nothing encoded.
    expect(record!.attachments).toHaveLength(2)
    expect(record!.attachments![0]).toBe((stored.get('body') as { bytes: Uint8Array }).bytes)
    expect(record!.attachments![1]).toBe((stored.get('photo') as { bytes: Uint8Array }).bytes)
    expect(record!.changes[0]).toMatchObject({
      values: {
        body: { $bytes: 0, type: 'x/y', version: 7 },
        photo: { $bytes: 1, type: 'image/png', version: 2 },
      },
    })
    const copy = docStore(false)
    applyLogRecords(copy, [...snapshotRecords(ds, 10, ATTACHED)])
    expect(dumpData(copy)).toEqual(dumpData(ds))
    // Without binaries a record has no attachments at all.
    ds.dataClass('Doc').update(1, { photo: null, body: null })
    expect(log[1]).not.toHaveProperty('attachments')
  })

  it('ends a snapshot record once its attachments hold attachmentBytes', () => {
    const ds = docStore()
    for (let i = 0; i < 4; i++) ds.dataClass('Doc').create({ body: new Uint8Array(10) })
    const records = [...snapshotRecords(ds, 100, { ...ATTACHED, attachmentBytes: 20 })]
    // A record ends with the row that takes its attachments to 20 bytes: 4 + 10 + 10, 10 + 10.
    expect(records.map((r) => [r.changes.length, r.attachments?.length])).toEqual([
      [3, 3],
      [2, 2],
    ])
    const copy = docStore(false)
    applyLogRecords(copy, records)
    expect(dumpData(copy)).toEqual(dumpData(ds))
  })
})

const ATTACHED = { binaries: 'attachments' } as const

/** A Doc with a BLOB (4 bytes, version 7), a picture, and an object attribute. */
function docStore(data = true) {
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', type: 'long', autosequence: true },
            { name: 'body', type: 'blob' },
            { name: 'photo', type: 'image' },
            { name: 'meta', type: 'object' },
          ],
        },
      ],
    },
    data
      ? { data: { Doc: [{ ID: 1, body: { $base64: 'AAEC/w==', type: 'x/y', version: 7 } }] } }
      : {},
  )
}

describe('applyLogRecords', () => {
  it('refuses a reference to an attachment the record does not have, or without a type', () => {
    const values = (v: object) => ({
      format: 1 as const,
      kind: 'write' as const,
      changes: [
        {
          op: 'insert' as const,
          dataClass: 'Doc',
          key: 5,
          stamp: 1,
          timestamp: 0,
          values: { ID: 5, ...v },
        },
      ],
      globalStamp: 1,
      sequences: {},
      attachments: [new Uint8Array([1, 2])],
    })
    const cases: [object, RegExp][] = [
      [
        { body: { $bytes: 1, type: 'x/y' } },
        /Doc\(5\)\.body: "\$bytes" names no attachment of the record \(1\)/,
      ],
      [{ body: { $bytes: '0', type: 'x/y' } }, /names no attachment/],
      [{ body: { $bytes: 0 } }, /Doc\(5\)\.body: "type" must be/],
      [{ body: { $bytes: 0, type: 'x/y', version: 0 } }, /"version" must be a positive integer/],
    ]
    for (const [v, message] of cases) {
      const copy = docStore(false)
      expect(() => applyLogRecords(copy, [values(v)])).toThrow(message)
      expect(copy.dataClass('Doc').length).toBe(0)
    }
    // An object attribute holds such an object as JSON: only pictures and BLOBs name attachments.
    const copy = docStore(false)
    applyLogRecords(copy, [
      values({ meta: { $bytes: 0 }, body: { $bytes: 0, type: 'x/y', version: 3 } }),
    ])
    const doc = copy.dataClass('Doc').get(5)!
    expect(doc.get('meta')).toEqual({ $bytes: 0 })
    expect(doc.get('body')).toMatchObject({
      bytes: new Uint8Array([1, 2]),
      type: 'x/y',
      version: 3,
    })
  })

  it('gives a store back from its snapshot records, in one commit that listeners hear as a replay', () => {
    const { ds } = setup()
    ds.Employee.drop(3)
    const copy = createDatastore<Names>(writeModel(), { clock: writeClock() })
    const heard: string[] = []
    copy.onCommit((_, info) => heard.push(info.kind))
    applyLogRecords(copy, snapshotRecords(ds, 1))
    expect(heard).toEqual(['replay'])
    expect(dumpData(copy)).toEqual(dumpData(ds))
    expect(copy.globalStamp).toBe(1)
    // The sequence goes on past the deleted 3, as the live store's does.
    expect(copy.Employee.create({ lastName: 'x' }).getKey()).toBe(4)
  })

  it('refuses a record that does not fit the store, and applies none of the records', () => {
    const { ds } = setup()
    const copy = createDatastore<Names>(writeModel(), { clock: writeClock() })
    const good = [...snapshotRecords(ds)]
    const cases: [LogRecord, RegExp][] = [
      [{ ...good[0]!, format: 3 as 1 }, /format 3, expected 1/],
      [
        { ...good[0]!, changes: [{ op: 'delete', dataClass: 'Nope', key: 1 }] },
        /no dataclass "Nope"/,
      ],
      [
        { ...good[0]!, changes: [{ op: 'delete', dataClass: 'Company', key: 9 }] },
        /delete of Company\(9\), which is not there/,
      ],
      [
        {
          ...good[0]!,
          changes: [
            {
              op: 'insert',
              dataClass: 'Company',
              key: 9,
              stamp: 1,
              timestamp: 0,
              values: { ID: 9, name: 'x', colour: 'red' },
            },
          ],
        },
        /no storage attribute "colour" in Company/,
      ],
      [
        {
          ...good[0]!,
          changes: [
            {
              op: 'insert',
              dataClass: 'Company',
              key: 9,
              stamp: 1,
              timestamp: 0,
              values: { ID: 'nine', name: 'x' },
            },
          ],
        },
        /Company\(9\)\.ID: not a number/,
      ],
    ]
    for (const [record, message] of cases) {
      let error: unknown
      try {
        applyLogRecords(copy, [...good, record])
      } catch (e) {
        error = e
      }
      expect(DatastoreError.is(error) && error.name).toBe('InvalidLogRecord')
      expect((error as Error).message).toMatch(message)
      expect(copy.Company.length).toBe(0)
    }
  })
})

describe('a snapshot in columns (snapshotRows)', () => {
  it('writes a dataclass a column per attribute, then the global stamp and sequences in a record of their own', () => {
    const { ds } = setup()
    ds.Employee.update(2, { salary: 6500 })
    const records = [...snapshotRows(ds, 2)]
    expect(records.map((r) => (r.kind === 'rows' ? `${r.dataClass} ${r.count}` : r.kind))).toEqual([
      'Company 2',
      'Employee 2',
      'Employee 1',
      'snapshot',
    ])
    // An attribute null in every row is left out; one stamp and timestamp for rows that share
    // them (a loaded file's), one a row else.
    expect(records[0]).toEqual({
      format: 2,
      kind: 'rows',
      dataClass: 'Company',
      count: 2,
      attributes: ['ID', 'name', 'code'],
      columns: [
        [1, 2],
        ['Acme', 'Globex'],
        ['AC', 'GX'],
      ],
      stamps: 1,
      timestamps: Date.UTC(2026, 0, 1),
      total: 2,
    })
    expect(records[1]).toMatchObject({
      attributes: ['ID', 'lastName', 'salary', 'email', 'employerID'],
      columns: [
        [1, 2],
        ['Lovelace', 'Turing'],
        [5000, 6500],
        ['ada@acme', 'alan@acme'],
        [1, 1],
      ],
      stamps: [1, 2],
      // The rows of the dataclass in all: a replay keeps them in one set of columns.
      total: 3,
    })
    expect(records[2]).not.toHaveProperty('total')
    // A few rows that differ from the others: the others' stamp and time, and theirs.
    ;(ds.clock as ManualClock).advance(1000)
    ds.Employee.update(3, { salary: 7500 })
    const [, employees] = [...snapshotRows(ds, 10)] as SnapshotRows[]
    expect(employees).toMatchObject({
      count: 3,
      stamps: { all: 2, rows: [0], values: [1] },
      timestamps: { all: Date.UTC(2026, 0, 1), rows: [2], values: [Date.UTC(2026, 0, 1) + 1000] },
    })
    ds.Employee.update(1, { salary: 5500 })
    expect(([...snapshotRows(ds, 10)] as SnapshotRows[])[1]!.stamps).toBe(2)
    // A view that gave fewer rows than its size announced fails the snapshot, rather than write
    // one that cannot be read back.
    const view = openStoreView(ds)
    const table = view.table('Employee')
    Object.defineProperty(table, 'size', { value: table.size + 1 })
    expect(() => [...snapshotRows(view, 2)]).toThrow(/3 rows of Employee where its view counts 4/)
    view.release()
    expect(records[3]).toEqual({
      format: 1,
      kind: 'snapshot',
      changes: [],
      globalStamp: 1,
      sequences: { Company: { ID: 2 }, Employee: { ID: 3 }, Tag: { ID: 0 } },
    })
  })

  it("is replayed in one commit, its rows heard as a load's are and the changes after them as such", () => {
    const { ds, log } = setup()
    const snapshot = JSON.parse(JSON.stringify([...snapshotRows(ds, 2)])) as (
      SnapshotRows | LogRecord
    )[]
    ds.Employee.update(2, { salary: 6500 })
    ds.Employee.drop(1)
    ds.Company.create({ name: 'Initech' })
    const copy = createDatastore<Names>(writeModel(), { clock: writeClock() })
    const all: string[] = []
    const changes: string[] = []
    const name = (c: { op: string; table: { def: { name: string } } }) =>
      `${c.op} ${c.table.def.name}`
    copy.onCommit((cs, info) => all.push(info.kind, ...cs.map(name)))
    copy.onCommit((cs, info) => changes.push(info.kind, ...cs.map(name)), { loadRows: false })
    applyLogRecords(copy, [...snapshot, ...log])
    expect(dumpData(copy)).toEqual(dumpData(ds))
    expect(copy.globalStamp).toBe(ds.globalStamp)
    expect(all).toEqual([
      'replay',
      ...Array<string>(2).fill('insert Company'),
      ...Array<string>(3).fill('insert Employee'),
      'update Employee',
      'delete Employee',
      'insert Company',
    ])
    expect(changes).toEqual(['replay', 'update Employee', 'delete Employee', 'insert Company'])
    expect(copy.Employee.query('salary > 6000').toArray()[0]!.getKey()).toBe(2)
    expect(copy.Company.create({ name: 'x' }).getKey()).toBe(4)
  })

  it('trusted, stores the values of its own rows unchecked, and still checks their shape', () => {
    const { ds } = setup()
    const [companies, employees, last] = [...snapshotRows(ds)] as [
      SnapshotRows,
      SnapshotRows,
      LogRecord,
    ]
    // A salary that is not a number: refused when checked; trusted, taken (the column keeps no
    // text: none is read back), which shows that no check saw the value.
    const odd = {
      ...employees,
      columns: employees.columns.map((c, i) =>
        employees.attributes[i] === 'salary' ? c.map(() => 'much') : c,
      ),
    }
    expect(() => applyLogRecords(createDatastore(writeModel()), [companies, odd, last])).toThrow(
      /Employee\(1\)\.salary: not a number/,
    )
    const trusted = createDatastore<Names>(writeModel())
    applyLogRecords(trusted, [companies, odd, last], { trusted: true })
    expect(trusted.Employee.all().length).toBe(employees.count)
    // The records' shape, keys and stamps are checked all the same, trusted or not.
    const twice = {
      ...companies,
      columns: companies.columns.map((c, i) => (i === 0 ? c.map(() => 1) : c)),
    }
    const empty = createDatastore(writeModel())
    expect(() => applyLogRecords(empty, [twice, last], { trusted: true })).toThrow(
      /which is there already/,
    )
    expect(() =>
      applyLogRecords(empty, [{ ...companies, count: -1 }, last], { trusted: true }),
    ).toThrow(/no valid count of rows/)
    expect(dumpData(empty)).toEqual(dumpData(createDatastore(writeModel())))
  })

  it('refuses rows that do not fit the store, and applies none of the records', () => {
    const { ds } = setup()
    const [companies, employees, last] = [...snapshotRows(ds)] as [
      SnapshotRows,
      SnapshotRows,
      LogRecord,
    ]
    const company = (change: object): SnapshotRows => ({ ...companies, ...change })
    const write = (change: object): LogRecord => ({
      ...last,
      kind: 'write',
      changes: [{ dataClass: 'Company', key: 9, stamp: 1, timestamp: 0, ...change } as never],
    })
    const cases: [(SnapshotRows | LogRecord)[], RegExp][] = [
      [[company({ dataClass: 'Nope' }), last], /record 0: no dataclass "Nope"/],
      [
        [company({ attributes: ['ID', 'name', 'colour'] }), last],
        /no storage attribute "colour" in Company/,
      ],
      [
        [company({ attributes: ['ID', 'name', 'name'] }), last],
        /record 0: two columns of Company\.name/,
      ],
      [
        [company({ columns: [[1, 2], ['a'], ['A', 'B']] }), last],
        /the column of Company\.name does not hold 2 values/,
      ],
      [[company({ count: -1 }), last], /record 0: no valid count of rows/],
      [
        [company({ attributes: ['name'], columns: [['a', 'b']] }), last],
        /record 0\[0\]: the key is missing/,
      ],
      [
        [
          company({
            columns: [
              [1, null],
              ['a', 'b'],
              [null, null],
            ],
          }),
          last,
        ],
        /record 0\[1\]: the key is missing/,
      ],
      [
        [
          company({
            columns: [
              [1, 'two'],
              ['a', 'b'],
              [null, null],
            ],
          }),
          last,
        ],
        /record 0\[1\] Company\.ID: not a number/,
      ],
      [
        [
          companies,
          {
            ...employees,
            columns: employees.columns.map((c, i) =>
              employees.attributes[i] === 'salary' ? [5000, 'much', 7000] : c,
            ),
          },
          last,
        ],
        /record 1\[1\] Employee\(2\)\.salary: not a number/,
      ],
      // A key twice: next to each other (keys growing), or not (keys found through a map).
      [
        [
          company({
            columns: [
              [1, 1],
              ['a', 'b'],
              [null, null],
            ],
          }),
          last,
        ],
        /record 0\[1\]: insert of Company\(1\), which is there already/,
      ],
      [
        [
          company({
            columns: [
              [2, 1],
              ['a', 'b'],
              [null, null],
            ],
          }),
          company({}),
          last,
        ],
        /record 1\[0\]: insert of Company\(1\), which is there already/,
      ],
      [[company({ stamps: 1.5 }), last], /record 0: the stamp is not valid \(1\.5\)/],
      [
        [company({ stamps: { all: 1, rows: [1], values: [0.5] } }), last],
        /record 0\[1\]: the stamp/,
      ],
      [
        [company({ stamps: { all: 1, rows: [1, 0], values: [2, 2] } }), last],
        /record 0: the rows of its stamps are not rows of it, in order/,
      ],
      [
        [company({ timestamps: { all: 0, rows: [2], values: [1] } }), last],
        /record 0: the rows of its timestamps are not rows of it/,
      ],
      [[company({ timestamps: { all: 0, rows: [1] } }), last], /no timestamp for each of its rows/],
      // A total that the records after the first do not make up, or go past.
      [[company({ total: 1 }), last], /record 0: no valid total of rows \(1\)/],
      [[company({ total: 2 ** 40 }), last], /record 0: no columns for a total of 1099511627776/],
      [[company({ total: 3 }), last], /record 1: 1 of the 3 rows of Company missing/],
      [[company({ total: 3 }), employees, last], /record 1: 1 of the 3 rows of Company missing/],
      [
        [company({ total: 3 }), company({ total: undefined })],
        /record 1: 2 rows of Company, where 1 of its total of 3 remain/,
      ],
      [[last, company({ total: 3 })], /the last record: 1 of the 3 rows of Company missing/],
      [[company({ stamps: [1] }), last], /record 0: no stamp for each of its rows/],
      [[company({ timestamps: [0, null] }), last], /record 0\[1\]: the timestamp is not valid/],
      [
        [write({ op: 'insert', values: { ID: 9, name: 'x' } }), companies, last],
        /record 1: rows of a snapshot after the changes of commits/,
      ],
      [[companies], /the last record: rows of a snapshot with no record after them/],
      // The changes after them find the rows by key, and do not find a key that is not there.
      [[companies, last, write({ op: 'delete', key: 3 })], /delete of Company\(3\), which is not/],
      [
        [companies, last, write({ op: 'insert', key: 2, values: { ID: 2, name: 'x' } })],
        /insert of Company\(2\), which is there already/,
      ],
    ]
    for (const [records, message] of cases) {
      const copy = createDatastore<Names>(writeModel(), { clock: writeClock() })
      let error: unknown
      try {
        applyLogRecords(copy, records)
      } catch (e) {
        error = e
      }
      expect(DatastoreError.is(error) && error.name, String(message)).toBe('InvalidLogRecord')
      expect((error as Error).message).toMatch(message)
      expect(copy.Company.length + copy.Employee.length).toBe(0)
      expect(copy.globalStamp).toBe(0)
    }
    // Into a store that holds one of their keys already.
    const full = createDatastore<Names>(writeModel(), { clock: writeClock(), data: writeData() })
    expect(() => applyLogRecords(full, [company({}), last])).toThrow(
      /insert of Company\(1\), which is there already/,
    )
    expect(dumpData(full)).toEqual(dumpData(setup().ds))
  })
})
