/**
 * A failed atomic batch leaves the store identical: not only the rows a reader sees, but everything
 * behind them (row slots, key directory, sequences, the content and order of every index, numeric
 * and folded columns, the global stamp), compared through a deep snapshot taken before and after.
 * The batches are random valid writes with one failing write (or a plain throw) at a random place.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { Entity } from '../orda/objects/entity.js'
import type { KeyValue } from '../store/entity-record.js'
import { snapshotStore, type StoreSnapshot } from './snapshot.fixture.js'
import { writeClock, writeData, writeModel } from './writes.fixture.js'

const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Émile', 'smith', 'Grace']

/** A store with a history: sequences past the data, deleted rows, later versions, built columns. */
function warmStore(): Datastore {
  let n = 0
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock: writeClock(),
    newUuid: () => `00000000-0000-0000-0000-${String(++n).padStart(12, '0')}`,
    calculated: { Employee: { fullName: (e) => `#${String(e.get('lastName'))}` } },
  })
  const Employee = ds.dataClass('Employee')
  const Company = ds.dataClass('Company')
  Company.create({ name: 'Initech', code: 'IT' })
  for (let i = 0; i < 20; i++) {
    Employee.create({
      lastName: LAST_NAMES[i % LAST_NAMES.length],
      salary: 1000 * (i % 7),
      email: `w${i}@warm`,
      employer: 1 + (i % 3),
    })
  }
  Employee.drop(5)
  Employee.drop(12, { stamp: 1 })
  Employee.update(2, { salary: 6500, lastName: 'Turing-Smith' })
  ds.dataClass('Tag').create({ label: 'a' })
  // The columns a text scan and orderings make: the batch then meets them, as later writes do.
  Employee.query('lastName = "@ace"').length
  Employee.query('salary > 0 order by salary').window(0, 3).toArray()
  Employee.all().orderBy('employerID').window(0, 3).toArray()
  return ds
}

/** Every key a batch below may create or touch, for the key directory's probe. */
const PROBE: Record<string, KeyValue[]> = {
  Employee: [
    ...Array.from({ length: 80 }, (_, i) => i),
    ...Array.from({ length: 40 }, (_, i) => 1000 + i),
  ],
  Company: Array.from({ length: 40 }, (_, i) => i),
}
const snapshot = (ds: Datastore): StoreSnapshot => snapshotStore(ds.store, PROBE)

/**
 * What a batch knows as it goes (it reads its own writes): the
 * keys it can still touch, their current stamps, and the employees' current emails.
 */
interface Batch {
  readonly ds: Datastore
  employees: number[]
  companies: number[]
  readonly stamps: Map<string, number>
  readonly emails: Map<number, string | null>
  n: number
}

type Valid =
  | { kind: 'createEmployee'; name: number; salary: number; company: number; explicitKey: boolean }
  | { kind: 'createCompany'; name: number }
  | {
      kind: 'updateEmployee'
      pick: number
      salary: number
      name: number
      newEmail: boolean
      withStamp: boolean
    }
  | { kind: 'updateCompany'; pick: number; name: number }
  | { kind: 'swapEmails'; a: number; b: number }
  | { kind: 'dropEmployee'; pick: number; withStamp: boolean }
  | { kind: 'dropNewCompany' }
  | { kind: 'dropWhere'; salary: number }

type Poison =
  | 'unknownAttr'
  | 'wrongType'
  | 'readOnly'
  | 'missingRef'
  | 'notNull'
  | 'dupKey'
  | 'dupUnique'
  | 'stale'
  | 'missingKey'
  | 'userThrow'

const pickOf = (keys: readonly number[], pick: number): number | undefined =>
  keys.length === 0 ? undefined : keys[pick % keys.length]

