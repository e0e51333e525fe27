// 4D's transactions on the DataStore class (API/DataStoreClass, 4D 21 R4): startTransaction,
// validateTransaction, cancelTransaction, transactionLevel, written from the page's examples, and
// what Entistore adds to make them hold across awaits: one transaction per process (a request, a
// ds.actAs, or the TypeScript code outside them), its writes staged and read back by key, locked
// for the others, checked again at commit.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { gate, sessionOf, storeFixture } from './datastore.fixture.js'
import type { DataClass } from './data-class.js'

describe("4D's example: a person renamed inside a transaction", () => {
  // $ds.startTransaction(); $person:=$ds.Persons.query("lastname=:1";"Peters").first()
  // $person.lastname:="Smith"; $status:=$person.save(); … validateTransaction or cancelTransaction
  const rename = () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    const person = ds.Persons.query('lastname=:1', 'Peters').first()
    expect(person).not.toBeNull()
    person!.edit({ lastname: 'Smith' }).save()
    return ds
  }

  it('cancelled: the change is gone', () => {
    const ds = rename()
    expect(ds.transactionLevel()).toBe(1)
    // The transaction's own write, read by key and found by a query.
    expect(ds.Persons.get(1)?.get('lastname')).toBe('Smith')
    expect(ds.Persons.query('lastname = :1', 'Smith').length).toBe(1)
    expect(ds.Persons.query('lastname = :1', 'Peters').length).toBe(0)
    ds.cancelTransaction()
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.Persons.get(1)?.get('lastname')).toBe('Peters')
    expect(ds.Persons.query('lastname = :1', 'Smith').length).toBe(0)
  })

  it('validated: the change is saved', () => {
    const ds = rename()
    ds.validateTransaction()
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.Persons.get(1)?.get('lastname')).toBe('Smith')
    expect(ds.Persons.query('lastname = :1', 'Smith').length).toBe(1)
  })
})

describe('nested transactions (sub-transactions)', () => {
  it('transactionLevel counts them: 0 outside, 1, 2…', () => {
    const { ds } = storeFixture()
    const levels = [ds.transactionLevel()]
    ds.startTransaction()
    levels.push(ds.transactionLevel())
    ds.startTransaction()
    levels.push(ds.transactionLevel())
    ds.validateTransaction()
    levels.push(ds.transactionLevel())
    ds.cancelTransaction()
    levels.push(ds.transactionLevel())
    expect(levels).toEqual([0, 1, 2, 1, 0])
  })

  it('cancelling the main transaction cancels a sub-transaction validated on its own', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    const a = ds.Persons.create({ firstname: 'Ann', lastname: 'Outer' })
    ds.startTransaction()
    const b = ds.Persons.create({ firstname: 'Bob', lastname: 'Inner' })
    ds.validateTransaction()
    expect(ds.Persons.get(b.key)?.get('lastname')).toBe('Inner')
    ds.cancelTransaction()
    expect(ds.Persons.get(a.key)).toBeNull()
    expect(ds.Persons.get(b.key)).toBeNull()
    expect(ds.Persons.length).toBe(2)
  })

  it('cancelling a sub-transaction drops its writes only', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    ds.Employee.update(1, { salary: 5100 })
    ds.startTransaction()
    ds.Employee.update(1, { salary: 9999 })
    ds.Employee.drop(2)
    const c = ds.Employee.create({ lastName: 'Inner', email: 'inner@acme' })
    expect(ds.Employee.get(1)?.get('salary')).toBe(9999)
    ds.cancelTransaction()
    expect(ds.Employee.get(1)?.get('salary')).toBe(5100)
    expect(ds.Employee.get(2)?.get('lastName')).toBe('Turing')
    expect(ds.Employee.get(c.key)).toBeNull()
    // The key and the unique value the cancelled level claimed are free again in the transaction.
    expect(
      ds.Employee.create({ ID: c.key as number, lastName: 'Again', email: 'inner@acme' }).key,
    ).toBe(c.key)
    ds.validateTransaction()
    expect(ds.Employee.get(1)?.get('salary')).toBe(5100)
    expect(ds.Employee.get(c.key)?.get('lastName')).toBe('Again')
  })

  it('validate and cancel outside a transaction do nothing', () => {
    const { ds } = storeFixture()
    const stamp = ds.getGlobalStamp()
    ds.validateTransaction()
    ds.cancelTransaction()
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.getGlobalStamp()).toBe(stamp)
  })

  it('ds.transaction(fn) is one more level: nested, and its throw cancels its level only', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    ds.Employee.update(1, { salary: 1 })
    expect(() =>
      ds.transaction(() => {
        expect(ds.transactionLevel()).toBe(2)
        ds.Employee.update(2, { salary: 2 })
        throw new Error('refused')
      }),
    ).toThrow('refused')
    expect(ds.transactionLevel()).toBe(1)
    expect(ds.Employee.get(2)?.get('salary')).toBe(6000)
    ds.validateTransaction()
    expect(ds.Employee.get(1)?.get('salary')).toBe(1)
  })

  it('ds.transaction(fn) refuses a function that leaves a level open, and cancels it', () => {
    const { ds } = storeFixture()
    expect(() =>
      ds.transaction(() => {
        ds.Employee.update(1, { salary: 1 })
        ds.startTransaction()
      }),
    ).toThrow(/left 1 transaction/)
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.Employee.get(1)?.get('salary')).toBe(5000)
  })
})

