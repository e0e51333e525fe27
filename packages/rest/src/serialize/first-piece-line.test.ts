/**
 * A reply measured in slices beside work that takes every turn first. A turn's new requests (its
 * I/O callbacks) run before the slice of work that waited (core's `sliceLine`, in the check
 * phase): when they asked the turn's deadline first and took it all, a measure went on one
 * related entity a turn, and three replies of relation chains waited for as long as five clients
 * kept sending (40 s). Counted in readings of a clock that moves one unit a reading and in turns,
 * never timed.
 */
import { sliceLine } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { chain, companyDatastore } from './chain.fixture.js'
import { EntityWriter } from './entity.js'
import { firstPiece } from './first-piece.js'
import type { JsonChunks } from './json-chunks.js'
import { parseProjection } from './projection.js'
import { selectionEnvelope } from './selection.js'
import { eachSlice, SLICE_MS, Turns } from '../slices/turns.js'
import { Uris } from './uris.js'
import { utf8Bytes } from './utf8-bytes.js'

const writer = new EntityWriter(new Uris('/rest'))

/** `Company?$attributes=staff.employer.staff.ID`: some 9,000 related entities to measure. */
function chainReply(): JsonChunks {
  const ds = companyDatastore()
  const companies = ds.dataClass('Company')
  const projection = parseProjection(ds.schema, companies.def, [chain(2)], undefined)!
  return selectionEnvelope(companies.all(), { skip: 0, top: 100 }, writer, {}, projection)
}

let stop = (): void => undefined
afterEach(() => stop())

describe('a reply measured in slices, beside new work every turn', () => {
  it('moves on by half a turn at each of its slices, not one step', async () => {
    let readings = 0
    const now = (): number => readings++
    // The clock readings the whole measure takes in one slice with no end.
    const alone = chainReply()
    const limit = utf8Bytes([...chainReply()].join(''))
    const before = readings
    expect(typeof firstPiece(alone, limit, eachSlice(now, Infinity))).toBe('string')
    const needed = readings - before
    expect(needed).toBeGreaterThan(200)

    const ends: (() => void)[] = []
    const turns = new Turns(now, (end) => void ends.push(end), undefined, sliceLine)
    // Each turn, before the line's slice: the turn ends, then new work takes what it may of the
    // next one (every reading moves the clock).
    let turnsRun = 0
    let on = true
    const newWork = (): void => {
      if (!on) return
      for (const end of ends.splice(0)) end()
      turnsRun++
      const deadline = turns.deadline(SLICE_MS)
      while (now() < deadline);
      setImmediate(newWork)
    }
    stop = () => (on = false)
    setImmediate(newWork)
    await new Promise((resolve) => setImmediate(resolve))

    const measured = firstPiece(chainReply(), limit, turns.clock(SLICE_MS))
    expect(measured).toBeInstanceOf(Promise)
    const first = await measured
    on = false
    expect(first.length).toBeGreaterThan(0)
    // Half a slice a turn: some 2 × needed / SLICE_MS turns. One step a turn took `needed`.
    expect(turnsRun).toBeLessThanOrEqual(Math.ceil((needed * 3) / SLICE_MS))
  })
})
