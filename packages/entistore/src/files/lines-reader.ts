/**
 * @module The reader of a JSON Lines data file (`.jsonl`, `.ndjson`; data-stream.ts): one row a
 * line, whose `"__entityModel"` names its dataclass, a chunk's whole lines parsed as one array.
 */
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'
import { ws, type RowsSink } from './data-syntax.js'
import { FileError } from './file-error.js'

/** Hands on the rows of a JSON Lines file, grouped by dataclass within each chunk. */
export class LinesReader {
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
