import { describe, expect, it } from 'vitest'
import { crc32 } from './crc32.js'

describe('crc32', () => {
  it('gives the standard check values', () => {
    // The "check" of CRC-32/ISO-HDLC: the CRC of the nine ASCII digits.
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926)
    expect(crc32(Buffer.alloc(0))).toBe(0)
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339)
  })

  it('reads a range of the bytes only', () => {
    const bytes = Buffer.from('xx123456789yy')
    expect(crc32(bytes, 2, 11)).toBe(0xcbf43926)
  })
})
