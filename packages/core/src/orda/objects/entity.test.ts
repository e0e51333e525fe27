import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { DataFile } from '../../store/load-data.js'
import { Entity } from './entity.js'
import { EntitySelection } from './entity-selection.js'

const model = (): ModelJson => ({
  __NAME: 'company',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        // No foreignKey and no managerID: the key goes in an implicit hidden slot.
        { name: 'manager', kind: 'relatedEntity', type: 'Employee' },
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'nothing', kind: 'calculated', type: 'string' },
        { name: 'companyName', kind: 'alias', path: 'employer.name' },
        { name: 'bossCompany', kind: 'alias', path: 'manager.employer.name' },
        { name: 'colleagues', kind: 'alias', path: 'employer.staff' },
        { name: 'boss', kind: 'alias', path: 'manager' },
      ],
    },
    {
      name: 'Tag',
      attributes: [{ name: 'code', type: 'string', identifying: true }],
    },
  ],
})

type Names = 'Company' | 'Employee' | 'Tag'

const data: DataFile = {
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Globex' },
  ],
  Employee: [
    { ID: 10, firstName: 'Ada', lastName: 'Lovelace', employer: 1 },
    { ID: 11, firstName: 'Alan', lastName: 'Turing', employer: 1, manager: 10 },
    { ID: 12, firstName: 'Grace', lastName: 'Hopper', employerID: 2, manager: 10 },
    { ID: 13, firstName: 'Nobody', lastName: 'Known' },
  ],
}

const company = () =>
  createDatastore<Names>(model(), {
    data,
    clock: new ManualClock('2024-02-01T00:00:00Z'),
    calculated: {
      Employee: {
        fullName: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
        // A function returning undefined gives null, like a stored null.
        nothing: () => undefined,
      },
    },
  })

const keys = (sel: Iterable<Entity | null>) => [...sel].map((e) => e?.getKey() ?? null)

describe('Entity', () => {
  const ds = company()
  const ada = ds.Employee.getOrFail(10)
  const alan = ds.Employee.getOrFail(11)
  const grace = ds.Employee.getOrFail(12)
  const nobody = ds.Employee.getOrFail(13)

  it('gives its key, stamp and timestamp', () => {
    expect(ada.getKey()).toBe(10)
    expect(ada.getStamp()).toBe(1)
    expect(ada.getTimestamp()).toBe(Date.UTC(2024, 1, 1))
    expect(ada.dataClass).toBe(ds.Employee)
  })

  it('reads storage values, null when none was given', () => {
    expect(ada.get('lastName')).toBe('Lovelace')
    expect(nobody.get('employerID')).toBeNull()
  })

  it('is the same object for repeated reads of an unchanged entity', () => {
    expect(ds.Employee.get(10)).toBe(ada)
    expect(ds.Employee.all().at(0)).toBe(ada)
  })

  it('throws AttributeNotFound (1500) for an unknown attribute', () => {
    expect(() => ada.get('salary')).toThrow(
      expect.objectContaining({
        errCode: 1500,
        message: 'The "salary" attribute cannot be found in The "Employee" dataclass',
      }),
    )
  })

  it('follows a relatedEntity to the related entity, through a foreignKey or the relation name', () => {
    expect(ada.get('employer')).toBe(ds.Company.getOrFail(1))
    // Grace's employer was given through the foreignKey attribute itself.
    expect((grace.get('employer') as Entity).get('name')).toBe('Globex')
    expect(grace.get('employerID')).toBe(2)
    expect(alan.get('employerID')).toBe(1)
  })

  it('follows a relation held in the implicit slot', () => {
    expect(alan.get('manager')).toBe(ada)
    expect(ada.get('manager')).toBeNull()
  })

  it('gives null for a relatedEntity that is not set', () => {
    expect(nobody.get('employer')).toBeNull()
  })

  it('gives the entities pointing back for a relatedEntities attribute, in key order', () => {
    const staff = ds.Company.getOrFail(1).get('staff')
    expect(staff).toBeInstanceOf(EntitySelection)
    expect(keys(staff as EntitySelection)).toEqual([10, 11])
    expect(keys(ada.get('reports') as EntitySelection)).toEqual([11, 12])
    expect((nobody.get('reports') as EntitySelection).length).toBe(0)
  })

  it('computes calculated attributes on read, null when the function gives nothing', () => {
    expect(ada.get('fullName')).toBe('Ada Lovelace')
    expect(ada.get('nothing')).toBeNull()
  })

  it('gives null for a calculated attribute without a function', () => {
    const bare = createDatastore<Names>(model(), { data })
    expect(bare.Employee.getOrFail(10).get('fullName')).toBeNull()
  })

  it('follows alias paths through relations', () => {
    expect(alan.get('companyName')).toBe('Acme')
    expect(grace.get('bossCompany')).toBe('Acme')
    expect(alan.get('boss')).toBe(ada)
    expect(keys(grace.get('colleagues') as EntitySelection)).toEqual([12])
  })

  it('gives null for an alias whose path meets an unset relation', () => {
    expect(nobody.get('companyName')).toBeNull()
    // Ada has no manager, so the second step is never reached.
    expect(ada.get('bossCompany')).toBeNull()
  })
})

