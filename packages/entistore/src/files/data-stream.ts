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
import { fail } from '@entistore/core'
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'
import { FileError, unreadableFile } from './file-error.js'

/** Rows of one dataclass, in file order. */
export type RowsSink = (dataClass: string, rows: unknown) => void

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

const ws = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

// The outer structure's states, between the rows.
const START = 0 // before the opening {
const KEY = 1 // before a class name (or the closing } of an empty object)
const IN_KEY = 2 // inside a class name
const COLON = 3
const VALUE = 4 // before the class's [
const ARRAY = 5 // inside the class's array
const AFTER = 6 // after a class's array: , or }
const END = 7 // after the closing }: whitespace only
const NEXT_KEY = 8 // after a comma: a class name must follow

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

/** A syntax error at byte `offset` of the file: its line and column are found by reading it again. */
class SyntaxAt extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number | undefined,
    override readonly cause?: unknown,
  ) {
    super(reason)
  }
}

const tokenAt = (buf: Buffer, i: number): string =>
  `Unexpected token '${String.fromCharCode(buf[i]!)}'`

/**
 * The error of a syntax error at byte `offset`: the line and column of that byte, found by reading
 * the file up to it (only on an error, so a load pays nothing for them).
 */
async function syntaxError(
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

/** Hands on the rows of a `{ "<DataClass>": [ … ] }` file, chunk by chunk. */
class ObjectReader {
  readonly #file: string
  readonly #sink: RowsSink
  #state = START
  // The class whose array is being read, and the bytes of its name while it is read.
  #dataClass = ''
  #keyBytes: Buffer[] = []
  #keyStart = 0
  #keyOffset = 0
  // At the end of the file: every byte left is scanned, none left for a next chunk.
  #final = false
  #keyEscape = false
  // Inside an array: the depth within a row, in a string, after a backslash, and whether a value
  // came since the last comma (`[,` and `,]` are errors the batches' parse could not see).
  #depth = 0
  #inString = false
  #escape = false
  #seen = false
  #rows = 0
  // The class's value is one object, not an array: its one row, handed on at its closing brace.
  #single = false
  // The buffer index where the batch being gathered starts: its `[`, or the comma before it (the
  // object's `{` for a single row).
  #segment = 0
  #bytes = -1

  constructor(file: string, sink: RowsSink) {
    this.#file = file
    this.#sink = sink
  }

  /**
   * Scans `buf[0, filled)`, at file offset `at`: hands on the rows it completes, and returns how
   * many bytes the next chunk need not keep (the rest is a row cut by the chunk's end).
   */
  scan(buf: Buffer, filled: number, at: number): number {
    let i = this.#bytes < 0 ? 0 : this.#bytes - at
    let rewound = -1
    while (i < filled) {
      if (this.#state === ARRAY) {
        // At the start of a batch: the usual chunk (rows of one array, from just after a comma
        // between rows), or the rest of the chunk where an array opens. The last `}, {` of the
        // chunk is taken for the end of a row without scanning up to it, and the parse decides:
        // the rows before it parse as one array only if it is a comma between rows (inside a
        // string or a row, the text would end in the middle of one). If not (the array ends in
        // this chunk, or the text is wrong), the scanner reads the chunk instead. Tried where an
        // array opens too: the first chunk of a file whose large class comes after a small one
        // was scanned a byte at a time (2 MiB, a twentieth of a 200k-row start-up).
        if (i === this.#segment + 1 && !this.#single && !this.#final) {
          const boundary = rowBoundary(buf, i, filled)
          if (boundary >= 0 && this.#tryEmit(buf, this.#segment, boundary)) {
            this.#rows = 1
            this.#segment = 0
            this.#bytes = at + boundary + 1
            return boundary
          }
        }
        i = this.#array(buf, i, filled, at)
        if (i < 0) {
          rewound = -i
          break
        }
        continue
      }
      const c = buf[i]!
      switch (this.#state) {
        case START:
          if (c === 0x7b) this.#state = KEY
          else if (/[-0-9["tfn]/.test(String.fromCharCode(c)))
            // Another value: refused as a data file's is, not read further.
            fail('InvalidData', [
              'data',
              'expected an object of the form { "<DataClass>": [ {...}, ... ] }',
            ])
          else if (!ws(c)) throw new SyntaxAt(tokenAt(buf, i), at + i)
          break
        case KEY:
        case NEXT_KEY:
          if (c === 0x22) {
            this.#state = IN_KEY
            this.#keyStart = i + 1
            this.#keyOffset = at + i + 1
            this.#keyBytes = []
          } else if (c === 0x7d && this.#state === KEY) this.#state = END
          else if (!ws(c)) throw new SyntaxAt(tokenAt(buf, i), at + i)
          break
        case IN_KEY:
          if (this.#keyEscape) this.#keyEscape = false
          else if (c === 0x5c) this.#keyEscape = true
          else if (c === 0x22) {
            this.#keyBytes.push(Buffer.from(buf.subarray(this.#keyStart, i)))
            const raw = Buffer.concat(this.#keyBytes).toString('utf8')
            const text = `"${raw}"`
            try {
              this.#dataClass = JSON.parse(text) as string
            } catch (e) {
              const { reason, position } = readJsonSyntaxError((e as Error).message, text.length)
              throw new SyntaxAt(
                reason,
                position === undefined
                  ? at + i
                  : this.#keyOffset + Buffer.byteLength(text.slice(1, position)),
                e,
              )
            }
            this.#state = COLON
          } else if (c < 0x20) throw new SyntaxAt('Bad control character in string literal', at + i)
          break
        case COLON:
          if (c === 0x3a) this.#state = VALUE
          else if (!ws(c)) throw new SyntaxAt(tokenAt(buf, i), at + i)
          break
        case VALUE:
          if (c === 0x5b || c === 0x7b) {
            // An object is scanned as the array's one row: from inside it, up to its closing brace.
            this.#state = ARRAY
            this.#single = c === 0x7b
            this.#segment = i
            this.#depth = this.#single ? 1 : 0
            this.#inString = false
            this.#escape = false
            this.#seen = this.#single
            this.#rows = 0
          } else if (!ws(c)) {
            // Another value: refused by the sink as a data file's value is (not an array of
            // rows). The value itself is not read: a syntax error in it goes unreported.
            if (/[-0-9"tfn]/.test(String.fromCharCode(c))) this.#sink(this.#dataClass, {})
            throw new SyntaxAt(tokenAt(buf, i), at + i)
          }
          break
        case AFTER:
          if (c === 0x2c) this.#state = NEXT_KEY
          else if (c === 0x7d) this.#state = END
          else if (!ws(c)) throw new SyntaxAt(tokenAt(buf, i), at + i)
          break
        case END:
          if (!ws(c)) throw new SyntaxAt('Unexpected non-whitespace character after JSON', at + i)
          break
      }
      i++
    }
    this.#bytes = at + (rewound >= 0 ? rewound : filled)
    if (this.#state === IN_KEY) {
      // A class name cut by the chunk's end: its bytes so far are kept aside.
      this.#keyBytes.push(Buffer.from(buf.subarray(this.#keyStart, filled)))
      this.#keyStart = 0
      return filled
    }
    if (this.#state !== ARRAY) return filled
    const keep = this.#segment
    this.#segment = 0
    return keep
  }

  /** At the end of the file: an error unless the outer object was closed. */
  end(buf: Buffer, filled: number, at: number): number {
    // What the last chunk left unread (from just after a comma between rows), read to the end.
    this.#final = true
    if (filled > 0) this.scan(buf, filled, at)
    if (this.#state === ARRAY)
      throw this.#single
        ? new SyntaxAt('Unexpected end of JSON input', at + filled)
        : this.#fail(buf, filled, at, 'Unexpected end of JSON input')
    if (this.#state !== END) throw new SyntaxAt('Unexpected end of JSON input', at + filled)
    return filled
  }

  /** Scans array bytes from `i`; hands on the rows before the last comma, or all at the `]`. */
  #array(buf: Buffer, start: number, filled: number, at: number): number {
    let depth = this.#depth
    let inString = this.#inString
    let escape = this.#escape
    let seen = this.#seen
    let comma = -1
    let i = start
    for (; i < filled; i++) {
      const c = buf[i]!
      if (inString) {
        if (escape) escape = false
        else if (c === 0x5c) escape = true
        else if (c === 0x22) inString = false
        continue
      }
      if (c === 0x22) {
        inString = true
        seen = true
      } else if (c === 0x7b || c === 0x5b) {
        depth++
        seen = true
      } else if (c === 0x7d || c === 0x5d) {
        if (depth > 0) {
          depth--
          if (depth === 0 && this.#single) {
            this.#emitSingle(buf, this.#segment, i, at)
            this.#single = false
            this.#state = AFTER
            return i + 1
          }
        } else if (c === 0x7d) throw this.#fail(buf, i, at)
        else {
          if (!seen && this.#rows > 0) throw this.#fail(buf, i, at)
          // The array's end: the rows since the last batch, with its own `]`.
          this.#emit(buf, this.#segment, i, at, seen)
          this.#state = AFTER
          return i + 1
        }
      } else if (c === 0x2c) {
        if (depth === 0) {
          if (!seen) throw this.#fail(buf, i, at)
          comma = i
          seen = false
          this.#rows++
        }
      } else if (!seen && !ws(c)) seen = true
    }
    if (comma >= 0 && !this.#final) {
      // The rows up to the chunk's last comma between rows, the comma closing them; it opens
      // the next batch, which is read again from just after it (the next chunk can then take
      // the quick way, see scan).
      this.#emit(buf, this.#segment, comma, at, true)
      this.#segment = comma
      this.#depth = 0
      this.#inString = false
      this.#escape = false
      this.#seen = false
      return -(comma + 1)
    }
    this.#depth = depth
    this.#inString = inString
    this.#escape = escape
    this.#seen = seen
    return i
  }

  /** Hands on `buf[from, to]` parsed as one array, if it is one; else puts the bytes back. */
  #tryEmit(buf: Buffer, from: number, to: number): boolean {
    const opening = buf[from]!
    buf[from] = 0x5b
    buf[to] = 0x5d
    let rows: unknown
    try {
      rows = JSON.parse(buf.toString('utf8', from, to + 1))
    } catch {
      buf[from] = opening
      buf[to] = 0x2c
      return false
    }
    this.#sink(this.#dataClass, rows)
    return true
  }

  /**
   * The syntax error at `buf[i]`, or an earlier one in the rows before it, which the scanner does
   * not look into: the batch so far is parsed to find it, so that the place is the first wrong
   * character, as one JSON.parse of the file would say.
   */
  #fail(buf: Buffer, i: number, at: number, reason = tokenAt(buf, i)): SyntaxAt {
    buf[this.#segment] = 0x5b
    const text = buf.toString('utf8', this.#segment, i)
    try {
      JSON.parse(text)
    } catch (e) {
      const { reason, position } = readJsonSyntaxError((e as Error).message, text.length)
      if (position !== undefined && position < text.length)
        return new SyntaxAt(
          reason,
          at + this.#segment + Buffer.byteLength(text.slice(0, position)),
          e,
        )
    }
    return new SyntaxAt(reason, at + i)
  }

  /** Parses `buf[from, to]`, a class's one object, and hands it on as its one row. */
  #emitSingle(buf: Buffer, from: number, to: number, at: number): void {
    this.#sink(this.#dataClass, [parseAt(buf.toString('utf8', from, to + 1), at + from)])
  }

  /** Parses `buf[from, to]` as one array: `from` (a `[` or comma) becomes `[`, `to` becomes `]`. */
  #emit(buf: Buffer, from: number, to: number, at: number, any: boolean): void {
    if (!any) {
      this.#sink(this.#dataClass, [])
      return
    }
    buf[from] = 0x5b
    const closing = buf[to]!
    buf[to] = 0x5d
    const text = buf.toString('utf8', from, to + 1)
    buf[to] = closing
    this.#sink(this.#dataClass, parseAt(text, at + from))
  }
}

/** `text`, at byte `offset` of the file, parsed; a syntax error is a SyntaxAt at its place there. */
function parseAt(text: string, offset: number): unknown {
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

/**
 * The last comma of `buf[from, to)` between a `}` and a `{` (whitespace aside), or -1: where a row
 * most likely ends, to be confirmed by parsing the rows before it.
 */
function rowBoundary(buf: Buffer, from: number, to: number): number {
  let k = to - 1
  while (k > from) {
    const comma = buf.lastIndexOf(0x2c, k)
    if (comma <= from) return -1
    let before = comma - 1
    while (before > from && ws(buf[before]!)) before--
    let after = comma + 1
    while (after < to && ws(buf[after]!)) after++
    if (buf[before] === 0x7d && after < to && buf[after] === 0x7b) return comma
    k = comma - 1
  }
  return -1
}

/** Hands on the rows of a JSON Lines file, grouped by dataclass within each chunk. */
class LinesReader {
  readonly #file: string
  readonly #sink: RowsSink
  #line = 1

  constructor(file: string, sink: RowsSink) {
    this.#file = file
    this.#sink = sink
  }

  scan(buf: Buffer, filled: number): number {
    const last = buf.lastIndexOf(0x0a, filled - 1)
    if (last < 0) return 0
    this.#lines(buf, 0, last + 1)
    return last + 1
  }

  /** At the end of the file: the last line, if no newline ends it. */
  end(buf: Buffer, filled: number): number {
    if (filled > 0) this.#lines(buf, 0, filled)
    return filled
  }

  /** Lines `buf[from, to)` (whole ones) parsed together: blank lines skipped, the others joined. */
  #lines(buf: Buffer, from: number, to: number): void {
    const starts: number[] = []
    const ends: number[] = []
    const lines: number[] = []
    let line = this.#line
    let prevEnd = -1
    for (let i = from; i < to;) {
      let nl = buf.indexOf(0x0a, i)
      if (nl < 0 || nl >= to) nl = to
      let j = i
      while (j < nl && ws(buf[j]!)) j++
      if (j < nl) {
        // A line with a row: the newline of the one before becomes the comma between them.
        if (prevEnd >= 0) buf[prevEnd] = 0x2c
        starts.push(i)
        ends.push(nl)
        lines.push(line)
        prevEnd = nl < to ? nl : -1
      }
      line++
      i = nl + 1
    }
    this.#line = line
    if (starts.length === 0) return
    const textEnd = prevEnd >= 0 ? prevEnd : to
    let rows: unknown[]
    try {
      rows = JSON.parse(`[${buf.toString('utf8', starts[0]!, textEnd)}]`) as unknown[]
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e
      // Which line: each parsed alone, in order, with the newlines put back.
      for (let k = 0; k < starts.length; k++) {
        const text = buf.toString('utf8', starts[k]!, ends[k]!)
        try {
          JSON.parse(text)
        } catch (lineError) {
          const { reason, position } = readJsonSyntaxError(
            (lineError as Error).message,
            text.length,
          )
          const column = position === undefined ? undefined : lineAndColumn(text, position).column
          throw new FileError(this.#file, `the data file is not valid JSON: ${reason}`, {
            cause: lineError,
            line: lines[k]!,
            ...(column === undefined ? {} : { column }),
          })
        }
      }
      throw e
    }
    // Grouped by dataclass, in file order within each: one batch of columns per class.
    const byClass = new Map<string, unknown[]>()
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k] as { __entityModel?: unknown } | null
      const name =
        typeof row === 'object' && row !== null && !Array.isArray(row)
          ? row.__entityModel
          : undefined
      if (typeof name !== 'string')
        throw new FileError(
          this.#file,
          'invalid data: expected an object whose "__entityModel" names its dataclass',
          { line: lines[k]!, column: 1 },
        )
      const list = byClass.get(name)
      if (list) list.push(row)
      else byClass.set(name, [row])
    }
    for (const [name, list] of byClass) this.#sink(name, list)
  }
}
