/**
 * The single update committed alone (single-update.ts): which writes take it (counted by spying on
 * the transaction's `update`, never timed), and that each guarantee a transaction of its own gives
 * still holds on it. The model-based tests (writes.prop.test.ts, and the REST one) run random
 * writes through it against a plain model; these name each guarantee once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { defineFunctions } from '../orda/objects/define-functions.js'
import type { Change } from '../store/changes.js'
import type { CommitInfo } from '../store/store.js'
import { Transaction, type CommittedChange } from './transaction.js'
import { writeClock, writeData, writeModel } from './writes.fixture.js'

const fresh = (options: { tracked?: boolean; events?: boolean } = {}) => {
  const clock = writeClock()
  const base = writeModel()
  const model = options.tracked
    ? {
        ...base,
        dataClasses: base.dataClasses.map((dc) =>
          dc.name === 'Employee'
            ? { ...dc, attributes: [...dc.attributes, { name: '__GlobalStamp', type: 'long64' }] }
            : dc,
        ),
      }
    : base
  const functions = options.events
    ? defineFunctions({
        dataClasses: {
          Employee: {
            events: {
              saving() {
                this.set('lastName', String(this.get('lastName')).toUpperCase())
              },
            },
          },
        },
      })
    : undefined
  const ds = createDatastore(model, {
    data: writeData(),
    clock,
    ...(functions ? { functions } : {}),
  })
  // Counts the writes that went through a transaction (the fallback), and the commits.
  const viaTransaction = vi.spyOn(Transaction.prototype, 'update')
  const commits: { changes: readonly Change[]; info: CommitInfo }[] = []
  ds.store.onCommit((changes, info) => commits.push({ changes, info }))
  return { ds, clock, Employee: ds.dataClass('Employee'), viaTransaction, commits }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a single update outside any transaction', () => {
  it('commits alone, once, with the stamp + 1, the write time, and the global stamp moved', () => {
    const { ds, clock, Employee, viaTransaction, commits } = fresh()
    clock.advance(5000)
    const stampBefore = ds.getGlobalStamp()
    const e = Employee.update(2, { salary: 6500, lastName: 'Turing (A.)' })
    expect(viaTransaction).not.toHaveBeenCalled()
    expect(commits).toHaveLength(1)
    expect(e.getStamp()).toBe(2)
    expect(e.get('salary')).toBe(6500)
    expect(e.timestamp).toBe(clock.now())
    expect(Employee.get(2)).toBe(e)
    expect(ds.getGlobalStamp()).toBe(stampBefore + 1)
    expect(commits[0]!.info).toMatchObject({ kind: 'write', globalStamp: stampBefore + 1 })
  })

  it('tells the commit listeners the change with its patches, as a transaction does', () => {
    const { Employee, commits } = fresh()
    const before = Employee.get(1)!
    const after = Employee.update(1, { salary: 5100, hired: null })
    const [change] = commits[0]!.changes as CommittedChange[]
    expect(change).toMatchObject({ op: 'update', before, after })
    // hired was null already: only salary changed.
    expect(change!.patches).toEqual([{ op: 'replace', path: ['salary'], value: 5100 }])
  })

  it('gives the patches of a tracked dataclass too, whose change the commit copies', () => {
    const { Employee, commits, viaTransaction } = fresh({ tracked: true })
    Employee.update(1, { lastName: 'Byron', salary: 5000 })
    expect(viaTransaction).not.toHaveBeenCalled()
    const [change] = commits[0]!.changes as CommittedChange[]
    // salary was 5000 already.
    expect(change!.patches).toEqual([{ op: 'replace', path: ['lastName'], value: 'Byron' }])
  })

  it('leaves the version before whole for whoever holds it, and freezes the new one', () => {
    const { Employee } = fresh()
    const held = Employee.get(3)!
    const after = Employee.update(3, { salary: 1 })
    expect(held.get('salary')).toBe(7000)
    expect(held.getStamp()).toBe(1)
    expect(after).not.toBe(held)
    expect(Object.isFrozen(after)).toBe(true)
    expect(Object.isFrozen(after.values)).toBe(true)
    // The same hidden class as a loaded record's values: the same fields, in the same order.
    expect(Object.keys(after.values)).toEqual(Object.keys(held.values))
  })

  it('moves the indexes and the columns the queries read', () => {
    const { Employee, viaTransaction } = fresh()
    expect(Employee.query('salary > 6500').length).toBe(1)
    expect(Employee.query('lastName = :1', 'Lovelace').length).toBe(1)
    Employee.update(1, { salary: 9000, lastName: 'Byron' })
    expect(viaTransaction).not.toHaveBeenCalled()
    expect(Employee.query('salary > 6500').toCollection('ID')).toEqual([{ ID: 1 }, { ID: 3 }])
    expect(Employee.query('lastName = :1', 'Lovelace').length).toBe(0)
    expect(Employee.query('lastName = :1', 'byron').first()?.getKey()).toBe(1)
    expect(Employee.all().orderBy('salary desc').first()?.getKey()).toBe(1)
  })

  it('writes the global stamp into a tracked dataclass’s new version', () => {
    const { ds, Employee, viaTransaction } = fresh({ tracked: true })
    const e = Employee.update(2, { salary: 1 })
    expect(viaTransaction).not.toHaveBeenCalled()
    expect(e.get('__GlobalStamp')).toBe(ds.getGlobalStamp())
    expect(Employee.get(2)!.get('__GlobalStamp')).toBe(ds.getGlobalStamp())
  })

  it('refuses as the transaction does, and leaves everything as it was', () => {
    const { ds, Employee, commits } = fresh()
    const stamp = ds.getGlobalStamp()
    expect(thrown(() => Employee.update(2, { salary: 'many' }))).toMatchObject({
      name: 'InvalidAttributeValue',
    })
    expect(thrown(() => Employee.update(99, { salary: 1 }))).toMatchObject({
      name: 'EntityNotFound',
    })
    expect(thrown(() => Employee.update(2, { salary: 1 }, { stamp: 7 }))).toMatchObject({
      name: 'StampChanged',
    })
    expect(thrown(() => Employee.update(2, { nope: 1 }))).toMatchObject({
      name: 'UnknownAttribute',
    })
    expect(commits).toHaveLength(0)
    expect(ds.getGlobalStamp()).toBe(stamp)
    expect(Employee.get(2)!.get('salary')).toBe(6000)
  })

  it("a lock is the transaction's to check: another owner's is refused, the process's own passes", () => {
    const { ds, Employee, viaTransaction } = fresh()
    const session = { id: ds.sessions.open().id, kind: 'session' as const }
    Employee.get(2)!.lock({ owner: session })
    expect(thrown(() => Employee.update(2, { salary: 1 }))).toMatchObject({ name: 'EntityLocked' })
    expect(viaTransaction).toHaveBeenCalledTimes(1)
    Employee.get(3)!.lock()
    expect(Employee.update(3, { salary: 2 }).get('salary')).toBe(2)
    expect(viaTransaction).toHaveBeenCalledTimes(2)
  })

  it('takes a transaction for a unique value, a relation or an open transaction', () => {
    const { ds, Employee, viaTransaction } = fresh()
    Employee.update(1, { email: 'ada@byron' })
    expect(viaTransaction).toHaveBeenCalledTimes(1)
    expect(thrown(() => Employee.update(2, { email: 'ada@byron' }))).toMatchObject({
      name: 'UniqueViolation',
    })
    Employee.update(1, { employer: 2 })
    Employee.update(1, { employerID: 1 })
    expect(thrown(() => Employee.update(1, { employerID: 9 }))).toMatchObject({
      name: 'InvalidAttributeValue',
    })
    ds.transaction(() => Employee.update(3, { salary: 3 }))
    expect(viaTransaction).toHaveBeenCalledTimes(6)
  })

  it('is the write of a save with entity events too: the events run around it', () => {
    const { Employee, viaTransaction } = fresh({ events: true })
    const e = Employee.update(1, { salary: 1 })
    expect(viaTransaction).not.toHaveBeenCalled()
    expect(e.get('lastName')).toBe('LOVELACE')
  })
})
