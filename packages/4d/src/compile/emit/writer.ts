/**
 * @module The generated source, written line by line so that the code of 4D line N stands on line
 * N (research §8.10): compiled with `lineOffset`, the JavaScript stack then names the 4D file and
 * line of a failing statement. Code for an earlier line than the current one (the end of a block)
 * continues the current line.
 */
export class Writer {
  readonly #lines: string[] = ['']

  constructor(
    /** The 4D line the first line of the source stands for. */
    readonly firstLine: number,
  ) {}

  /** The 4D line being written. */
  get line(): number {
    return this.firstLine + this.#lines.length - 1
  }

  /** Goes to 4D line `line` (never back). */
  at(line: number): this {
    while (this.line < line) this.#lines.push('')
    return this
  }

  write(code: string): this {
    const last = this.#lines.length - 1
    this.#lines[last] = this.#lines[last] === '' ? code : `${this.#lines[last]} ${code}`
    return this
  }

  /** Puts `code` before everything on the first line (the prologue, known once the body is). */
  prepend(code: string): this {
    this.#lines[0] = this.#lines[0] === '' ? code : `${code} ${this.#lines[0]}`
    return this
  }

  toString(): string {
    return this.#lines.join('\n')
  }
}
