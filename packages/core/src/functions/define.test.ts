// Typed functions: `this` in each function is what it applies to, typed by the model. The types are
// checked by `tsc -p tsconfig.check.json` (expectTypeOf and the expected-error directives), the
// values by running the test.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import type { ModelJson } from '../schema/model-json.js'
import type { ModelTypesOf } from '../schema/typed-model.js'
import { createDatastore, type DatastoreOf } from '../orda/objects/datastore.js'
import type { DataClass } from '../orda/objects/data-class.js'
import type { Entity } from '../orda/objects/entity.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'
import { defineFunctions } from '../orda/objects/define-functions.js'
import { singleton } from './define.js'

const model = {
  __NAME: 'typed',
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
      ],
    },
  ],
} as const satisfies ModelJson
type Model = ModelTypesOf<typeof model>

const functions = defineFunctions<Model>({
  dataStore: {
    size: {
      exposed: true,
      call() {
        expectTypeOf(this).toEqualTypeOf<DatastoreOf<Model>>()
        return this.Employee.length
      },
    },
  },
  dataClasses: {
    Employee: {
      dataClass: {
        richest: {
          call() {
            expectTypeOf(this).toEqualTypeOf<DataClass<Model, 'Employee'>>()
            return this.query('salary > :1', 0)
          },
        },
      },
      entity: {
        pay: {
          call() {
            expectTypeOf(this).toEqualTypeOf<Entity<Model, 'Employee'>>()
            // @ts-expect-error: the model has no attribute `salry`
            expectTypeOf(() => this.get('salry')).toBeFunction()
            return this.get('salary')
          },
        },
      },
      entitySelection: {
        names: {
          call() {
            expectTypeOf(this).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
            return this.toArray().map((e) => e.get('lastName'))
          },
        },
      },
    },
  },
  singletons: {
    Counter: singleton(() => ({ hits: 0 }), {
      hit: {
        call() {
          expectTypeOf(this).toEqualTypeOf<{ hits: number }>()
          return ++this.hits
        },
      },
    }),
  },
})

// @ts-expect-error: the model has no dataclass `Employe`
defineFunctions<Model>({ dataClasses: { Employe: {} } })

describe('typed functions', () => {
  it('give `this` the model types, and run', () => {
    const ds = createDatastore(model, {
      clock: new ManualClock(),
      data: { Employee: [{ ID: 1, lastName: 'Ada', salary: 10 }] },
      functions,
    })
    expect(ds.call('size')).toBe(1)
    expect(ds.Employee.get(1)!.call('pay')).toBe(10)
    expect(ds.Employee.all().call('names')).toEqual(['Ada'])
    expect(ds.singleton('Counter').call('hit')).toBe(1)
  })
})
