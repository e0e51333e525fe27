import { withQueryBudget, type Entity } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { companyDatastore as company } from './chain.fixture.js'
import { EntityWriter } from './entity.js'
import { firstPiece } from './first-piece.js'
import { CHUNK_CHARS, JsonChunks } from './json-chunks.js'
import { parseProjection } from './projection.js'
import { type Nested, type Part } from './reply-parts.js'
import { utf8Bytes } from './utf8-bytes.js'
import { selectionEnvelope } from './selection.js'
import { eachSlice, type SliceClock } from '../slices/turns.js'
import { Uris } from './uris.js'

// Issue 47: what a reply costs is counted where it is spent. A reply that writes the same related
// entity's page into every row (`Employee?$attributes=employer.staff.ID`) is measured with the
// repeats, and written reading that entity's relation once; measuring and writing go in slices
// however long one related entity takes to read; the measure's time counts against the request's
// budget. No test here reads a clock of its own: the work "takes" time on a clock that the test
// moves, and slices are counted in turns of the event loop.

const writer = new EntityWriter(new Uris('/rest'))

/** Every piece of a reply, as a transport takes them. */
const pieces = (chunks: JsonChunks): string[] => [...chunks]

/** `Employee?$attributes=employer.staff.ID` on the demo (360 employees, 24 companies). */
function employerStaff(expand = writer.expand) {
  const ds = company()
  const employees = ds.dataClass('Employee')
  const projection = parseProjection(ds.schema, employees.def, ['employer.staff.ID'], undefined)!
  const page = employees.all().members()
  return new JsonChunks(
    '[',
    page.length,
    (i) => writer.parts('plain', page[i]!, projection),
    ']',
    expand,
  )
}

describe('a related entity written in every row', () => {
  it('is measured each time it is written, to the byte', async () => {
    const whole = pieces(employerStaff()).join('')
    const bytes = utf8Bytes(whole)
    // Its company's page of 15 in each of 360 rows: 24 companies, written 360 times.
    expect(whole.match(/"staff":/g)).toHaveLength(360)
    const size = employerStaff().measure(Infinity)
    expect(size.run(Infinity)).toBe(true)
    expect(size.bytes).toBe(bytes)
    // One byte less is refused before any piece is given.
    await expect(firstPiece(employerStaff(), bytes - 1, 0)).rejects.toMatchObject({
      errCode: 9091,
    })
  })

  it('is written once and its text written again, the same text', () => {
    let companies = 0
    const counted = (nested: Nested) => {
      if (nested.entity.dataClass.name === 'Company') companies++
      return writer.expand(nested)
    }
    const chunks = employerStaff(counted)
    const written = pieces(chunks).join('')
    expect(companies).toBe(24)
    // The text each row has when written alone.
    const ds = company()
    const employees = ds.dataClass('Employee')
    const projection = parseProjection(ds.schema, employees.def, ['employer.staff.ID'], undefined)!
    const alone = [...employees.all()].map((e) => writer.plain(e, projection))
    expect(written).toBe(`[${alone.join(',')}]`)
  })
})

/**
 * A reply of `rows` items, each a related entity that takes `cost` ms to write on `clock` (a read
 * of a relation of a whole table): each item is a distinct entity, so nothing is written twice.
 */
function costly(rows: number, cost: number, clock: { t: number }, spent: { turn: number }) {
  const projection = { nested: true, all: false, members: new Map() } as never
  const expand = (): Iterator<Part> => {
    let step = 0
    return {
      next: () => {
        if (step === 0) {
          clock.t += cost
          spent.turn += cost
        }
        return step++ < 1 ? { done: false, value: '{"x":1}' } : { done: true, value: undefined }
      },
    }
  }
  return new JsonChunks(
    '[',
    rows,
    function* (): Generator<Part, void, undefined> {
      yield '{"related":'
      yield { entity: {} as Entity, projection }
      yield '}'
    },
    ']',
    expand,
  )
}

/** Counts the clock time spent in each turn of the event loop while it runs. */
function turns(spent: { turn: number }) {
  const costs: number[] = []
  let on = true
  const tick = (): void => {
    costs.push(spent.turn)
    spent.turn = 0
    if (on) setImmediate(tick)
  }
  setImmediate(tick)
  return {
    stop: (): number[] => {
      on = false
      costs.push(spent.turn)
      return costs.filter((c) => c > 0)
    },
  }
}

describe('slices of a reply whose related entities take long to write', () => {
  let stop: (() => void) | undefined
  afterEach(() => stop?.())

  it('are measured a few at a time, whatever the parts between two readings of the clock', async () => {
    const clock = { t: 0 }
    const spent = { turn: 0 }
    const slice = eachSlice(() => clock.t, 10)
    const chunks = costly(300, 4, clock, spent)
    chunks.sliceBy(slice)
    const watch = turns(spent)
    stop = () => watch.stop()
    const first = await firstPiece(chunks, 1e9, slice)
    const costs = watch.stop()
    // 300 relations of 4 ms: 1,200 ms in slices of 10 ms, each ended by the part that passed it,
    // then the first piece's. Steps of 1,024 parts measured all 300 in the first slice.
    expect(first.startsWith('[{"related":{"x":1}}')).toBe(true)
    expect(costs.reduce((a, b) => a + b, 0)).toBeGreaterThan(1200)
    expect(Math.max(...costs)).toBeLessThanOrEqual(12)
    expect(costs.length).toBeGreaterThanOrEqual(100)
  })

  it('are written in pieces that end with their slice, never empty', () => {
    const clock = { t: 0 }
    const chunks = costly(300, 4, clock, { turn: 0 })
    chunks.sliceBy(eachSlice(() => clock.t, 10))
    const sizes: number[] = []
    const costs: number[] = []
    while (!chunks.done) {
      const before = clock.t
      sizes.push(chunks.take().length)
      costs.push(clock.t - before)
    }
    // A piece used to wait for 64K characters: all 300 entities, 1,200 ms, in one.
    expect(sizes.length).toBeGreaterThanOrEqual(100)
    expect(Math.max(...costs)).toBeLessThanOrEqual(12)
    expect(Math.min(...sizes)).toBeGreaterThan(0)
    expect(Math.max(...sizes)).toBeLessThan(CHUNK_CHARS)
  })

  it('count against the time budget after each step, however few units the parts counted', () => {
    const clock = { t: 0 }
    const chunks = costly(3000, 4, clock, { turn: 0 })
    // The budget's clock moves with the work: 4 ms a related entity, 100 ms of budget.
    const budget = { deadline: 100, clock: { now: () => clock.t }, ms: 100 }
    // One slice with no end: only the budget stops the measure.
    const endless: SliceClock = eachSlice(() => clock.t, Infinity)
    let refused: unknown
    try {
      withQueryBudget(budget, () => firstPiece(chunks, 1e12, endless))
    } catch (error) {
      refused = error
    }
    expect(refused).toMatchObject({ name: 'ReplyTooSlow', errCode: 9092 })
    // Counted one unit a part, the budget read its clock every 4,096 units: past all 3,000 rows.
    expect(clock.t).toBeGreaterThan(100)
    expect(clock.t).toBeLessThanOrEqual(112)
    expect(chunks.done).toBe(true)
  })
})
