/**
 * @module A data file read as a stream, a slice at a time, handing its rows on in batches: no copy
 * of the whole text is made, so a file may be larger than V8's longest string (512 MiB) and the
 * parsed rows are never all alive at once.
 *
 * `{ "<DataClass>": [ {row}, … ], … }`: a byte scanner follows the outer object and, inside each
 * class's array, the depth, strings and escapes, only to find the commas between rows. What a
 * chunk holds up to its last such comma is decoded as one string and given to one `JSON.parse`,
 * which checks the rows' syntax (native, as fast as one parse of the whole file). The scanner
 * checks the outer structure itself. A class given one object instead of an array
 * (`"profile": {…}`, json-server's singular resource) is its one row.
 *
 * JSON Lines (`.jsonl`, `.ndjson`): one row a line, whose `"__entityModel"` names its dataclass;
 * a chunk's whole lines are parsed together in the same way, as one array.
 *
 * A syntax error is a FileError with the line and column, counted as readJsonFile counts them: a
 * BOM is cut off first.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { syntaxError, SyntaxAt, type RowsSink } from './data-syntax.js'
import { FileError, unreadableFile } from './file-error.js'
import { LinesReader } from './lines-reader.js'
import { ObjectReader } from './object-reader.js'

export type { RowsSink }

export interface DataStreamOptions {
  /** Bytes read at a time; a row longer than this grows the buffer. @default 2 MiB */
  readonly chunkSize?: number
  /**
   * Called after each chunk's rows are handed on, with the bytes read so far and the file's size:
   * a progress display, a heap guard (which throws to stop), or a pause that lets the event loop
   * run (a reload by --watch awaits setImmediate here).
   */
  readonly afterChunk?: (read: number, size: number) => void | Promise<void>
}

/** Whether `file` is JSON Lines, by its extension. */
export const isJsonLines = (file: string): boolean => /\.(jsonl|ndjson)$/i.test(file)

/** Reads `file` and hands its rows to `sink`, a batch at a time. Throws FileError for bad syntax. */
export async function readDataStream(
  file: string,
  sink: RowsSink,
  options: DataStreamOptions = {},
): Promise<void> {
  let fh: FileHandle
  try {
    fh = await open(file, 'r')
  } catch (e) {
    throw unreadable(file, e)
  }
  try {
    const size = (await fh.stat()).size
    const reader = isJsonLines(file) ? new LinesReader(file, sink) : new ObjectReader(file, sink)
    let buf = Buffer.allocUnsafe(options.chunkSize ?? 2 * 1024 * 1024)
    let filled = 0
    // A BOM is cut off: the text starts after it, as readJsonFile's does.
    const head = Buffer.alloc(3)
    await fh.read(head, 0, 3, 0)
    let read = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0
    for (;;) {
      if (filled === buf.length) {
        // One row fills the buffer: a larger one, the bytes kept.
        const larger = Buffer.allocUnsafe(buf.length * 2)
        buf.copy(larger, 0, 0, filled)
        buf = larger
      }
      let n: number
      try {
        ;({ bytesRead: n } = await fh.read(buf, filled, buf.length - filled, read))
      } catch (e) {
        throw unreadable(file, e)
      }
      read += n
      filled += n
      let keep: number
      try {
        keep =
          n === 0 ? reader.end(buf, filled, read - filled) : reader.scan(buf, filled, read - filled)
      } catch (e) {
        if (e instanceof SyntaxAt) throw await syntaxError(file, e.reason, e.offset, e.cause)
        throw e
      }
      if (n === 0) return
      // What the next chunk continues (a row cut in two) moves to the front.
      buf.copyWithin(0, keep, filled)
      filled -= keep
      await options.afterChunk?.(read, size)
    }
  } finally {
    await fh.close()
  }
}

function unreadable(file: string, e: unknown): FileError {
  return unreadableFile(file, 'data', e)
}
