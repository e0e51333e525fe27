/**
 * @module What the two readers of a data stream share (data-stream.ts): the sink of its rows, and
 * its syntax errors, first at a byte while scanning (SyntaxAt), then as a FileError at the line
 * and column of that byte, counted as readJsonFile counts them.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'
import { FileError } from './file-error.js'

/** Rows of one dataclass, in file order. */
export type RowsSink = (dataClass: string, rows: unknown) => void

/** JSON's whitespace. */
export const ws = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** A syntax error at byte `offset` of the file: its line and column are found by reading it again. */
export class SyntaxAt extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number | undefined,
    override readonly cause?: unknown,
  ) {
    super(reason)
  }
}

export const tokenAt = (buf: Buffer, i: number): string =>
  `Unexpected token '${String.fromCharCode(buf[i]!)}'`

/**
 * The error of a syntax error at byte `offset`: the line and column of that byte, found by reading
 * the file up to it (only on an error, so a load pays nothing for them).
 */
export async function syntaxError(
  file: string,
  reason: string,
  offset: number | undefined,
  cause?: unknown,
): Promise<FileError> {
  const message = `the data file is not valid JSON: ${reason}`
  if (offset === undefined) return new FileError(file, message, { cause })
  const fh = await open(file, 'r')
  try {
    const first = await firstError(fh, offset)
    if (first !== undefined)
      return new FileError(file, `the data file is not valid JSON: ${first.reason}`, {
        cause,
        line: first.line,
        column: first.column,
      })
    // Lines counted over the bytes (LF, CR LF or a lone CR), the column over the last line's
    // characters in UTF-16 units, as lineAndColumn counts them in a decoded text.
    const chunk = Buffer.allocUnsafe(1024 * 1024)
    let line = 1
    let lineStart = 0
    let bomCut = 0
    let pos = 0
    let lastCR = false
    while (pos < offset) {
      const { bytesRead } = await fh.read(chunk, 0, Math.min(chunk.length, offset - pos), pos)
      if (bytesRead === 0) break
      for (let i = 0; i < bytesRead; i++) {
        const c = chunk[i]!
        if (c === 0x0a) {
          if (!lastCR) line++
          lineStart = pos + i + 1
        } else if (c === 0x0d) {
          line++
          lineStart = pos + i + 1
        }
        lastCR = c === 0x0d
      }
      if (pos === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) bomCut = 3
      pos += bytesRead
    }
    const from = Math.max(lineStart, bomCut)
    const last = Buffer.allocUnsafe(Math.max(0, offset - from))
    if (last.length > 0) await fh.read(last, 0, last.length, from)
    const column = last.toString('utf8').length + 1
    return new FileError(file, message, { cause, line, column })
  } finally {
    await fh.close()
  }
}

/** The largest prefix read back whole to find the first error (well below V8's longest string). */
const FIRST_ERROR_BYTES = 128 * 1024 * 1024

/** How far past the byte where the stream stopped that prefix goes. */
const PAST_THE_BYTE = 64 * 1024

/**
 * The error one `JSON.parse` of the whole file reports, when it comes before the byte `offset`
 * where the stream stopped, or a little after: the scanner follows strings loosely (any character
 * after a backslash), so a bad escape can first show as a later error (a newline inside the string
 * it then runs on in), and it may stop early where the rows are not objects. The file up to a
 * little past that byte, parsed once, gives V8's own first error there; undefined when there is
 * none in it (or the prefix is too large to read back).
 */
async function firstError(
  fh: FileHandle,
  offset: number,
): Promise<{ reason: string; line: number; column: number } | undefined> {
  if (offset + 1 > FIRST_ERROR_BYTES) return undefined
  // A little past the byte too: the scanner may stop before the first error JSON.parse sees (a
  // string where a row should be, `["{"a":1}]`, read as a row that ends early), and a parse of
  // the prefix finds the first error within it as a parse of the whole file does.
  const prefix = Buffer.allocUnsafe(Math.min(FIRST_ERROR_BYTES, offset + 1 + PAST_THE_BYTE))
  const { bytesRead } = await fh.read(prefix, 0, prefix.length, 0)
  let text = prefix.toString('utf8', 0, bytesRead)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  try {
    JSON.parse(text)
    return undefined
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const { reason, position } = readJsonSyntaxError(e.message, text.length)
    // At the prefix's end: the text ran out there, which says nothing of the file, unless the
    // prefix is the whole file (an unterminated string in the last row: seed 2046630771).
    const whole = bytesRead < prefix.length
    if (position === undefined || (position >= text.length && !whole)) return undefined
    return { reason, ...lineAndColumn(text, position) }
  }
}

/** `text`, at byte `offset` of the file, parsed; a syntax error is a SyntaxAt at its place there. */
export function parseAt(text: string, offset: number): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const { reason, position } = readJsonSyntaxError(e.message, text.length)
    throw new SyntaxAt(
      reason,
      position === undefined
        ? undefined
        : offset + Buffer.byteLength(text.slice(0, Math.min(position, text.length))),
      e,
    )
  }
}
