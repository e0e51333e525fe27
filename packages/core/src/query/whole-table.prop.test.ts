/**
 * The whole-table forms of an ordering's top-k and of a number's aggregates (read from the column
 * itself, by the kernels worker threads run) answer as the forms over the table's rows: nulls,
 * deleted rows, ties, negative zero and infinities included.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { aggregateOf } from '../orda/selections/selection-aggregates.js'
import { finish } from './slices.js'
import { topNumeric, wholeTopNumeric } from './top-k.js'

const salary = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-0, 0.1, 0.2, 1e300, -1e300),
)

const tableOf = (salaries: (number | null)[], dropped: number[]) => {
  const ds = createDatastore(
    {
      __NAME: 'w',
      dataClasses: [
        {
          name: 'E',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'salary', type: 'number' },
          ],
        },
      ],
    },
    { data: { E: salaries.map((s, i) => ({ ID: i + 1, salary: s })) } },
  )
  const E = ds.dataClass('E')
  for (const i of new Set(dropped)) if (i < salaries.length) E.drop(i + 1)
  return { ds, table: E.seenTable() }
}

describe('whole-table kernels', () => {
  test.prop([
    fc.array(salary, { maxLength: 200 }),
    fc.array(fc.nat(199), { maxLength: 20 }),
    fc.integer({ min: 1, max: 30 }),
    fc.constantFrom(1, -1),
  ])('top k: the rows topNumeric keeps, in its order', (salaries, dropped, k, sign) => {
    const { table } = tableOf(salaries, dropped)
    const expected = finish(topNumeric(table, table.orderedRowIds(), 'salary', sign, k))
    expect(finish(wholeTopNumeric(table, 'salary', sign, k))).toEqual(expected)
  })

  test.prop([fc.array(salary, { maxLength: 200 }), fc.array(fc.nat(199), { maxLength: 20 })])(
    'aggregates: those of every row, one by one',
    (salaries, dropped) => {
      const { ds, table } = tableOf(salaries, dropped)
      const E = ds.dataClass('E')
      const rows = table.orderedRowIds()
      // The table's own order: whole; a copy of it: row by row.
      const whole = aggregateOf(E, rows, 'salary', '$all')
      const each = aggregateOf(E, [...rows], 'salary', '$all')
      expect({ ...whole, sum: 0, average: 0 }).toEqual({ ...each, sum: 0, average: 0 })
      expect(whole.sum === null).toBe(each.sum === null)
      // Blocks add in another order than the rows: equal up to rounding.
      expect(whole.sum).toBeCloseTo(each.sum as number, 9)
    },
  )
})
