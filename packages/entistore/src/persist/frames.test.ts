import { describe, expect, it } from 'vitest'
import { encodeFrame, FRAME_HEADER, FrameDamage, scanFrames } from './frames.js'

const file = (...frames: Buffer[]): Buffer => Buffer.concat([Buffer.from('MAGIC123'), ...frames])

describe('frames', () => {
  it('gives back what was framed, UTF-8 included', () => {
    const bytes = file(encodeFrame('{"a":1}'), encodeFrame('"été ✓"'))
    expect(scanFrames(bytes, 8)).toEqual({ payloads: ['{"a":1}', '"été ✓"'], end: bytes.length })
  })

  it('leaves out a torn tail: a header or payload cut short, zeros, a bad frame that ends the file', () => {
    const good = encodeFrame('{"a":1}')
    const next = encodeFrame('{"b":2}')
    const end = 8 + good.length
    for (let cut = 0; cut < next.length; cut++)
      expect(scanFrames(file(good, next.subarray(0, cut)), 8)).toEqual({
        payloads: ['{"a":1}'],
        end,
      })
    expect(scanFrames(file(good, Buffer.alloc(100)), 8).end).toBe(end)
    const flipped = Buffer.from(next)
    flipped[FRAME_HEADER] = flipped[FRAME_HEADER]! ^ 1
    expect(scanFrames(file(good, flipped), 8).end).toBe(end)
  })

  it('throws FrameDamage for a bad frame with data after it: no crash does that', () => {
    const flipped = encodeFrame('{"a":1}')
    flipped[FRAME_HEADER + 2] = flipped[FRAME_HEADER + 2]! ^ 1
    const bytes = file(flipped, encodeFrame('{"b":2}'))
    expect(() => scanFrames(bytes, 8)).toThrow(FrameDamage)
    expect(() => scanFrames(bytes, 8)).toThrow(/damaged at byte 8: a frame whose checksum/)
    // A zero length (a zero-filled header) is not a frame, even though its CRC is that of nothing.
    expect(() => scanFrames(file(Buffer.alloc(8), encodeFrame('{}')), 8)).toThrow(/length 0/)
  })
})
