/**
 * Computed attributes whose getter gives an entity or an entity selection, as 4D's page declares
 * them (ORDA/ordaClasses.md, "Computed attributes": `Function get bigBoss($event : Object)->
 * $result: cs.EmployeeEntity`, `Function get coWorkers($event : Object)-> $result:
 * cs.EmployeeSelection`): typed as the dataclass or its selection, and, as the page says, "query and
 * orderBy functions are not supported" for them.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { Entity } from './entity.js'
import type { EntitySelection } from './entity-selection.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'managerID', type: 'long' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee', foreignKey: 'managerID' },
        { name: 'bigBoss', kind: 'calculated', type: 'Employee' },
        { name: 'coWorkers', kind: 'calculated', type: 'EmployeeSelection' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const data = {
  Employee: [
    { ID: 1, name: 'Ada', managerID: null },
    { ID: 2, name: 'Bob', managerID: 1 },
    { ID: 3, name: 'Cy', managerID: 1 },
  ],
}

function datastore() {
  return createDatastore(model, {
    data,
    calculated: {
      Employee: {
        bigBoss: (e) => (e as Entity).get('manager'),
        coWorkers: (e) => {
          const manager = (e as Entity).get('manager') as Entity | null
          return manager === null
            ? null
            : (e as Entity).dataClass.query(
                'managerID = :1 and ID # :2',
                manager.getKey(),
                (e as Entity).getKey(),
              )
        },
      },
    },
  })
}

describe('a computed attribute of an entity or an entity selection (4D ordaClasses.md)', () => {
  it('is typed object for the engine, with the dataclass of its value', () => {
    const dc = datastore().dataClass('Employee')
    expect(dc.def.attributesByName.get('bigBoss')).toMatchObject({
      kind: 'calculated',
      related: { dataClass: 'Employee', many: false },
    })
    expect(dc.def.attributesByName.get('coWorkers')).toMatchObject({
      related: { dataClass: 'Employee', many: true },
    })
  })

  it('reads the entity or the selection its getter gives', () => {
    const bob = datastore().dataClass('Employee').get(2)!
    expect((bob.get('bigBoss') as Entity).getKey()).toBe(1)
    expect((bob.get('coWorkers') as EntitySelection).toArray().map((e) => e.getKey())).toEqual([3])
  })

  it('is neither queried nor sorted on', () => {
    const dc = datastore().dataClass('Employee')
    expect(() => dc.query('bigBoss = :1', 1)).toThrow(/cannot be queried/)
    expect(() => dc.all().orderBy('coWorkers')).toThrow(/cannot be sorted on/)
  })

  it('names a dataclass or a selection the model has', () => {
    const bad: ModelJson = structuredClone(model) as ModelJson
    ;(bad.dataClasses[0]!.attributes[4] as { type?: string }).type = 'EmployeSelection'
    expect(() => createDatastore(bad)).toThrow(/unknown type "EmployeSelection".*EmployeeSelection/)
  })
})
