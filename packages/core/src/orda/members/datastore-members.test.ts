// The members of 4D's DataStore class (API/DataStoreClass, 4D 21 R4) other than transactions and
// the request log, from the page's examples: dataclasses as properties, getInfo, the global stamp,
// flushAndLock/locked/unlock, encryption, remote contexts, admin protection, alterable selections.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { sessionOf, storeFixture } from '../objects/datastore.fixture.js'
import type { DataClass } from '../objects/data-class.js'
import type {
  DataKeyResult,
  DatastoreInfo,
  EncryptionStatus,
  RemoteContextInfo,
} from '../objects/datastore.js'
import type { EntitySelection } from '../objects/entity-selection.js'

describe('.dataclassName', () => {
  it('is the dataclass, typed by the model: ds.Employee.all()', () => {
    const { ds } = storeFixture()
    const all = ds.Employee.all()
    expect(all.length).toBe(3)
    expect(ds.Employee).toBe(ds.dataClass('Employee'))
    expectTypeOf(ds.Employee).toMatchTypeOf<DataClass<any, 'Employee'>>()
    expectTypeOf(all).toMatchTypeOf<EntitySelection<any, 'Employee'>>()
    expectTypeOf(ds.Employee.get(1)!.get('salary')).toEqualTypeOf<number | null>()
  })
})

describe('.getInfo()', () => {
  it('answers what 4D Server answers for ds: {type: "4D", networked: false, localID: ""}', () => {
    const { ds } = storeFixture()
    expect(ds.getInfo()).toEqual({ type: '4D', networked: false, localID: '' })
    expectTypeOf(ds.getInfo()).toEqualTypeOf<DatastoreInfo>()
  })
})

describe('.getGlobalStamp() and .setGlobalStamp()', () => {
  it('reads the stamp, and a new value makes the next change take the one after it', () => {
    // $currentStamp:=ds.getGlobalStamp(); ds.setGlobalStamp($newValue)
    const { ds } = storeFixture()
    const current = ds.getGlobalStamp()
    ds.Persons.update(1, { lastname: 'Moved' })
    expect(ds.getGlobalStamp()).toBe(current + 1)
    ds.setGlobalStamp(1000)
    ds.Persons.update(2, { lastname: 'Next' })
    expect(ds.getGlobalStamp()).toBe(1001)
    expect(() => ds.transaction(() => ds.setGlobalStamp(5))).toThrow(/transaction/)
  })
})

describe('.flushAndLock(), .locked(), .unlock()', () => {
  it('locks the datastore for the calling process: its writes go on, another process’s are refused (9072)', async () => {
    const { ds } = storeFixture()
    const flushed: string[] = []
    ds.onFlush(() => flushed.push('journal'))
    expect(ds.locked()).toBe(false)
    ds.flushAndLock()
    expect(flushed).toEqual(['journal'])
    expect(ds.locked()).toBe(true)
    // The process that locked writes on (a copy of the data files would be made here).
    ds.Persons.update(1, { lastname: 'Mine' })
    const refused = await ds.actAs(sessionOf(ds), async () => ({
      write: thrown(() => ds.Persons.update(2, { lastname: 'Theirs' })),
      lock: thrown(() => ds.flushAndLock()),
      locked: ds.locked(),
    }))
    expect(refused.write).toMatchObject({ name: 'DatastoreLocked', errCode: 9072 })
    expect(refused.lock.name).toBe('DatastoreLocked')
    expect(refused.locked).toBe(true)
    ds.unlock()
    expect(ds.locked()).toBe(false)
    await ds.actAs(sessionOf(ds), () => ds.Persons.update(2, { lastname: 'Theirs' }))
    expect(ds.Persons.get(2)?.get('lastname')).toBe('Theirs')
  })

  it('needs as many unlock() as flushAndLock(); another process’s unlock() does nothing', async () => {
    const { ds } = storeFixture()
    ds.flushAndLock()
    ds.flushAndLock()
    ds.unlock()
    expect(ds.locked()).toBe(true)
    await ds.actAs(sessionOf(ds), () => ds.unlock())
    expect(ds.locked()).toBe(true)
    ds.unlock()
    expect(ds.locked()).toBe(false)
  })

  it('is released when the process that locked ends', async () => {
    const { ds } = storeFixture()
    await ds.actAs(sessionOf(ds), async () => {
      ds.flushAndLock()
      expect(ds.locked()).toBe(true)
    })
    expect(ds.locked()).toBe(false)
    ds.Persons.update(1, { lastname: 'Free' })
  })

  it('refuses another process’s transaction at its validation, and cancels it', async () => {
    const { ds } = storeFixture()
    const pending = ds.actAs(sessionOf(ds), async () => {
      ds.startTransaction()
      ds.Persons.update(1, { lastname: 'Staged' })
      await Promise.resolve()
      await Promise.resolve()
      return { error: thrown(() => ds.validateTransaction()), level: ds.transactionLevel() }
    })
    ds.flushAndLock()
    const { error, level } = await pending
    ds.unlock()
    expect(error.name).toBe('DatastoreLocked')
    expect(level).toBe(0)
    expect(ds.Persons.get(1)?.get('lastname')).toBe('Peters')
  })
})

