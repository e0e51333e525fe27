/**
 * @module A query written in 4D gives what the same query through core's TypeScript API gives:
 * on any data, any comparison of a number or a text (with `@`), values passed as `:1`, ordered
 * either way — the bridge adds nothing and loses nothing between 4D code and core.
 */
import { createDatastore, type Datastore } from '@entistore/core'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { model, runFor } from './orda.fixture.js'

const employees = fc.array(
  fc.record({
    lastName: fc.stringMatching(/^[A-Ca-c]{0,3}$/),
    salary: fc.integer({ min: 0, max: 20 }),
  }),
  { maxLength: 12 },
)

const query = fc.oneof(
  fc.record({
    path: fc.constant('salary'),
    op: fc.constantFrom('=', '#', '<', '<=', '>', '>='),
    value: fc.integer({ min: -1, max: 21 }) as fc.Arbitrary<number | string>,
  }),
  fc.record({
    path: fc.constant('lastName'),
    op: fc.constantFrom('=', '#', '<', '>='),
    value: fc.stringMatching(/^[A-Ca-c@]{0,3}$/) as fc.Arbitrary<number | string>,
  }),
)

describe('query via 4D equals query via core', () => {
  test('the same entities in the same order', () => {
    fc.assert(
      fc.property(employees, query, fc.boolean(), (rows, q, descending) => {
        const data = { Employee: rows.map((r, i) => ({ ID: i + 1, ...r, email: `e${i}` })) }
        const ds = createDatastore(model, { data }) as unknown as Datastore
        const text = `${q.path} ${q.op} :1`
        const order = `lastName ${descending ? 'desc' : 'asc'}, ID`
        const expected = ds.dataClass('Employee').query(text, q.value).orderBy(order)
        const code = `
#DECLARE($text : Text; $value; $order : Text) -> $keys : Collection
$keys:=[]
var $e : Object
For each ($e; ds.Employee.query($text; $value).orderBy($order))
  $keys.push($e.getKey())
End for each`
        const keys = runFor(ds, code, { args: [text, q.value, order] })
        expect(keys).toEqual([...expected].map((e) => e.getKey()))
      }),
      { numRuns: 60 },
    )
  })
})