describe('EntitySelection', () => {
  const ds = company()

  it('lists every entity in key order', () => {
    const all = ds.Employee.all()
    expect(all.length).toBe(4)
    expect(all.dataClass).toBe(ds.Employee)
    expect(keys(all)).toEqual([10, 11, 12, 13])
    expect(all.toArray().map((e) => e.get('firstName'))).toEqual(['Ada', 'Alan', 'Grace', 'Nobody'])
  })

  it('gives undefined past the end with at()', () => {
    const all = ds.Employee.all()
    expect(all.at(3)?.getKey()).toBe(13)
    expect(all.at(4)).toBeUndefined()
  })

  it('is empty for a dataclass without entities', () => {
    const tags = ds.Tag.all()
    expect(tags.length).toBe(0)
    expect(tags.toArray()).toEqual([])
    expect(tags.window(0, 10).length).toBe(0)
  })

  describe('window, the REST $skip and $top', () => {
    const all = ds.Employee.all()

    it.each([
      [0, 2, [10, 11]],
      [1, 2, [11, 12]],
      [2, 100, [12, 13]],
      [3, 1, [13]],
      [0, 0, []],
      [4, 1, []],
      [100, 5, []],
      [2, Infinity, [12, 13]],
    ])('with skip %d and top %d gives %j', (skip, top, expected) => {
      expect(keys(all.window(skip, top))).toEqual(expected)
    })

    it('gives the selection itself when the window covers it', () => {
      expect(all.window()).toBe(all)
      expect(all.window(0, 4)).toBe(all)
      expect(all.window(0, 1000)).toBe(all)
      expect(all.window(0, 3)).not.toBe(all)
    })

    it('leaves the windowed selection unchanged', () => {
      all.window(1, 2)
      expect(keys(all)).toEqual([10, 11, 12, 13])
    })

    it('pages through a selection without gaps or overlaps', () => {
      const pages = [0, 3].map((skip) => keys(all.window(skip, 3)))
      expect(pages).toEqual([[10, 11, 12], [13]])
    })
  })

  it('reads a deleted entity as null, counts it, and leaves it out of iteration and toArray', () => {
    const d = company()
    const all = d.Employee.all()
    const table = d.Employee.table
    d.commit([{ op: 'delete', table, before: table.record(table.rowIdOf(11)!)! }])
    expect(all.length).toBe(4)
    expect(all.at(1)).toBeNull()
    expect(keys(all.members())).toEqual([10, null, 12, 13])
    expect(keys(all)).toEqual([10, 12, 13])
    expect(all.toArray().map((e) => e.getKey())).toEqual([10, 12, 13])
    // A new selection no longer has it.
    expect(keys(d.Employee.all())).toEqual([10, 12, 13])
    expect(keys(d.Employee.getOrFail(10).get('reports') as EntitySelection)).toEqual([12])
  })

  it('reads the current version of an entity, not the one of when the selection was made', () => {
    const d = company()
    const all = d.Employee.all()
    const table = d.Employee.table
    const before = table.record(table.rowIdOf(10)!)!
    const values = Object.freeze({ ...before.values, lastName: 'Byron' })
    d.commit([
      { op: 'update', table, before, after: Object.freeze({ ...before, stamp: 2, values }) },
    ])
    expect(all.at(0)!.get('lastName')).toBe('Byron')
    expect(all.at(0)!.getStamp()).toBe(2)
  })

  it('shares one view per entity version: the same object until the entity changes', () => {
    const d = company()
    const first = d.Employee.get(10)!
    expect(d.Employee.get(10)).toBe(first)
    expect(d.Employee.all().at(0)).toBe(first)
    const table = d.Employee.table
    const before = table.record(table.rowIdOf(10)!)!
    const values = Object.freeze({ ...before.values, lastName: 'Byron' })
    d.commit([{ op: 'update', table, before, after: { ...before, stamp: 2, values } }])
    const second = d.Employee.get(10)!
    expect(second).not.toBe(first)
    expect([first.getStamp(), second.getStamp()]).toEqual([1, 2])
    expect(second.get('lastName')).toBe('Byron')
  })

  it('is a snapshot of membership: entities loaded later are not in it', () => {
    const d = company()
    const all = d.Employee.all()
    // Key 14 sorts last, the cheap append path of the key order.
    d.loadData({ Employee: [{ ID: 14, lastName: 'Later' }] })
    expect(all.length).toBe(4)
    expect(keys(all)).toEqual([10, 11, 12, 13])
    expect(keys(d.Employee.all())).toEqual([10, 11, 12, 13, 14])
  })
})

