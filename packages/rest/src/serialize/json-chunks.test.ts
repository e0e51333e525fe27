import { describe, expect, it } from 'vitest'
import { CHUNK_CHARS, JsonChunks } from './json-chunks.js'

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ i, text: `item "${i}" ${'é'.repeat(i % 7)}` }))

function chunksOf(open: string, list: { i: number }[], close: string, skip = (_: number) => false) {
  return new JsonChunks(
    open,
    list.length,
    (i) => (skip(i) ? undefined : JSON.stringify(list[i])),
    close,
  )
}

describe('JsonChunks', () => {
  it('joins to the text JSON.stringify gives for the whole value', () => {
    for (const n of [0, 1, 2, 5000]) {
      const list = items(n)
      const chunks = [...chunksOf('{"a":1,"list":[', list, '],"n":2}')]
      expect(chunks.join('')).toBe(JSON.stringify({ a: 1, list, n: 2 }))
    }
  })

  it('leaves out items rendered as undefined, commas included', () => {
    const list = items(10)
    const odd = (i: number) => i % 2 === 1
    expect([...chunksOf('[', list, ']', (i) => !odd(i))].join('')).toBe(
      JSON.stringify(list.filter((_, i) => odd(i))),
    )
    expect([...chunksOf('[', list, ']', () => true)].join('')).toBe('[]')
  })

  it('hands out pieces of at least CHUNK_CHARS characters, all but the last', () => {
    const chunks = [...chunksOf('[', items(20_000), ']')]
    expect(chunks.length).toBeGreaterThan(5)
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(CHUNK_CHARS)
    // No more than one item past the size: a piece is handed out as soon as it is big enough.
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(CHUNK_CHARS + 100)
  })

  it('renders items only as pieces are asked for', () => {
    let rendered = 0
    const list = items(20_000)
    const chunks = new JsonChunks(
      '[',
      list.length,
      (i) => (rendered++, JSON.stringify(list[i])),
      ']',
    )
    expect(rendered).toBe(0)
    chunks.take()
    const afterOne = rendered
    expect(afterOne).toBeGreaterThan(0)
    expect(afterOne).toBeLessThan(list.length / 5)
    expect(chunks.done).toBe(false)
    while (!chunks.done) chunks.take()
    expect(rendered).toBe(list.length)
    expect(chunks.take()).toBe('')
  })
})
