/**
 * Property test of text comparisons through the indexes of rows kept in a load's byte column
 * (base-rows.ts): the hash index compares the row its hash points to with the folded operand, and
 * the sorted index's binary search each row it looks at, from the column's bytes
 * (BaseRows.compareLazy) rather than from a string made of them. Whatever the texts (ASCII in any
 * case, Latin-1 accents, ligatures, other code units), `=`, `<`, `<=`, `>` and `>=` find exactly
 * the rows whose fold compares so with the operand's, before and after some rows are written
 * (kept as records from then on) or dropped.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { fold } from '../values/fold.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        // A text index: hash and sorted.
        { name: 'name', type: 'string', indexed: true },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

// Letters that fold alike in different ways: case, accents (Latin-1 and not), ligatures, and a
// code unit outside Latin-1.
const UNITS = ['a', 'A', 'e', 'é', 'É', 'E', 's', 'ß', 'æ', 'ae', 'Œ', 'oe', ' ', '1', 'ﬁ', 'fi']
const text = fc
  .array(fc.constantFrom(...UNITS), { minLength: 0, maxLength: 5 })
  .map((parts) => parts.join(''))

// Enough distinct texts that the column keeps bytes (more than a quarter of its rows distinct).
const texts = fc.array(text, { minLength: 8, maxLength: 40 }).map((xs) => xs.map((x, i) => x + i))

const OPS = {
  '=': (a: string, b: string) => a === b,
  '<': (a: string, b: string) => a < b,
  '<=': (a: string, b: string) => a <= b,
  '>': (a: string, b: string) => a > b,
  '>=': (a: string, b: string) => a >= b,
}

describe('text comparisons on rows kept in a byte column', () => {
  it('find the rows whose fold compares so with the operand’s, written and dropped rows included', () => {
    fc.assert(
      fc.property(
        texts,
        fc.array(fc.tuple(fc.nat(), text), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.array(
          fc.oneof(
            text,
            fc.nat().map((n) => `#${n}`),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (names, writes, drops, probes) => {
          const ds = createDatastore(MODEL, {
            data: { Item: names.map((name, i) => ({ ID: i + 1, name })) },
          })
          const dc = ds.dataClass('Item')
          const held = new Map(names.map((name, i) => [i + 1, name]))
          for (const [at, name] of writes) {
            const id = 1 + (at % names.length)
            if (!held.has(id)) continue
            dc.update(id, { name })
            held.set(id, name)
          }
          for (const at of drops) {
            const id = 1 + (at % names.length)
            if (held.delete(id)) dc.drop(id)
          }
          // Operands: texts of the rows as given, in another case, and others.
          const ops = [
            ...probes.map((p) =>
              p.startsWith('#') ? names[Number(p.slice(1)) % names.length]! : p,
            ),
            ...names.slice(0, 4).map((n) => n.toUpperCase()),
          ]
          for (const op of ops)
            for (const [sign, holds] of Object.entries(OPS)) {
              const want = [...held]
                .filter(([, name]) => holds(fold(name), fold(op)))
                .map(([id]) => id)
                .sort((a, b) => a - b)
              const got = dc
                .query(`name ${sign} :1`, op)
                .toArray()
                .map((e) => e.getKey() as number)
                .sort((a, b) => a - b)
              expect(got, `name ${sign} ${JSON.stringify(op)}`).toEqual(want)
            }
        },
      ),
      { numRuns: 300 },
    )
  })
})