describe('key order', () => {
  it('sorts numeric keys loaded out of order', () => {
    const ds = createDatastore<Names>(model(), {
      data: { Company: [{ ID: 5 }, { ID: 3 }, { ID: 9 }, { ID: -1 }] },
    })
    expect(keys(ds.Company.all())).toEqual([-1, 3, 5, 9])
  })

  it('keeps the order across loads, whether new keys sort last or in between', () => {
    const ds = createDatastore<Names>(model(), { data: { Company: [{ ID: 2 }, { ID: 4 }] } })
    expect(keys(ds.Company.all())).toEqual([2, 4])
    ds.loadData({ Company: [{ ID: 6 }, { ID: 8 }] })
    expect(keys(ds.Company.all())).toEqual([2, 4, 6, 8])
    ds.loadData({ Company: [{ ID: 5 }, { ID: 1 }] })
    expect(keys(ds.Company.all())).toEqual([1, 2, 4, 5, 6, 8])
    ds.loadData({ Company: [{ ID: 9 }] })
    expect(keys(ds.Company.all())).toEqual([1, 2, 4, 5, 6, 8, 9])
  })

  it('sorts numbers as numbers, not as text', () => {
    const ds = createDatastore<Names>(model(), {
      data: { Company: [{ ID: 10 }, { ID: 9 }, { ID: 100 }] },
    })
    expect(keys(ds.Company.all())).toEqual([9, 10, 100])
  })

  it('sorts text keys by code unit', () => {
    const ds = createDatastore<Names>(model(), {
      data: { Tag: [{ code: 'b' }, { code: 'B' }, { code: 'a' }, { code: 'ab' }] },
    })
    expect(keys(ds.Tag.all())).toEqual(['B', 'a', 'ab', 'b'])
  })

  it('keeps autosequence keys in order after an explicit key in the middle', () => {
    const ds = createDatastore<Names>(model(), {
      data: { Company: [{ name: 'a' }, { ID: 10 }, { name: 'b' }] },
    })
    expect(keys(ds.Company.all())).toEqual([1, 10, 11])
  })

  it('keeps the order after a delete and a later insert', () => {
    const ds = createDatastore<Names>(model(), {
      data: { Company: [{ ID: 1 }, { ID: 2 }, { ID: 3 }] },
    })
    const table = ds.Company.table
    ds.commit([{ op: 'delete', table, before: table.record(table.rowIdOf(2)!)! }])
    ds.loadData({ Company: [{ ID: 2 }, { ID: 0 }] })
    expect(keys(ds.Company.all())).toEqual([0, 1, 2, 3])
    expect(ds.Company.get(2)!.get('ID')).toBe(2)
  })
})

describe('relations without a match', () => {
  it('reads a relation pointing at a deleted entity as null', () => {
    const ds = company()
    const table = ds.Company.table
    ds.commit([{ op: 'delete', table, before: table.record(table.rowIdOf(2)!)! }])
    expect(ds.Employee.getOrFail(12).get('employer')).toBeNull()
    expect(ds.Employee.getOrFail(12).get('employerID')).toBe(2)
  })

  it('refuses to list referencing rows for an attribute that is not a relatedEntity', () => {
    const ds = company()
    expect(() => ds.Employee.rowIdsReferencing('lastName', 1)).toThrow(DatastoreError)
  })
})
