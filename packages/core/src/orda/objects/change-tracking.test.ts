/**
 * 4D's data change tracking (4D docs, "ORDA / Using the Global Stamp"): a dataclass with
 * `__GlobalStamp` gets the global stamp at each save, a delete adds a `__DeletedRecords` row, and
 * `ds.getGlobalStamp()` / `ds.setGlobalStamp()` read and set it.
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { Session } from '../../sessions/session-api.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: '__GlobalStamp', type: 'long64', indexed: true, exposed: true },
      ],
    },
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'text', type: 'string' },
      ],
    },
  ],
}

function company() {
  return createDatastore(model, {
    data: {
      Employee: [
        { ID: 1, name: 'Ann', salary: 5000 },
        { ID: 2, name: 'Bob', salary: 4000 },
      ],
    },
  })
}

const errCode = (fn: () => unknown): number => thrown(fn).errCode

describe('change tracking: the model', () => {
  it('a dataclass declaring __GlobalStamp is tracked, and __DeletedRecords is added as 4D adds it', () => {
    const ds = company()
    expect(ds.dataClass('Employee').def.tracked).toBe(true)
    expect(ds.dataClass('Note').def.tracked).toBe(false)
    const deleted = ds.dataClass('__DeletedRecords')
    expect(deleted.attributes.map((a) => [a.name, a.kind === 'storage' && a.type])).toEqual([
      ['ID', 'long64'],
      ['__Stamp', 'long64'],
      ['__TableNumber', 'long'],
      ['__TableName', 'string'],
      ['__PrimaryKey', 'string'],
    ])
    expect(deleted.def.tableNumber).toBe(3)
    const stamp = ds.dataClass('Employee').attribute('__GlobalStamp')
    expect(stamp.readOnly).toBe(true)
    expect(stamp.kind === 'storage' && stamp.indexed).toBe(true)
  })

  it('an untracked model has no __DeletedRecords and still refuses other __ names', () => {
    const ds = createDatastore({ dataClasses: [model.dataClasses[1]!] })
    expect(ds.findDataClass('__DeletedRecords')).toBeUndefined()
    const bad =
      (attrs: object[], name = 'X') =>
      () =>
        createDatastore({
          dataClasses: [{ name, attributes: [{ name: 'ID', type: 'long' }, ...attrs] } as never],
        })
    expect(errCode(bad([{ name: '__proto__', type: 'string' }]))).toBe(9020)
    expect(errCode(bad([{ name: '__Stamp', type: 'long64' }]))).toBe(9020)
    expect(errCode(bad([], '__Other'))).toBe(9020)
    expect(bad([{ name: '__GlobalStamp', type: 'string' }])).toThrow(/type long64 or number/)
    expect(bad([{ name: 'x', type: 'string' }], '__DeletedRecords')).toThrow(
      /needs the attributes __PrimaryKey, __Stamp, __TableName, __TableNumber/,
    )
  })

  it('a __DeletedRecords the model declares (with a uuid key) is used as it is', () => {
    const ds = createDatastore({
      dataClasses: [
        model.dataClasses[0]!,
        {
          name: '__DeletedRecords',
          attributes: [
            { name: 'UUID', type: 'uuid', autosequence: true },
            { name: '__PrimaryKey', type: 'string' },
            { name: '__Stamp', type: 'long64' },
            { name: '__TableName', type: 'string' },
            { name: '__TableNumber', type: 'long' },
          ],
          key: [{ name: 'UUID' }],
        },
      ],
    })
    const e = ds.dataClass('Employee').create({ name: 'Cy' })
    e.dropOrFail()
    const row = ds.dataClass('__DeletedRecords').all().at(0)!
    expect(typeof row.get('UUID')).toBe('string')
    expect(row.get('__Stamp')).toBe(2)
  })
})

describe('change tracking: stamps', () => {
  it('each save writes the global stamp into __GlobalStamp, after the stamp moves', () => {
    const ds = company()
    expect(ds.getGlobalStamp()).toBe(0)
    // Loaded rows hold 0: changed before any sync.
    expect(ds.dataClass('Employee').get(1)!.get('__GlobalStamp')).toBe(0)
    const cy = ds.dataClass('Employee').create({ name: 'Cy' })
    expect(cy.get('__GlobalStamp')).toBe(1)
    expect(ds.getGlobalStamp()).toBe(1)
    const ann = ds.dataClass('Employee').update(1, { salary: 5500 })
    expect(ann.get('__GlobalStamp')).toBe(2)
    expect(ds.dataClass('Employee').get(1)!.get('__GlobalStamp')).toBe(2)
    // An untracked dataclass moves the stamp too, but has no attribute for it.
    ds.dataClass('Note').create({ text: 'hi' })
    expect(ds.getGlobalStamp()).toBe(3)
  })

  it('a delete adds a __DeletedRecords row holding the key, the table and the stamp', () => {
    const ds = company()
    ds.dataClass('Employee').get(2)!.dropOrFail()
    const rows = ds
      .dataClass('__DeletedRecords')
      .all()
      .toArray()
      .map((e) => ({
        __PrimaryKey: e.get('__PrimaryKey'),
        __Stamp: e.get('__Stamp'),
        __TableName: e.get('__TableName'),
        __TableNumber: e.get('__TableNumber'),
      }))
    expect(rows).toEqual([
      { __PrimaryKey: '2', __Stamp: 1, __TableName: 'Employee', __TableNumber: 1 },
    ])
    // The row is a change of its own: the stamp moved twice.
    expect(ds.getGlobalStamp()).toBe(2)
    // An untracked dataclass's deletes add nothing.
    ds.dataClass('Note').create({ text: 'x' }).dropOrFail()
    expect(ds.dataClass('__DeletedRecords').length).toBe(1)
  })

  it('a transaction gives deletes the first stamps, then the other changes in order', () => {
    const ds = company()
    ds.transaction(() => {
      ds.dataClass('Employee').create({ name: 'Cy' })
      ds.dataClass('Employee').get(1)!.dropOrFail()
      ds.dataClass('Employee').update(2, { salary: 1 })
    })
    const emp = ds.dataClass('Employee')
    expect(emp.get(2)!.get('__GlobalStamp')).toBe(3)
    expect(emp.query("name = 'Cy'").at(0)!.get('__GlobalStamp')).toBe(2)
    expect(ds.dataClass('__DeletedRecords').all().at(0)!.get('__Stamp')).toBe(1)
    expect(ds.getGlobalStamp()).toBe(4)
  })

  it('__GlobalStamp cannot be written', () => {
    const ds = company()
    expect(errCode(() => ds.dataClass('Employee').create({ name: 'X', __GlobalStamp: 99 }))).toBe(
      1516,
    )
    expect(errCode(() => ds.dataClass('Employee').update(1, { __GlobalStamp: 99 }))).toBe(1516)
    expect(ds.getGlobalStamp()).toBe(0)
  })

  it("the incremental sync of 4D's page: changed since a stamp, and deleted since it", () => {
    // 4D's example: $modifiedEmps:=ds.Employee.query("__GlobalStamp > :1"; $oldStamp) and
    // $deletedEmpsInfo:=ds.__DeletedRecords.query("__Stamp > :1 and __TableName = :2"; …)
    const ds = company()
    const emp = ds.dataClass('Employee')
    emp.create({ name: 'Early' })
    const oldStamp = ds.getGlobalStamp()
    emp.update(1, { salary: 1 })
    emp.create({ name: 'Late' })
    emp.get(2)!.dropOrFail()
    const modified = emp
      .query('__GlobalStamp > :1', oldStamp)
      .toArray()
      .map((e) => e.get('name'))
    expect(modified.sort()).toEqual(['Ann', 'Late'])
    const deleted = ds
      .dataClass('__DeletedRecords')
      .query('__Stamp > :1 and __TableName = :2', oldStamp, 'Employee')
      .toArray()
      .map((e) => e.get('__PrimaryKey'))
    expect(deleted).toEqual(['2'])
    // Both through an index: a sync scans nothing.
    expect(emp.run('__GlobalStamp > :1', { params: [oldStamp] }).explain()).toContain(
      'SEARCH Employee USING SORTED INDEX __GlobalStamp',
    )
    expect(
      ds
        .dataClass('__DeletedRecords')
        .run('__Stamp > :1 and __TableName = :2', { params: [oldStamp, 'Employee'] })
        .explain(),
    ).toContain('SEARCH __DeletedRecords USING SORTED INDEX __Stamp')
    // Sorted by stamp, through its index.
    expect(emp.all().orderBy('__GlobalStamp desc').at(0)!.get('name')).toBe('Late')
  })

  it('setGlobalStamp moves the stamp the next change takes', () => {
    const ds = company()
    ds.setGlobalStamp(1000)
    expect(ds.getGlobalStamp()).toBe(1000)
    expect(ds.dataClass('Employee').create({ name: 'Cy' }).get('__GlobalStamp')).toBe(1001)
    expect(() => ds.setGlobalStamp(-1)).toThrow(RangeError)
    expect(() => ds.setGlobalStamp(1.5)).toThrow(RangeError)
  })

  it('a data file with stamps (saved from a tracked datastore) keeps the stamp ahead of them', () => {
    const ds = createDatastore(model, {
      data: {
        Employee: [{ ID: 1, name: 'Ann', __GlobalStamp: 41 }],
        __DeletedRecords: [
          { ID: 1, __Stamp: 57, __TableName: 'Employee', __TableNumber: 1, __PrimaryKey: '9' },
        ],
      },
    })
    expect(ds.getGlobalStamp()).toBe(57)
    expect(ds.dataClass('Employee').create({ name: 'B' }).get('__GlobalStamp')).toBe(58)
  })
})

describe('change tracking: who sees the deleted rows', () => {
  const restricted: ModelJson = {
    dataClasses: [
      {
        name: 'Doc',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: 'owner', type: 'string' },
          { name: '__GlobalStamp', type: 'long64' },
        ],
      },
      {
        name: 'Secret',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: '__GlobalStamp', type: 'long64' },
        ],
      },
    ],
  }

  function docs() {
    const ds = createDatastore(restricted, {
      data: {
        Doc: [
          { ID: 1, owner: 'ann' },
          { ID: 2, owner: 'bob' },
        ],
        Secret: [{ ID: 1 }],
      },
      functions: {
        dataClasses: {
          Doc: {
            restrict({ session }: { session?: Session }) {
              const who = session?.data.get('who')
              return who === undefined ? null : this.query('owner = :1', who)
            },
          },
        },
      },
    })
    const session = (who: string): Session => {
      const s = ds.sessions.open()
      s.data.set('who', who)
      return s
    }
    // Nobody but "admin" may read Secret.
    const authorize = (s: Session, action: string, target: { dataClass: string }) =>
      target.dataClass !== 'Secret' || s.data.get('who') === 'admin'
    const deletedKeys = (s: Session) =>
      ds.actAs(
        s,
        () =>
          ds
            .dataClass('__DeletedRecords')
            .all()
            .toArray()
            .map((e) => `${String(e.get('__TableName'))}(${String(e.get('__PrimaryKey'))})`),
        { authorize },
      )
    return { ds, session, deletedKeys, authorize }
  }

  it('a session that cannot read a dataclass sees none of its deleted rows', () => {
    const { ds, session, deletedKeys } = docs()
    const ann = session('ann')
    const admin = session('admin')
    ds.dataClass('Secret').get(1)!.dropOrFail()
    expect(deletedKeys(ann)).toEqual([])
    expect(deletedKeys(admin)).toEqual(['Secret(1)'])
    // Code outside a session has full rights.
    expect(ds.dataClass('__DeletedRecords').length).toBe(1)
  })

  it('an entity restrict hid from a session is a deletion it never learns of', () => {
    const { ds, session, deletedKeys, authorize } = docs()
    const ann = session('ann')
    const bob = session('bob')
    // Both read Doc: each holds what restrict shows it.
    for (const s of [ann, bob]) ds.actAs(s, () => ds.dataClass('Doc').all().length, { authorize })
    ds.dataClass('Doc').get(2)!.dropOrFail()
    expect(deletedKeys(bob)).toEqual(['Doc(2)'])
    expect(deletedKeys(ann)).toEqual([])
    // A query cannot find it either.
    expect(
      ds.actAs(ann, () => ds.dataClass('__DeletedRecords').query("__TableName = 'Doc'").length, {
        authorize,
      }),
    ).toBe(0)
    // A session that never read Doc holds none of it: it learns of no deletion.
    const late = session('bob')
    expect(deletedKeys(late)).toEqual([])
  })
})