/** One valid write (it can only fail if this test is wrong: the batch would then throw anyway). */
function runValid(b: Batch, a: Valid): void {
  const Employee = b.ds.dataClass('Employee')
  const Company = b.ds.dataClass('Company')
  const saved = (name: string, e: Entity) => {
    b.stamps.set(`${name}:${String(e.key)}`, e.stamp)
    if (name === 'Employee') b.emails.set(e.key as number, e.get('email') as string | null)
  }
  switch (a.kind) {
    case 'createEmployee': {
      const e = Employee.create({
        ...(a.explicitKey ? { ID: 1000 + b.n } : {}),
        lastName: LAST_NAMES[a.name % LAST_NAMES.length],
        salary: a.salary,
        email: `b${b.n++}@batch`,
        employer: pickOf(b.companies, a.company) ?? null,
      })
      b.employees.push(e.key as number)
      saved('Employee', e)
      break
    }
    case 'createCompany': {
      const c = Company.create({ name: LAST_NAMES[a.name % LAST_NAMES.length], code: `B${b.n++}` })
      b.companies.push(c.key as number)
      saved('Company', c)
      break
    }
    case 'updateEmployee': {
      const key = pickOf(b.employees, a.pick)
      if (key === undefined) return
      const values = {
        salary: a.salary,
        lastName: LAST_NAMES[a.name % LAST_NAMES.length],
        ...(a.newEmail ? { email: `b${b.n++}@batch` } : {}),
      }
      const stamp = a.withStamp ? { stamp: b.stamps.get(`Employee:${key}`) } : {}
      saved('Employee', Employee.update(key, values, stamp))
      break
    }
    case 'updateCompany': {
      // Names only: company 1 keeps its code "AC", which the dupUnique poison relies on.
      const key = pickOf(b.companies, a.pick)
      if (key === undefined) return
      saved('Company', Company.update(key, { name: LAST_NAMES[a.name % LAST_NAMES.length] }))
      break
    }
    case 'swapEmails': {
      // Valid inside a transaction only: for a moment two entities would share a value.
      const x = pickOf(b.employees, a.a)
      const y = pickOf(b.employees, a.b)
      if (x === undefined || y === undefined || x === y) return
      const [ex, ey] = [b.emails.get(x) ?? null, b.emails.get(y) ?? null]
      saved('Employee', Employee.update(x, { email: `tmp${b.n++}@batch` }))
      saved('Employee', Employee.update(y, { email: ex }))
      saved('Employee', Employee.update(x, { email: ey }))
      break
    }
    case 'dropEmployee': {
      const key = pickOf(b.employees, a.pick)
      if (key === undefined) return
      Employee.drop(key, a.withStamp ? { stamp: b.stamps.get(`Employee:${key}`) } : {})
      b.employees = b.employees.filter((k) => k !== key)
      break
    }
    case 'dropNewCompany': {
      const key = b.companies.at(-1)
      if (key === undefined || key <= 3) return
      Company.drop(key)
      b.companies = b.companies.slice(0, -1)
      break
    }
    case 'dropWhere':
      // The query reads the data as the batch sees it (its own writes included), and a read by key
      // sees the batch's writes: the entities it dropped read as null.
      Employee.query('salary > :1', a.salary).dropOrFail()
      b.employees = b.employees.filter((k) => Employee.get(k) !== null)
      break
  }
}

const USER_THROW = new Error('the transaction function throws')
const CODES: Record<Exclude<Poison, 'userThrow'>, number> = {
  unknownAttr: 1500,
  wrongType: 1570,
  readOnly: 1516,
  missingRef: 1570,
  notNull: 1570,
  dupKey: 1545,
  dupUnique: 9040,
  stale: 1263,
  missingKey: 1542,
}

/** A write that must fail, whatever the valid writes before it did. */
function runPoison(b: Batch, p: Poison): never {
  const Employee = b.ds.dataClass('Employee')
  const Company = b.ds.dataClass('Company')
  const some = b.employees[0] ?? 1
  switch (p) {
    case 'unknownAttr':
      Employee.create({ lastName: 'x', nope: 1 })
      break
    case 'wrongType':
      Employee.update(some, { salary: 'lots' })
      break
    case 'readOnly':
      Employee.create({ fullName: 'x' })
      break
    case 'missingRef':
      Employee.create({ employer: 9999 })
      break
    case 'notNull':
      // The autosequence value is drawn before the null name is refused.
      Company.create({ code: `N${b.n++}` })
      break
    case 'dupKey':
      // Key 1 was committed: taken for this batch even if the batch dropped it.
      Employee.create({ ID: 1, email: `k${b.n++}@batch` })
      break
    case 'dupUnique':
      // Refused after the key, a row id and the sequence value were drawn.
      Company.create({ name: 'Dup', code: 'ac' })
      break
    case 'stale':
      Employee.update(some, { salary: 1 }, { stamp: 0 })
      break
    case 'missingKey':
      Employee.drop(99_999)
      break
    case 'userThrow':
      throw USER_THROW
  }
  throw new Error(`the poison ${p} did not fail`)
}

