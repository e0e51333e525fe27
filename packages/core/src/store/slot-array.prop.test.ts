/**
 * Model-based test of SlotArray: random sets (records, load columns, empties), truncations and
 * copies, against a plain array of slots. Copies must not see later writes to their source, nor
 * the source theirs.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BaseRows } from './base-rows.js'
import type { EntityRecord } from './entity-record.js'
import { SlotArray, type Slot } from './slot-array.js'
import type { DataClassDef } from '../schema/definitions.js'

const DEF = { name: 'T', storage: [{ name: 'ID', type: 'long' }] } as unknown as DataClassDef
const BASES = [new BaseRows(DEF, 0, 300), new BaseRows(DEF, 0, 300), new BaseRows(DEF, 0, 300)]
const record = (rowId: number, n: number): EntityRecord =>
  ({ rowId, key: n, stamp: 1, timestamp: 0, values: { ID: n } }) as EntityRecord

type Command =
  | { kind: 'set'; rowId: number; what: 'record' | 'base' | 'empty'; n: number }
  | { kind: 'truncate'; to: number }
  | { kind: 'copy' }
  | { kind: 'switch'; pick: number }
  | { kind: 'reserve'; n: number }

// Row ids across several record chunks (64 slots each) and past the initial capacity.
const rowId = fc.oneof(fc.nat(20), fc.nat(299))
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      rowId,
      what: fc.constantFrom('record' as const, 'base' as const, 'empty' as const),
      n: fc.nat(2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), to: fc.nat(300) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'copy' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switch' as const), pick: fc.nat() }) },
  // Room made ahead (a load's commit) changes nothing one can read.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reserve' as const), n: fc.nat(400) }) },
)

function expectSame(slots: SlotArray, model: Slot[]): void {
  expect(slots.length).toBe(model.length)
  // It holds on to the load columns a slot points to, and to no other.
  expect(new Set(slots.heldBases())).toEqual(new Set(model.filter((s) => s instanceof BaseRows)))
  for (let i = 0; i < model.length + 70; i++) {
    expect(slots.get(i)).toBe(model[i])
    expect(slots.has(i)).toBe(model[i] !== undefined)
  }
}

describe('SlotArray', () => {
  it('holds what a plain array of slots holds, through sets, truncations and copies', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 120 }), (commands) => {
        const pairs: { slots: SlotArray; model: Slot[] }[] = [{ slots: new SlotArray(), model: [] }]
        let at = 0
        for (const c of commands) {
          const { slots, model } = pairs[at]!
          switch (c.kind) {
            case 'set': {
              const slot =
                c.what === 'record'
                  ? record(c.rowId, c.n)
                  : c.what === 'base'
                    ? BASES[c.n]
                    : undefined
              slots.set(c.rowId, slot)
              model[c.rowId] = slot
              break
            }
            case 'truncate': {
              // A table truncates only past empty slots (a rewind): empty them first, as it does.
              const to = Math.min(c.to, model.length)
              for (let i = to; i < model.length; i++) {
                slots.set(i, undefined)
                model[i] = undefined
              }
              slots.length = to
              model.length = to
              break
            }
            case 'copy':
              pairs.push({ slots: slots.slice(), model: model.slice() })
              break
            case 'switch':
              at = c.pick % pairs.length
              break
            case 'reserve':
              slots.reserve(c.n)
              break
          }
          for (const p of pairs) expectSame(p.slots, p.model)
        }
      }),
      { numRuns: 100 },
    )
  })
})
