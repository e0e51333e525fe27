import { describe, expect, it } from 'vitest'
import { sipHash24 } from './siphash.js'

// The reference key 00 01 … 0f; messages are the first n bytes of 00 01 02 …
const key = Uint8Array.from({ length: 16 }, (_, i) => i)
const message = (n: number) => Uint8Array.from({ length: n }, (_, i) => i)

describe('sipHash24', () => {
  it('gives the reference outputs (the paper’s example and vectors.h)', () => {
    // Appendix A of the paper: 15 bytes.
    expect(sipHash24(key, message(15))).toBe(0xa129ca6149be45e5n)
    // vectors.h, read as little-endian words: empty, one byte, one whole word, two words and more.
    expect(sipHash24(key, message(0))).toBe(0x726fdb47dd0e0e31n)
    expect(sipHash24(key, message(1))).toBe(0x74f839c593dc67fdn)
    expect(sipHash24(key, message(8))).toBe(0x93f5f5799a932462n)
  })

  it('changes with the key', () => {
    const other = key.slice()
    other[0] = 1
    expect(sipHash24(other, message(15))).not.toBe(sipHash24(key, message(15)))
    expect(() => sipHash24(new Uint8Array(8), message(1))).toThrow(RangeError)
  })
})
