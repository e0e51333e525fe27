/**
 * @module Frames: how journal and snapshot files hold records. A file starts with an 8-byte magic
 * (which kind of file, which version of the framing), then frames:
 *
 *     u32 LE length of the body | u32 LE CRC-32 of the body | body
 *
 * In version 2 (`ENTJRN2`, `ENTSNP2`, written since pictures and BLOBs are kept as bytes) a body
 * is a UTF-8 JSON text and the bytes it names (its *attachments*: the pictures and BLOBs of the
 * record, which would otherwise be base64 inside the text):
 *
 *     u32 LE n | n × u32 LE attachment length | JSON text | attachment 0 | … | attachment n-1
 *
 * In version 1 (`ENTJRN1`, `ENTSNP1`, still read) a body is the JSON text alone.
 *
 * A reader takes frames while they are whole and their checksum matches. What follows the last
 * good frame is a *torn tail* when it can only be a write cut short by a crash: a header cut
 * short, a frame whose length runs past the end of the file (a cut inside an attachment too), or
 * a bad frame that ends the file exactly or is followed by zeros only (a file system that grew the
 * file but never wrote the bytes). The tail is then dropped, never half-applied. Anything else — a
 * bad frame with more data after it, a frame whose checksum matches but whose attachments do not
 * fit it — is damage a crash cannot make, and the reader refuses the file rather than silently
 * drop the records after it.
 */
import { crc32 } from './crc32.js'

/** Bytes before a body: its length and its checksum. */
export const FRAME_HEADER = 8

/** The framings a reader knows: 1, a JSON text; 2, a JSON text and its attachments. */
export type FrameVersion = 1 | 2

/** What a frame holds: a JSON text, and the bytes it names (none in version 1). */
export interface FramePayload {
  readonly text: string
  readonly attachments: readonly Uint8Array[]
}

/**
 * A version 2 frame, ready to write: its parts in order (header, table and text in one buffer,
 * then each attachment as it is, never copied) and its length in bytes.
 */
export interface EncodedFrame {
  readonly chunks: readonly Uint8Array[]
  readonly bytes: number
}

/** The largest body a frame's u32 length can say. */
const MAX_BODY = 0xffff_ffff

/** `text` and `attachments` as one version 2 frame. Throws a RangeError past 4 GiB. */
export function encodeFrame(text: string, attachments: readonly Uint8Array[] = []): EncodedFrame {
  const table = 4 + 4 * attachments.length
  const textBytes = Buffer.byteLength(text, 'utf8')
  let body = table + textBytes
  for (const a of attachments) body += a.length
  if (body > MAX_BODY)
    throw new RangeError(`a record of ${body} bytes: a frame holds 4 GiB at most`)
  const head = Buffer.allocUnsafe(FRAME_HEADER + table + textBytes)
  head.writeUInt32LE(body, 0)
  head.writeUInt32LE(attachments.length, FRAME_HEADER)
  attachments.forEach((a, i) => head.writeUInt32LE(a.length, FRAME_HEADER + 4 + 4 * i))
  head.write(text, FRAME_HEADER + table, 'utf8')
  let crc = crc32(head, FRAME_HEADER)
  for (const a of attachments) crc = crc32(a, 0, a.length, crc)
  head.writeUInt32LE(crc, 4)
  return { chunks: [head, ...attachments], bytes: FRAME_HEADER + body }
}

export interface ScannedFrames {
  /** The payloads of the good frames, in order; attachments are copies, not views of the file. */
  readonly payloads: FramePayload[]
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
 * The frames of `bytes` from `start`, framed as `version` says, and where the good ones end (a
 * torn tail after them is left out). Throws FrameDamage for a bad frame that a crash cannot
 * explain.
 */
export function scanFrames(bytes: Uint8Array, start: number, version: FrameVersion): ScannedFrames {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const payloads: FramePayload[] = []
  let at = start
  while (at < view.length) {
    if (view.length - at < FRAME_HEADER) break // a header cut short
    const length = view.readUInt32LE(at)
    const end = at + FRAME_HEADER + length
    if (end > view.length) break // the body cut short
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
    payloads.push(
      version === 1
        ? { text: view.toString('utf8', at + FRAME_HEADER, end), attachments: [] }
        : readBody(view, at, end),
    )
    at = end
  }
  return { payloads, end: at }
}

/** A version 2 body, whose checksum matched: its text and attachments, which must fit it. */
function readBody(view: Buffer, at: number, end: number): FramePayload {
  const body = at + FRAME_HEADER
  const count = view.readUInt32LE(body)
  const text = body + 4 + 4 * count
  let attached = 0
  for (let i = 0; i < count && text <= end; i++) attached += view.readUInt32LE(body + 4 + 4 * i)
  if (text + attached > end)
    throw new FrameDamage(
      at,
      'a frame whose attachments do not fit in it, yet its checksum matches',
    )
  const textEnd = end - attached
  const attachments: Uint8Array[] = []
  for (let i = 0, from = textEnd; i < count; i++) {
    const to = from + view.readUInt32LE(body + 4 + 4 * i)
    // A copy: a view would keep the whole file's buffer alive as long as the value.
    attachments.push(new Uint8Array(view.subarray(from, to)))
    from = to
  }
  return { text: view.toString('utf8', text, textEnd), attachments }
}

function zerosFrom(bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false
  return true
}
