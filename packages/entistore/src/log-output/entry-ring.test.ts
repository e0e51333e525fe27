/**
 * The ring the serving thread hands the request log's entries over in: what goes in comes out, in
 * order, whatever the sizes and however often it wraps; a full ring refuses a record rather than
 * overwrite one; what it refuses is only what does not fit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../serve/request-log.js'
import { logEntry } from '../serve/request-log.fixture.js'
import { Control, EntryRing, type RingRecord } from './entry-ring.js'

const SMALLEST = EntryRing.MIN_UNITS

// A time with a fraction of a millisecond: the ring keeps a double's every bit.
const entry = (more: Partial<RequestLogEntry> = {}): RequestLogEntry =>
  logEntry({ at: 1_795_000_000_123.25, ...more })

const drained = (ring: EntryRing): RingRecord[] => {
  const out: RingRecord[] = []
  ring.drain((r) => out.push(r))
  return out
}

describe('EntryRing', () => {
  it('gives back each entry as put, its numbers and strings exact, then lines of text between', () => {
    const ring = EntryRing.create(SMALLEST)
    const entries = [
      entry(),
      entry({ status: undefined, user: undefined, complete: false, bytes: 0 }),
      entry({ bytes: 2 ** 40 + 12_345, ms: 123_456.789, method: 'PATCH' }),
      entry({ user: 'Zoë 😀 名前', target: '/rest/Item?$filter="name=\'x\'"&%24top=1' }),
      entry({ target: '', method: '', user: '' }),
      ...['POST', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'GETS', 'GE', 'get'].map((method) =>
        entry({ method }),
      ),
    ]
    expect(ring.putEntry(entries[0]!)).toBe(true)
    expect(ring.putText('Entistore serving x at http://127.0.0.1:1/rest/$catalog')).toBe(true)
    for (const e of entries.slice(1)) expect(ring.putEntry(e)).toBe(true)
    expect(ring.pending()).toBe(true)
    expect(drained(ring)).toEqual([
      entries[0],
      'Entistore serving x at http://127.0.0.1:1/rest/$catalog',
      ...entries.slice(1),
    ])
    expect(ring.pending()).toBe(false)
    expect(drained(ring)).toEqual([])
  })

  it('keeps a URL to 4096 characters, a method and a user to 256', () => {
    const ring = EntryRing.create(SMALLEST)
    const long = entry({
      target: `/rest/T?q=${'x'.repeat(9000)}`,
      method: 'M'.repeat(300),
      user: 'u'.repeat(300),
    })
    ring.putEntry(long)
    const [got] = drained(ring)
    expect(got).toEqual({
      ...long,
      target: long.target.slice(0, 4096),
      method: 'M'.repeat(256),
      user: 'u'.repeat(256),
    })
  })

  it('refuses a record once full, keeps those it holds, and takes more once read', () => {
    const ring = EntryRing.create(SMALLEST)
    const text = 'y'.repeat(1000)
    let put = 0
    while (ring.putText(text)) put++
    // 1002 units a record in 131072 units, one unit always left free.
    expect(put).toBe(130)
    const first = drained(ring)
    expect(first).toHaveLength(130)
    expect(first.every((r) => r === text)).toBe(true)
    expect(ring.putText(text)).toBe(true)
    expect(ring.putText('z'.repeat(EntryRing.MAX_TEXT + 1))).toBe(false)
  })

  it('the serving side wakes a sleeping reader once, by its next record', () => {
    const ring = EntryRing.create(SMALLEST)
    Atomics.store(ring.control, Control.SLEEPING, 1)
    ring.putText('a')
    expect(Atomics.load(ring.control, Control.SLEEPING)).toBe(0)
  })

  it('a model: any sequence of puts and readings gives back what was taken, in order', () => {
    const op = fc.oneof(
      fc.record({ put: fc.string({ unit: 'binary', maxLength: 40_000 }) }),
      fc.record({
        entryUser: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        target: fc.string({ maxLength: 5000 }),
      }),
      fc.constant({ read: true }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const ring = EntryRing.create(SMALLEST)
        const model: RingRecord[] = []
        for (const o of ops) {
          if ('read' in o) {
            expect(drained(ring)).toEqual(model.splice(0))
          } else if ('put' in o) {
            const took = ring.putText(o.put)
            // A ring read empty takes any record that fits in one.
            if (model.length === 0) expect(took).toBe(o.put.length <= EntryRing.MAX_TEXT)
            if (took) model.push(o.put)
          } else {
            const e = entry({ user: o.entryUser, target: o.target })
            if (ring.putEntry(e))
              model.push({ ...e, user: e.user?.slice(0, 256), target: e.target.slice(0, 4096) })
          }
        }
        expect(drained(ring)).toEqual(model)
      }),
      { numRuns: 200 },
    )
  })
})