describe('a transaction across awaits belongs to its process', () => {
  it('another process sees none of its writes, cannot write what it wrote, and sees them once validated', async () => {
    const { ds } = storeFixture()
    const [a, b] = [sessionOf(ds), sessionOf(ds)]
    const paid = gate()
    const transfer = ds.actAs(a, async () => {
      ds.startTransaction()
      ds.Employee.update(1, { salary: 4000 })
      await paid.wait
      ds.Employee.update(2, { salary: 7000 })
      expect(ds.transactionLevel()).toBe(1)
      ds.validateTransaction()
      return ds.transactionLevel()
    })
    // Meanwhile, in another process: the committed data, no transaction, the entity locked.
    await ds.actAs(b, async () => {
      expect(ds.transactionLevel()).toBe(0)
      expect(ds.Employee.get(1)?.get('salary')).toBe(5000)
      expect(thrown(() => ds.Employee.update(1, { salary: 1 })).name).toBe('EntityLocked')
      expect(ds.Employee.get(1)!.lock()).toMatchObject({ success: false, status: 3 })
    })
    // The TypeScript code outside both is a process of its own too.
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.Employee.get(1)?.get('salary')).toBe(5000)
    paid.open()
    expect(await transfer).toBe(0)
    expect(ds.Employee.get(1)?.get('salary')).toBe(4000)
    expect(ds.Employee.get(2)?.get('salary')).toBe(7000)
    expect(ds.locks.size).toBe(0)
  })

  it('the same session in two processes: the transaction still locks what it wrote', async () => {
    const { ds } = storeFixture()
    const session = sessionOf(ds)
    const done = gate()
    const first = ds.actAs(session, async () => {
      ds.startTransaction()
      ds.Employee.update(3, { salary: 1 })
      await done.wait
      ds.cancelTransaction()
    })
    await ds.actAs(session, async () => {
      expect(thrown(() => ds.Employee.update(3, { salary: 2 })).name).toBe('EntityLocked')
    })
    done.open()
    await first
    expect(ds.Employee.get(3)?.get('salary')).toBe(7000)
  })

  it('its process locks, unlocks and writes again what its transaction locked; one lock, released at its end', async () => {
    const { ds } = storeFixture()
    await ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      const saved = ds.Employee.get(1)!.edit({ salary: 1 }).saveOrFail()
      await Promise.resolve()
      expect(saved.lock()).toEqual({ success: true })
      expect(ds.locks.size).toBe(1)
      // Kept until the transaction ends, whatever its process asks.
      expect(saved.unlock()).toEqual({ success: true })
      expect(ds.locks.holder('Employee', 1)?.transaction).toBeDefined()
      ds.Employee.update(1, { salary: 2 })
      ds.validateTransaction()
      expect(ds.locks.size).toBe(0)
    })
    expect(ds.Employee.get(1)?.get('salary')).toBe(2)
  })

  it('new entities of two processes get their own keys and row ids', async () => {
    const { ds } = storeFixture()
    const go = gate()
    const slow = ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      const mine = ds.Persons.create({ lastname: 'Slow' })
      await go.wait
      ds.validateTransaction()
      return mine
    })
    const quick = ds.Persons.create({ lastname: 'Quick' })
    go.open()
    const mine = await slow
    expect(mine.key).not.toBe(quick.key)
    expect(mine.rowId).not.toBe(quick.rowId)
    expect(ds.Persons.all().extract('lastname')).toEqual(['Peters', 'Doe', 'Slow', 'Quick'])
    expect(ds.Persons.get(mine.key)?.rowId).toBe(mine.rowId)
  })

  it('a validation whose write no longer applies fails: nothing saved, the transaction cancelled', async () => {
    const { ds } = storeFixture()
    const go = gate()
    const hire = ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      ds.Employee.update(1, { salary: 1 })
      ds.Employee.create({ lastName: 'New', email: 'new@globex', employer: 2 })
      await go.wait
      const error = thrown(() => ds.validateTransaction())
      return { error, level: ds.transactionLevel() }
    })
    // Another process deletes the company the new employee refers to.
    ds.Company.drop(2)
    go.open()
    const { error, level } = await hire
    expect(error.name).toBe('TransactionConflict')
    expect(error.errCode).toBe(9071)
    expect(error.message).toMatch(/nothing was saved/)
    expect(level).toBe(0)
    expect(ds.Employee.get(1)?.get('salary')).toBe(5000)
    expect(ds.Employee.query('lastName = :1', 'New').length).toBe(0)
    expect(ds.locks.size).toBe(0)
  })

  it('a unique value or a key another process committed meanwhile fails the validation', async () => {
    const { ds } = storeFixture()
    for (const clash of ['email', 'key'] as const) {
      const go = gate()
      const pending = ds.actAs(sessionOf(ds), async () => {
        ds.startTransaction()
        ds.Employee.create(
          clash === 'email' ? { lastName: 'A', email: 'same@acme' } : { ID: 50, lastName: 'A' },
        )
        await go.wait
        return thrown(() => ds.validateTransaction())
      })
      ds.Employee.create(
        clash === 'email' ? { lastName: 'B', email: 'same@acme' } : { ID: 50, lastName: 'B' },
      )
      go.open()
      expect((await pending).name).toBe('TransactionConflict')
    }
    expect(ds.Employee.query('lastName = :1', 'A').length).toBe(0)
  })

  it('an entity its owner had locked, saved by another process of that owner, fails the validation', async () => {
    const { ds } = storeFixture()
    const session = sessionOf(ds)
    await ds.actAs(session, () => ds.Employee.get(2)!.lock())
    const go = gate()
    const pending = ds.actAs(session, async () => {
      ds.startTransaction()
      ds.Employee.update(2, { salary: 1 })
      await go.wait
      return thrown(() => ds.validateTransaction())
    })
    // The owner's own lock lets each of its processes write.
    await ds.actAs(session, () => ds.Employee.update(2, { salary: 2 }))
    go.open()
    expect((await pending).message).toMatch(/another call saved it/)
    expect(ds.Employee.get(2)?.get('salary')).toBe(2)
  })

  it('a restore by another process fails the validation', async () => {
    const { ds } = storeFixture()
    const snapshot = ds.snapshot()
    const go = gate()
    const pending = ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      ds.Persons.create({ lastname: 'Lost' })
      await go.wait
      return thrown(() => ds.validateTransaction())
    })
    ds.restore(snapshot)
    go.open()
    expect((await pending).message).toMatch(/restored/)
    expect(ds.Persons.length).toBe(2)
  })
})

