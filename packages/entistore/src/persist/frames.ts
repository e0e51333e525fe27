/**
 * @module Frames: how journal and snapshot files hold records. A file starts with an 8-byte magic
 * (which kind of file, which version of the framing), then frames:
 *
 *     u32 LE length of the payload | u32 LE CRC-32 of the payload | payload (UTF-8 JSON)
 *
 * A reader takes frames while they are whole and their checksum matches. What follows the last
 * good frame is a *torn tail* when it can only be a write cut short by a crash: a header cut
 * short, a frame whose length runs past the end of the file, or a bad frame that ends the file
 * exactly or is followed by zeros only (a file system that grew the file but never wrote the
 * bytes). The tail is then dropped, never half-applied. Anything else — a bad frame with more data
 * after it — is damage a crash cannot make, and the reader refuses the file rather than silently
 * drop the records after it.
 */
import { crc32 } from './crc32.js'

/** Bytes before a payload: its length and its checksum. */
export const FRAME_HEADER = 8

/** `payload` as one frame (header and UTF-8 bytes) in one buffer, for one write. */
export function encodeFrame(payload: string): Buffer {
  const length = Buffer.byteLength(payload, 'utf8')
  const frame = Buffer.allocUnsafe(FRAME_HEADER + length)
  frame.write(payload, FRAME_HEADER, 'utf8')
  frame.writeUInt32LE(length, 0)
  frame.writeUInt32LE(crc32(frame, FRAME_HEADER), 4)
  return frame
}

export interface ScannedFrames {
  /** The payloads of the good frames, in order. */
  readonly payloads: string[]
  /** Where the good frames end: the file's length when nothing follows them. */
  readonly end: number
}

/** Thrown for damage a crash cannot make: `offset` is where the bad frame starts. */
export class FrameDamage extends Error {
  constructor(
    readonly offset: number,
    why: string,
  ) {
    super(`damaged at byte ${offset}: ${why}`)
  }
}

/**
 * The frames of `bytes` from `start`, and where the good ones end (a torn tail after them is left
 * out). Throws FrameDamage for a bad frame that a crash cannot explain.
 */
export function scanFrames(bytes: Uint8Array, start: number): ScannedFrames {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const payloads: string[] = []
  let at = start
  while (at < view.length) {
    if (view.length - at < FRAME_HEADER) break // a header cut short
    const length = view.readUInt32LE(at)
    const end = at + FRAME_HEADER + length
    if (end > view.length) break // the payload cut short
    const good = length > 0 && crc32(view, at + FRAME_HEADER, end) === view.readUInt32LE(at + 4)
    if (!good) {
      if (end === view.length || zerosFrom(view, at)) break
      throw new FrameDamage(
        at,
        length === 0
          ? 'a frame of length 0, with data after it'
          : 'a frame whose checksum does not match, with data after it',
      )
    }
    payloads.push(view.toString('utf8', at + FRAME_HEADER, end))
    at = end
  }
  return { payloads, end: at }
}

function zerosFrom(bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false
  return true
}
