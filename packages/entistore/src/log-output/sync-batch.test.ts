/**
 * The logging thread's writer: whole lines in writes of at most a batch, in order; a longer line
 * alone; an output that says "not now" tried again until it takes everything; an output gone
 * takes nothing more and throws nothing.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SyncBatch, type WriteSync } from './sync-batch.js'

const errno = (code: string): NodeJS.ErrnoException =>
  Object.assign(new Error(code), { code }) as NodeJS.ErrnoException

/** An output keeping each write; `take` says how much of a write it takes, or throws. */
function output(take: (data: Uint8Array, n: number) => number = (d) => d.length) {
  const writes: string[] = []
  const write: WriteSync = (data) => {
    const n = take(data, writes.length)
    writes.push(Buffer.from(data.subarray(0, n)).toString())
    return n
  }
  return { write, writes, text: () => writes.join('') }
}

describe('SyncBatch', () => {
  it('writes nothing until flushed, then the lines gathered in one write', () => {
    const out = output()
    const batch = new SyncBatch(out.write, 64)
    batch.line('one')
    batch.line('two')
    expect(out.writes).toEqual([])
    batch.flush()
    expect(out.writes).toEqual(['one\ntwo\n'])
    batch.flush()
    expect(out.writes).toHaveLength(1)
  })

  it('any lines: each write holds whole lines and at most a batch, unless one line is longer', () => {
    const lines = fc.array(fc.string({ maxLength: 90 }), { maxLength: 40 })
    fc.assert(
      fc.property(lines, fc.integer({ min: 8, max: 200 }), (texts, size) => {
        const out = output()
        const batch = new SyncBatch(out.write, size)
        for (const t of texts) batch.line(t)
        batch.flush()
        expect(out.text()).toBe(texts.map((t) => `${t}\n`).join(''))
        for (const w of out.writes) {
          expect(w.endsWith('\n')).toBe(true)
          if (Buffer.byteLength(w) > size) expect(w.indexOf('\n')).toBe(w.length - 1)
        }
      }),
    )
  })

  it('a line made in place after room: the batch written first when it might not fit', () => {
    const out = output()
    const batch = new SyncBatch(out.write, 16)
    batch.line('0123456789')
    batch.room(8)
    expect(out.writes).toEqual(['0123456789\n'])
    batch.buffer.write('abc\n', batch.length)
    batch.length += 4
    batch.flush()
    expect(out.writes).toEqual(['0123456789\n', 'abc\n'])
  })

  it('an output that is full (EAGAIN) or takes part of a write: tried again until all is out', () => {
    let full = 3
    const out = output((data, n) => {
      if (full-- > 0) throw errno('EAGAIN')
      return n % 2 === 0 ? Math.min(3, data.length) : data.length
    })
    const batch = new SyncBatch(out.write, 64)
    batch.line('a line of the log')
    batch.line('another')
    batch.flush()
    expect(out.text()).toBe('a line of the log\nanother\n')
  })

  it('an output gone (EPIPE) takes nothing more, and nothing throws', () => {
    let calls = 0
    const batch = new SyncBatch(() => {
      calls++
      throw errno('EPIPE')
    }, 64)
    batch.line('lost')
    batch.flush()
    batch.line('x'.repeat(100))
    batch.flush()
    expect(calls).toBe(1)
  })
})