describe('a process that ends with its transaction open', () => {
  it('has it cancelled: nothing saved, locks released, the next process starts at level 0', async () => {
    const { ds } = storeFixture()
    const later = gate()
    let leftover: Promise<unknown> | undefined
    await ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      ds.Employee.update(1, { salary: 1 })
      // Code of the process that runs after it ended (an un-awaited promise).
      leftover = later.wait.then(() => ds.Employee.update(2, { salary: 2 }))
    })
    expect(ds.Employee.get(1)?.get('salary')).toBe(5000)
    expect(ds.locks.size).toBe(0)
    await ds.actAs(sessionOf(ds), () => {
      expect(ds.transactionLevel()).toBe(0)
      ds.startTransaction()
      ds.Employee.update(1, { salary: 3 })
      ds.validateTransaction()
    })
    expect(ds.Employee.get(1)?.get('salary')).toBe(3)
    later.open()
    // It believes its transaction open: its write is refused, not made outside it.
    await expect(leftover).rejects.toMatchObject({ name: 'TransactionAbandoned', errCode: 9073 })
    expect(ds.Employee.get(2)?.get('salary')).toBe(6000)
  })
})

describe('types', () => {
  it('are those of 4D’s members, and the dataclasses stay typed inside a transaction', () => {
    const { ds } = storeFixture()
    expectTypeOf(ds.startTransaction()).toEqualTypeOf<void>()
    expectTypeOf(ds.validateTransaction()).toEqualTypeOf<void>()
    expectTypeOf(ds.cancelTransaction()).toEqualTypeOf<void>()
    expectTypeOf(ds.transactionLevel()).toEqualTypeOf<number>()
    expectTypeOf(ds.Persons).toMatchTypeOf<DataClass<any, 'Persons'>>()
    expectTypeOf(ds.Persons.get(1)!.get('lastname')).toEqualTypeOf<string | null>()
    expectTypeOf(ds.transaction(() => ds.Employee.get(1)!.get('salary'))).toEqualTypeOf<
      number | null
    >()
    ds.cancelTransaction()
  })
})
