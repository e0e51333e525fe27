/**
 * @module A JSON text written in pieces: an opening, a long list whose items are rendered only as
 * the pieces are asked for, and a closing. The pieces joined are exactly the text `JSON.stringify`
 * gives for the whole value (when the items' texts are), so no reader can tell how it was produced.
 *
 * Why: a page of 100,000 entities is tens of megabytes of text. Built as one string, every client
 * that reads slowly holds a copy (ten of them once took a server from 185 MB to 1.6 GB). Rendered
 * piece by piece, a transport that waits for the client before asking for the next piece holds one.
 */
/** The size a piece grows to before it is handed out, in UTF-16 code units. */
export const CHUNK_CHARS = 64 * 1024

export class JsonChunks implements Iterable<string> {
  readonly #open: string
  readonly #count: number
  readonly #render: (index: number) => string | undefined
  readonly #close: string
  #next = 0
  #opened = false
  #done = false
  #written = false

  /**
   * `open` and `close` are JSON text around the list (`{"a":1,"list":[` and `]}`); `render(i)`
   * gives the JSON text of the list's item `i` (0 ≤ i < count), or undefined to leave it out. It
   * must read a snapshot: a piece may be asked for long after the reply was made.
   */
  constructor(
    open: string,
    count: number,
    render: (index: number) => string | undefined,
    close: string,
  ) {
    this.#open = open
    this.#count = count
    this.#render = render
    this.#close = close
  }

  /** Whether every piece has been handed out. */
  get done(): boolean {
    return this.#done
  }

  /**
   * The next piece: at least `CHUNK_CHARS` long unless it is the last. The first holds the opening,
   * the last the closing. '' once done.
   */
  take(): string {
    if (this.#done) return ''
    let out = ''
    if (!this.#opened) {
      this.#opened = true
      out = this.#open
    }
    while (this.#next < this.#count) {
      const text = this.#render(this.#next++)
      if (text === undefined) continue
      out += this.#written ? `,${text}` : text
      this.#written = true
      if (out.length >= CHUNK_CHARS) return out
    }
    this.#done = true
    return out + this.#close
  }

  *[Symbol.iterator](): Iterator<string> {
    while (!this.#done) yield this.take()
  }
}
