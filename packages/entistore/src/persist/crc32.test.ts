import { describe, expect, it } from 'vitest'
import { crc32, portableCrc32 } from './crc32.js'

describe.each([
  ['node:zlib', crc32],
  ['portable', portableCrc32],
])('crc32 (%s)', (_, crc) => {
  it('gives the standard check values', () => {
    // The "check" of CRC-32/ISO-HDLC: the CRC of the nine ASCII digits.
    expect(crc(Buffer.from('123456789'))).toBe(0xcbf43926)
    expect(crc(Buffer.alloc(0))).toBe(0)
    expect(crc(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339)
  })

  it('reads a range of the bytes only', () => {
    const bytes = Buffer.from('xx123456789yy')
    expect(crc(bytes, 2, 11)).toBe(0xcbf43926)
  })

  it('goes on from the CRC of the bytes before', () => {
    const bytes = Buffer.from('123456789')
    expect(crc(bytes, 4, 9, crc(bytes, 0, 4))).toBe(0xcbf43926)
    // An empty BLOB between two parts: node:zlib gives 0 for an empty ArrayBuffer of its own.
    expect(crc(new Uint8Array(0), 0, 0, 0xcbf43926)).toBe(0xcbf43926)
  })
})