function newBatch(ds: Datastore): Batch {
  const stamps = new Map<string, number>()
  const emails = new Map<number, string | null>()
  const keys = (name: string) =>
    ds
      .dataClass(name)
      .all()
      .toArray()
      .map((e) => {
        stamps.set(`${name}:${String(e.key)}`, e.stamp)
        if (name === 'Employee') emails.set(e.key as number, e.get('email') as string | null)
        return e.key as number
      })
  return { ds, employees: keys('Employee'), companies: keys('Company'), stamps, emails, n: 0 }
}

const validArb: fc.Arbitrary<Valid> = fc.oneof(
  fc.record({
    kind: fc.constant('createEmployee' as const),
    name: fc.nat(10),
    salary: fc.integer({ min: -5, max: 9000 }),
    company: fc.nat(10),
    explicitKey: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('createCompany' as const), name: fc.nat(10) }),
  fc.record({
    kind: fc.constant('updateEmployee' as const),
    pick: fc.nat(100),
    salary: fc.integer({ min: -5, max: 9000 }),
    name: fc.nat(10),
    newEmail: fc.boolean(),
    withStamp: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('updateCompany' as const), pick: fc.nat(10), name: fc.nat(10) }),
  fc.record({ kind: fc.constant('swapEmails' as const), a: fc.nat(100), b: fc.nat(100) }),
  fc.record({
    kind: fc.constant('dropEmployee' as const),
    pick: fc.nat(100),
    withStamp: fc.boolean(),
  }),
  fc.constant({ kind: 'dropNewCompany' as const }),
  fc.record({
    kind: fc.constant('dropWhere' as const),
    salary: fc.integer({ min: 4000, max: 9000 }),
  }),
)
const poisonArb = fc.constantFrom<Poison>(
  'unknownAttr',
  'wrongType',
  'readOnly',
  'missingRef',
  'notNull',
  'dupKey',
  'dupUnique',
  'stale',
  'missingKey',
  'userThrow',
)

describe('a failed atomic batch', () => {
  it('leaves the store identical, down to index order, columns and sequences', () => {
    fc.assert(
      fc.property(
        fc.array(validArb, { maxLength: 12 }),
        poisonArb,
        fc.nat(12),
        (valid, poison, at) => {
          const ds = warmStore()
          const before = snapshot(ds)
          // The poison goes after `where` valid writes (the throw ends the function: later ones never run).
          const where = at % (valid.length + 1)
          let error: unknown
          try {
            ds.transaction(() => {
              const b = newBatch(ds)
              valid.slice(0, where).forEach((a) => runValid(b, a))
              runPoison(b, poison)
            })
          } catch (e) {
            error = e
          }
          // The poison's own error: the valid writes before it all went through.
          if (poison === 'userThrow') expect(error).toBe(USER_THROW)
          else expect((error as { errCode?: number }).errCode, String(error)).toBe(CODES[poison])
          expect(snapshot(ds)).toEqual(before)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('is seen: a batch that commits changes the snapshot in every part it touched', () => {
    const ds = warmStore()
    const before = snapshot(ds)
    expect(snapshot(ds)).toEqual(before) // taking a snapshot changes nothing
    ds.transaction(() => {
      const b = newBatch(ds)
      runValid(b, { kind: 'createEmployee', name: 0, salary: 4200, company: 0, explicitKey: false })
      runValid(b, {
        kind: 'updateEmployee',
        pick: 0,
        salary: 8800,
        name: 3,
        newEmail: true,
        withStamp: true,
      })
      runValid(b, { kind: 'dropEmployee', pick: 3, withStamp: false })
    })
    const after = snapshot(ds)
    expect(after).not.toEqual(before)
    const [e0, e1] = [before.tables.Employee!, after.tables.Employee!]
    expect(after.globalStamp).toBe(before.globalStamp + 3)
    expect(e1.slots).not.toEqual(e0.slots)
    expect(e1.nextRowId).toBe(e0.nextRowId + 1)
    expect(e1.deletions).toBe(e0.deletions + 1)
    expect(e1.sequences).not.toEqual(e0.sequences)
    expect(e1.orderedRowIds).not.toEqual(e0.orderedRowIds)
    for (const attr of ['ID', 'lastName', 'salary', 'email', 'employerID'])
      expect(e1.indexes[attr], attr).not.toEqual(e0.indexes[attr])
    expect(e1.numeric.salary).not.toEqual(e0.numeric.salary)
    expect(e1.folded.lastName).not.toEqual(e0.folded.lastName)
    expect(after.tables.Company).toEqual(before.tables.Company)
  })
})
