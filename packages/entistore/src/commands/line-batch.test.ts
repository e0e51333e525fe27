/**
 * The request log's writer: lines gathered and written once a turn, each write whole lines and at
 * most 4096 bytes (what a pipe the workers share delivers whole).
 */
import { describe, expect, it } from 'vitest'
import { batchedLines, MAX_WRITE } from './line-batch.js'

/** A writer whose writes and turns the test holds. */
function collected() {
  const writes: string[] = []
  const turns: (() => void)[] = []
  const log = batchedLines(
    (text) => writes.push(text),
    (flush) => turns.push(flush),
  )
  return { writes, turns, log }
}

describe('batchedLines', () => {
  it('writes the lines of a turn in one write, when the turn is over', () => {
    const { writes, turns, log } = collected()
    log('GET /a 200 0.10 ms 2 B -')
    log('GET /b 404 0.20 ms 3 B ada')
    expect(writes).toEqual([])
    expect(turns).toHaveLength(1)
    turns.shift()!()
    expect(writes).toEqual(['GET /a 200 0.10 ms 2 B -\nGET /b 404 0.20 ms 3 B ada\n'])
    log('GET /c 200 0.30 ms 4 B -')
    turns.shift()!()
    expect(writes[1]).toBe('GET /c 200 0.30 ms 4 B -\n')
  })

  it('never writes more than 4096 bytes at once, nor a piece of a line', () => {
    const { writes, turns, log } = collected()
    // Multi-byte characters count as the bytes they take.
    const lines = Array.from({ length: 100 }, (_, i) => `GET /rest/${'é'.repeat(40)}${i} 200`)
    for (const line of lines) log(line)
    for (const flush of turns.splice(0)) flush()
    expect(writes.length).toBeGreaterThan(1)
    for (const text of writes) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_WRITE)
      expect(text.endsWith('\n')).toBe(true)
    }
    expect(writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''))
  })
})
