/**
 * @module The reader of a `{ "<DataClass>": [ {row}, … ], … }` data file (data-stream.ts): a byte
 * scanner follows the outer object and, inside each class's array, finds the commas between rows;
 * what a chunk holds up to the last one is given to one `JSON.parse`.
 */
import { fail } from '@entistore/core'
import { readJsonSyntaxError } from '@entistore/rest'
import { parseAt, SyntaxAt, tokenAt, ws, type RowsSink } from './data-syntax.js'

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

/** Hands on the rows of a `{ "<DataClass>": [ … ] }` file, chunk by chunk. */
export class ObjectReader {
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
