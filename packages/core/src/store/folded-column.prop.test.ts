import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { acceptCodes, equalUnits, matchUnits } from '../parallel/text-kernels.js'
import { FoldedColumn, foldedTester } from './folded-column.js'

// A model: the folded text of each row, null past the end.
type Model = (string | null)[]

const text = fc.oneof(
  fc.constantFrom('paris', 'lyon', 'nice', '', 'é', 'ab'),
  fc.string({ maxLength: 6 }),
  // Past Latin-1: the units turn 16-bit.
  fc.constantFrom('東京', 'ꙮ'),
)
const command = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('set' as const), fc.nat(40), fc.option(text)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('resize' as const), fc.nat(45), fc.constant(null)) },
)

const NEVER = new Int32Array(1)

function check(column: FoldedColumn, model: Model): void {
  expect(column.length).toBe(model.length)
  for (let r = 0; r < model.length + 2; r++) expect(column.at(r), `row ${r}`).toBe(model[r] ?? null)
  // The kernels agree with the model, and so does the per-row tester.
  const shape = column.shape()
  for (const sought of new Set(model.filter((t) => t !== null))) {
    const want = model.flatMap((t, r) => (t === sought ? [r] : []))
    let got: number[]
    if (shape.kind === 'codes') {
      const accept = new Uint8Array(shape.texts.length + 1)
      accept[column.codeOf(sought)!] = 1
      got = [...acceptCodes({ codes: shape.codes, accept }, 0, column.length, NEVER)]
    } else {
      const units = Uint16Array.from(sought, (c) => c.charCodeAt(0))
      got = [...equalUnits({ ...shape, text: units }, 0, column.length, NEVER)]
    }
    expect(got, `rows of ${JSON.stringify(sought)}`).toEqual(want)
    const test = foldedTester(column, (t) => t === sought)
    expect(model.flatMap((_, r) => (test(r) ? [r] : []))).toEqual(want)
  }
}

describe('FoldedColumn', () => {
  it('reads as the model after any writes, in codes and past the dictionary in units', () => {
    fc.assert(
      fc.property(
        fc.array(command, { maxLength: 80 }),
        fc.constantFrom(1, 3, 1000),
        (cmds, max) => {
          const column = new FoldedColumn(4, max)
          const model: Model = []
          for (const [kind, row, value] of cmds) {
            if (kind === 'set') {
              column.set(row, value as string | null)
              while (model.length <= row) model.push(null)
              model[row] = value as string | null
            } else {
              column.resize(row)
              model.length = row
              for (let r = 0; r < row; r++) model[r] ??= null
            }
            check(column, model)
          }
        },
      ),
    )
  })

  it('keeps the units of replaced texts bounded: compacted when the array would grow', () => {
    const column = new FoldedColumn(4, 1)
    for (let i = 0; i < 10_000; i++) column.set(i % 10, `text number ${i}`)
    const shape = column.shape()
    expect(shape.kind).toBe('units')
    // Ten live texts of ≤ 16 units: the array stays a small multiple of them.
    expect(shape.kind === 'units' && shape.units.length).toBeLessThanOrEqual(1024)
    expect(column.at(3)).toBe('text number 9993')
  })

  it('leaves the arrays a worker took as they were when writes grow or compact them', () => {
    const column = new FoldedColumn(4, 1)
    for (let r = 0; r < 8; r++) column.set(r, `row ${r}`)
    const taken = column.shape()
    // Row 0 rewritten until its replaced texts make the units grow and then compact (the rows
    // after it move).
    for (let i = 0; i < 200; i++) column.set(0, `rewritten ${i}`)
    expect(column.shape()).not.toEqual(taken)
    if (taken.kind !== 'units') throw new Error('units expected')
    const text = Uint16Array.from('row 3', (c) => c.charCodeAt(0))
    expect([...equalUnits({ ...taken, text }, 0, 8, NEVER)]).toEqual([3])
  })

  it('lives in shared memory, so that a worker reads it', () => {
    const column = new FoldedColumn(4, 1)
    column.set(0, 'a')
    expect(column.shared).toBe(true)
    column.set(1, 'b')
    expect(column.shape().kind).toBe('units')
    expect(column.shared).toBe(true)
  })
})

describe('matchUnits', () => {
  const units = (t: string) => Uint16Array.from(t, (c) => c.charCodeAt(0))
  it('finds the rows whose text equals, begins with, ends with or contains a form, as the string methods do', () => {
    // Forms of up to 6 units, up to 6 of each kind: one or two tried in turn, more through the
    // tables and the sliding window (unit-forms.ts); texts of up to 16 units.
    const unit = fc.constantFrom('a', 'b', 'é', '東')
    const piece = fc.string({ maxLength: 6, unit })
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ maxLength: 16, unit }))),
        fc.record({
          exact: fc.array(piece, { maxLength: 6 }),
          prefixes: fc.array(piece, { maxLength: 6 }),
          suffixes: fc.array(piece, { maxLength: 6 }),
          contains: fc.array(piece, { maxLength: 6 }),
        }),
        (texts, forms) => {
          const column = new FoldedColumn(4, 0)
          texts.forEach((t, r) => column.set(r, t))
          const shape = column.shape()
          // No text set yet: still codes, nothing to match.
          if (shape.kind !== 'units') {
            expect(texts.every((t) => t === null)).toBe(true)
            return
          }
          const got = matchUnits(
            {
              ...shape,
              exact: forms.exact.map(units),
              prefixes: forms.prefixes.map(units),
              suffixes: forms.suffixes.map(units),
              contains: forms.contains.map(units),
            },
            0,
            texts.length,
            NEVER,
          )
          const want = texts.flatMap((t, r) =>
            t !== null &&
            (forms.exact.includes(t) ||
              forms.prefixes.some((p) => t.startsWith(p)) ||
              forms.suffixes.some((p) => t.endsWith(p)) ||
              forms.contains.some((p) => t.includes(p)))
              ? [r]
              : [],
          )
          expect([...got]).toEqual(want)
        },
      ),
    )
  })
})
