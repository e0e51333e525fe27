/**
 * @module A table of names whose words are separated by one space (`Current date`, a project
 * method `GET ENVIRONMENT VARIABLE`), matched longest first and without case at a point of the
 * source. 4D's names may contain spaces, so where a name ends is known only from the names that
 * exist: the grammar asks this table, built once for 4D's own names and once a parse for the
 * project's methods.
 */

/** The characters of a word of a name, as the grammar's IdentChar. */
const isWordChar = (code: number): boolean =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95 ||
  (code >= 0xc0 && code <= 0x24f) ||
  (code >= 0x370 && code <= 0xffef)

export class NameTable<T> {
  private readonly byName = new Map<string, T>()
  /** Every word-prefix of a name (`current`, `current date`…), so a scan stops when none goes on. */
  private readonly prefixes = new Set<string>()
  private maxWords = 0

  /** `onDuplicate` is called for a name listed twice (the first entry is kept). */
  constructor(
    entries: Iterable<readonly [string, T]>,
    onDuplicate: (name: string) => void = () => {},
  ) {
    for (const [name, value] of entries) {
      const key = name.toLowerCase()
      if (this.byName.has(key)) {
        onDuplicate(name)
        continue
      }
      this.byName.set(key, value)
      const words = key.split(' ')
      this.maxWords = Math.max(this.maxWords, words.length)
      for (let i = 1; i <= words.length; i++) this.prefixes.add(words.slice(0, i).join(' '))
    }
  }

  get(name: string): T | undefined {
    return this.byName.get(name.toLowerCase())
  }

  keys(): IterableIterator<string> {
    return this.byName.keys()
  }

  values(): IterableIterator<T> {
    return this.byName.values()
  }

  /**
   * The longest name written at `offset` of `input`: words of letters, digits and `_` separated
   * by one space, compared without case, ending where a word ends. Null when none is.
   */
  match(input: string, offset: number): { readonly length: number; readonly value: T } | null {
    let best: { length: number; value: T } | null = null
    let pos = offset
    let key = ''
    for (let words = 0; words < this.maxWords; words++) {
      const start = pos
      while (pos < input.length && isWordChar(input.charCodeAt(pos))) pos++
      if (pos === start) break
      key += (words > 0 ? ' ' : '') + input.slice(start, pos).toLowerCase()
      if (!this.prefixes.has(key)) break
      const found = this.byName.get(key)
      if (found !== undefined) best = { length: pos - offset, value: found }
      if (input.charCodeAt(pos) !== 32 || !isWordChar(input.charCodeAt(pos + 1))) break
      pos++
    }
    return best
  }
}
