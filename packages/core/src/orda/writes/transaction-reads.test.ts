// What a process reads inside its own transaction (4D: the process sees its own creates, saves and
// drops in every read, other processes see none of them until the validation): queries (indexed
// or not, through relations, ordered), all(), relations to many, a selection's members and
// aggregates, selection.drop(); nested levels, cancel and validate.
import { describe, expect, it } from 'vitest'
import { sessionOf, storeFixture } from '../objects/datastore.fixture.js'

const names = (sel: Iterable<{ get(name: 'lastName'): unknown }>) =>
  [...sel].map((e) => e.get('lastName'))

describe('inside its transaction, a process reads its own writes', () => {
  it('a query finds what it created, saved with new values, and not what it dropped', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    ds.Employee.create({ lastName: 'Hamilton', salary: 9000, email: 'm@nasa', employer: 2 })
    ds.Employee.update(1, { salary: 9500 })
    ds.Employee.drop(3)
    // salary is indexed: the index holds the committed values only.
    expect(names(ds.Employee.query('salary > :1', 8000))).toEqual(['Lovelace', 'Hamilton'])
    expect(ds.Employee.query('salary > 8000').length).toBe(2)
    // Not indexed, and the quick lane of one equality on a unique attribute.
    expect(names(ds.Employee.query('lastName = :1', 'Ham@'))).toEqual(['Hamilton'])
    expect(ds.Employee.findOne('email = :1', 'm@nasa')?.get('lastName')).toBe('Hamilton')
    expect(ds.Employee.query('email = :1', 'grace@globex').length).toBe(0)
    // Through a relation into a dataclass it did not write (the committed index, then the staged).
    expect(names(ds.Employee.query('employer.name = :1', 'Globex'))).toEqual(['Hamilton'])
    expect(names(ds.Employee.query('employer.name = :1 and salary > 9200', 'Acme'))).toEqual([
      'Lovelace',
    ])
    expect(names(ds.Employee.query('not (employer.name = :1)', 'Globex'))).toEqual([
      'Lovelace',
      'Turing',
    ])
    // The new values decide an order, and the order of the key holds the new entity.
    expect(names(ds.Employee.query('salary > 0 order by salary desc'))).toEqual([
      'Lovelace',
      'Hamilton',
      'Turing',
    ])
    expect(names(ds.Employee.all())).toEqual(['Lovelace', 'Turing', 'Hamilton'])
    expect(ds.Employee.all().sum('salary')).toBe(9500 + 6000 + 9000)
    ds.cancelTransaction()
    expect(names(ds.Employee.query('salary > :1', 5500))).toEqual(['Turing', 'Hopper'])
    expect(names(ds.Employee.all())).toEqual(['Lovelace', 'Turing', 'Hopper'])
  })

  it('relations: a query through a relation and a relation to many read the staged data', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    const initech = ds.Company.create({ name: 'Initech' })
    ds.Employee.update(2, { employer: initech.key })
    ds.Company.update(2, { name: 'Globex Corp' })
    expect(names(ds.Employee.query('employer.name = :1', 'Initech'))).toEqual(['Turing'])
    expect(names(ds.Employee.query('employer.name = :1', 'Globex Corp'))).toEqual(['Hopper'])
    expect(names(ds.Company.get(1)!.get('staff'))).toEqual(['Lovelace'])
    expect(names(ds.Company.get(initech.key)!.get('staff'))).toEqual(['Turing'])
    expect(ds.Company.query('staff.lastName = :1', 'Turing').first()?.get('name')).toBe('Initech')
    ds.validateTransaction()
    expect(names(ds.Company.get(initech.key)!.get('staff'))).toEqual(['Turing'])
  })

  it("a selection made before a save reads the entity's staged version, a dropped one as null", () => {
    const { ds } = storeFixture()
    const all = ds.Employee.all()
    ds.startTransaction()
    ds.Employee.update(1, { lastName: 'Byron' })
    ds.Employee.drop(2)
    expect(all.first()?.get('lastName')).toBe('Byron')
    expect(all.at(1)).toBeNull()
    expect(names(all)).toEqual(['Byron', 'Hopper'])
    expect(all.toCollection('lastName')).toEqual([{ lastName: 'Byron' }, { lastName: 'Hopper' }])
    ds.cancelTransaction()
    expect(names(all)).toEqual(['Lovelace', 'Turing', 'Hopper'])
  })

  it('nested levels: a cancelled level takes its writes out of every read', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    ds.Employee.create({ lastName: 'Outer', salary: 1 })
    ds.startTransaction()
    ds.Employee.create({ lastName: 'Inner', salary: 2 })
    ds.Employee.drop(1)
    expect(names(ds.Employee.query('salary < 10'))).toEqual(['Outer', 'Inner'])
    expect(ds.Employee.all().length).toBe(4)
    ds.cancelTransaction()
    expect(names(ds.Employee.query('salary < 10'))).toEqual(['Outer'])
    expect(ds.Employee.all().length).toBe(4)
    ds.validateTransaction()
    expect(names(ds.Employee.query('salary < 10'))).toEqual(['Outer'])
  })

  it('selection.drop() drops what the query found in the transaction', () => {
    const { ds } = storeFixture()
    ds.startTransaction()
    ds.Employee.create({ lastName: 'Temp', salary: 1 })
    ds.Employee.update(3, { salary: 2 })
    expect(ds.Employee.query('salary < 10').drop().length).toBe(0)
    expect(ds.Employee.all().length).toBe(2)
    ds.validateTransaction()
    expect(names(ds.Employee.all())).toEqual(['Lovelace', 'Turing'])
  })

  it('another process sees none of it until the validation', async () => {
    const { ds } = storeFixture()
    const other = () =>
      ds.actAs(sessionOf(ds), () => ({
        found: ds.Employee.query('salary > 8000').length,
        all: ds.Employee.all().length,
        staff: ds.Company.get(1)!.get('staff').length,
      }))
    ds.startTransaction()
    ds.Employee.create({ lastName: 'Hamilton', salary: 9000, employer: 1 })
    expect(ds.Employee.query('salary > 8000').length).toBe(1)
    expect(await other()).toEqual({ found: 0, all: 3, staff: 2 })
    ds.validateTransaction()
    expect(await other()).toEqual({ found: 1, all: 4, staff: 3 })
  })
})
