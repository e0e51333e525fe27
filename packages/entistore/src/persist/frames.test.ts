import { describe, expect, it } from 'vitest'
import { crc32 } from './crc32.js'
import { encodeFrame, FRAME_HEADER, FrameDamage, scanFrames } from './frames.js'

const file = (...frames: Uint8Array[]): Buffer =>
  Buffer.concat([Buffer.from('MAGIC123'), ...frames])
/** A version 2 frame in one buffer. */
const frame = (text: string, attachments: Uint8Array[] = []): Buffer =>
  Buffer.concat(encodeFrame(text, attachments).chunks)
/** A version 1 frame, as the first framing wrote them: the JSON text alone. */
function frameV1(text: string): Buffer {
  const body = Buffer.from(text, 'utf8')
  const head = Buffer.alloc(FRAME_HEADER)
  head.writeUInt32LE(body.length, 0)
  head.writeUInt32LE(crc32(body), 4)
  return Buffer.concat([head, body])
}
const bytes = (...b: number[]) => new Uint8Array(b)

describe('frames', () => {
  it('gives back what was framed: the text, UTF-8 included, and its attachments', () => {
    const picture = bytes(0x89, 0x50, 0, 255, 7)
    const encoded = encodeFrame('{"a":"été ✓"}', [picture, bytes(), bytes(1)])
    // The attachments are written as they are: not copied into the frame's first buffer.
    expect(encoded.chunks[1]).toBe(picture)
    const whole = file(Buffer.concat(encoded.chunks), frame('"b"'))
    expect(encoded.bytes).toBe(Buffer.concat(encoded.chunks).length)
    expect(scanFrames(whole, 8, 2)).toEqual({
      payloads: [
        { text: '{"a":"été ✓"}', attachments: [picture, bytes(), bytes(1)] },
        { text: '"b"', attachments: [] },
      ],
      end: whole.length,
    })
    // Copies: a view would keep the file's buffer alive.
    const read = scanFrames(whole, 8, 2).payloads[0]!.attachments[0]!
    expect(read.buffer).not.toBe(whole.buffer)
  })

  it('reads the first framing, a JSON text alone', () => {
    const whole = file(frameV1('{"a":1}'), frameV1('"été ✓"'))
    expect(scanFrames(whole, 8, 1)).toEqual({
      payloads: [
        { text: '{"a":1}', attachments: [] },
        { text: '"été ✓"', attachments: [] },
      ],
      end: whole.length,
    })
  })

  it('leaves out a torn tail: a header, table, text or attachment cut short, zeros, a bad frame that ends the file', () => {
    const good = frame('{"a":1}', [bytes(1, 2)])
    const next = frame('{"b":2}', [bytes(3, 4, 5, 6), bytes(7, 8)])
    const end = 8 + good.length
    const kept = [{ text: '{"a":1}', attachments: [bytes(1, 2)] }]
    for (let cut = 0; cut < next.length; cut++)
      expect(scanFrames(file(good, next.subarray(0, cut)), 8, 2)).toEqual({ payloads: kept, end })
    expect(scanFrames(file(good, Buffer.alloc(100)), 8, 2).end).toBe(end)
    // A byte of the last attachment written wrong, the file ending there.
    const flipped = Buffer.from(next)
    flipped[flipped.length - 1] = flipped.at(-1)! ^ 1
    expect(scanFrames(file(good, flipped), 8, 2).end).toBe(end)
  })

  it('throws FrameDamage for a bad frame with data after it: no crash does that', () => {
    const flipped = frame('{"a":1}', [bytes(1, 2, 3)])
    flipped[flipped.length - 2] = flipped.at(-2)! ^ 1 // inside the attachment
    const whole = file(flipped, frame('{"b":2}'))
    expect(() => scanFrames(whole, 8, 2)).toThrow(FrameDamage)
    expect(() => scanFrames(whole, 8, 2)).toThrow(/damaged at byte 8: a frame whose checksum/)
    // A zero length (a zero-filled header) is not a frame, even though its CRC is that of nothing.
    expect(() => scanFrames(file(Buffer.alloc(8), frame('{}')), 8, 2)).toThrow(/length 0/)
  })

  it('refuses a frame whose checksum matches but whose attachments do not fit in it', () => {
    // Written by something else than encodeFrame: 1 attachment of 100 bytes, in a 10-byte body.
    const body = Buffer.alloc(10)
    body.writeUInt32LE(1, 0)
    body.writeUInt32LE(100, 4)
    const head = Buffer.alloc(FRAME_HEADER)
    head.writeUInt32LE(body.length, 0)
    head.writeUInt32LE(crc32(body), 4)
    expect(() => scanFrames(file(head, body), 8, 2)).toThrow(
      /damaged at byte 8: a frame whose attachments do not fit/,
    )
  })
})
