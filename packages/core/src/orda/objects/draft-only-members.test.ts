// A draft's members tried on an Entity (issue 66: `entity.save()` was "save is not a function"):
// a DatastoreError that names the draft to call instead, as a property set does (9161).
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import { thrown } from '../../errors/thrown.fixture.js'

const model = {
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'salary', type: 'number' },
      ],
    },
    {
      // An attribute named like one of the members: its property, not the member.
      name: 'Setting',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'set', type: 'string' },
      ],
    },
  ],
} as const satisfies ModelJson

const store = () =>
  createDatastore(model, {
    data: { Employee: [{ ID: 1, salary: 5000 }], Setting: [{ ID: 1, set: 'dark' }] },
  })

// The entity as plain JavaScript (or an `any`) sees it: the members are not in its type.
const untyped = (entity: unknown) => entity as Record<string, (...args: unknown[]) => unknown>

describe("a draft's members on an Entity", () => {
  it('save() throws 9162, naming edit() and the dataclass, and nothing is saved', () => {
    const ds = store()
    const error = thrown(() => untyped(ds.Employee.get(1))['save']!())
    expect(error).toMatchObject({ errCode: 9162, componentSignature: 'enti' })
    expect(error.message).toBe(
      'save() is a draft\'s, not an entity\'s ("Employee" dataclass): an entity is a saved ' +
        'version that every reader shares; change it through a draft: entity.edit().save()',
    )
    expect(ds.Employee.get(1)!.getStamp()).toBe(1)
  })

  it('saveOrFail(), set() and fromObject() name the draft call that does what was meant', () => {
    const employee = untyped(store().Employee.get(1))
    expect(thrown(() => employee['saveOrFail']!()).message).toMatch(
      /: entity\.edit\(\)\.saveOrFail\(\)$/,
    )
    expect(thrown(() => employee['set']!('salary', 1)).message).toMatch(
      /^set\(\) is a draft's.*: entity\.edit\(\)\.set\(name, value\)\.save\(\)$/,
    )
    expect(thrown(() => employee['fromObject']!({ salary: 1 })).message).toMatch(
      /: entity\.edit\(\)\.fromObject\(values\)\.save\(\)$/,
    )
  })

  it('leaves an attribute of the same name its property, and a draft its members', () => {
    const ds = store()
    expect(ds.Setting.get(1)!.get('set')).toBe('dark')
    expect((ds.Setting.get(1) as unknown as { set: string }).set).toBe('dark')
    const draft = ds.Employee.get(1)!.edit().set('salary', 5100)
    expect(draft.save()).toMatchObject({ success: true })
    expect(ds.Employee.get(1)!.salary).toBe(5100)
  })
})