describe('.encryptionStatus() and .provideDataKey()', () => {
  it('the data is not encrypted: no key provided, no encryptable table', () => {
    const { ds } = storeFixture()
    const status = ds.encryptionStatus()
    expect(status).toEqual({ isEncrypted: false, keyProvided: false, tables: {} })
    expect(status.isEncrypted ? 'encrypted' : 'The database is not encrypted').toBe(
      'The database is not encrypted',
    )
    expectTypeOf(status).toEqualTypeOf<EncryptionStatus>()
  })

  it('no key: null, as 4D answers; a key never matches data that is not encrypted', () => {
    const { ds } = storeFixture()
    expect(ds.provideDataKey()).toBeNull()
    const keyStatus = ds.provideDataKey('my secret pass phrase')
    expect(keyStatus).toMatchObject({ success: false, status: 4 })
    expect(ds.provideDataKey({ encodedKey: 'A1B2C3' })?.success).toBe(false)
    expect(ds.encryptionStatus().keyProvided).toBe(false)
    expectTypeOf(keyStatus).toEqualTypeOf<DataKeyResult | null>()
  })
})

describe('remote contexts', () => {
  it('none on the server’s own datastore: set checks its arguments and keeps nothing', () => {
    const { ds } = storeFixture()
    ds.setRemoteContextInfo('contextA', ds.Persons, 'firstname, lastname', 'main')
    ds.setRemoteContextInfo(
      'contextB',
      'Employee',
      ['lastName', 'employer.name'],
      'currentItem',
      30,
    )
    expect(ds.getRemoteContextInfo('contextA')).toBeNull()
    expect(ds.getAllRemoteContexts()).toEqual([])
    ds.clearAllRemoteContexts()
    expect(ds.getAllRemoteContexts()).toEqual([])
    expectTypeOf(ds.getAllRemoteContexts()).toEqualTypeOf<RemoteContextInfo[]>()
  })

  it('refuses a dataclass, an attribute, a type or a page length that is not one', () => {
    const { ds } = storeFixture()
    expect(thrown(() => ds.setRemoteContextInfo('c', 'Nope' as 'Persons', 'x')).errCode).toBe(1800)
    expect(thrown(() => ds.setRemoteContextInfo('c', ds.Persons, 'firstname, age')).errCode).toBe(
      1500,
    )
    expect(
      thrown(() => ds.setRemoteContextInfo('c', ds.Persons, 'firstname', 'all' as 'main')).errCode,
    ).toBe(1806)
    expect(
      thrown(() => ds.setRemoteContextInfo('c', ds.Persons, 'firstname', 'main', 0)).errCode,
    ).toBe(1806)
    // @ts-expect-error: a dataclass name of the model only
    expect(thrown(() => ds.setRemoteContextInfo('c', 'Nope', 'x')).errCode).toBe(1800)
  })
})

describe('.setAdminProtection() and .isAdminProtected()', () => {
  it('turns the data explorer off and on (entistore serve’s page answers 403 meanwhile)', () => {
    const { ds } = storeFixture()
    expect(ds.isAdminProtected()).toBe(false)
    ds.setAdminProtection(true)
    expect(ds.isAdminProtected()).toBe(true)
    ds.setAdminProtection(false)
    expect(ds.isAdminProtected()).toBe(false)
  })
})

describe('.makeSelectionsAlterable()', () => {
  it('makes every new selection alterable, in its order, unless made shareable', () => {
    const { ds } = storeFixture()
    const before = ds.Employee.all()
    expect(before.isAlterable()).toBe(false)
    ds.makeSelectionsAlterable()
    const all = ds.Employee.all()
    expect(all.isAlterable()).toBe(true)
    const ordered = ds.Employee.query('salary > 0 order by salary desc')
    expect(ordered.isAlterable()).toBe(true)
    expect(ordered.extract('lastName')).toEqual(['Hopper', 'Turing', 'Lovelace'])
    // add() changes it in place, as on any alterable selection.
    const newcomer = ds.Employee.create({ lastName: 'Newcomer', email: 'new@acme' })
    expect(ordered.add(newcomer)).toBe(ordered)
    expect(ordered.extract('lastName')).toEqual(['Hopper', 'Turing', 'Lovelace', 'Newcomer'])
    expect(all.copy({ shared: true }).isAlterable()).toBe(false)
    // A selection read before stays as it was.
    expect(before.isAlterable()).toBe(false)
  })
})
