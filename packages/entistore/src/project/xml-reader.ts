/**
 * @module A small, strict XML reader for 4D's structure file (catalog.4DCatalog): elements,
 * attributes, character and entity references, CDATA, comments, processing instructions and a
 * DOCTYPE (skipped). Every element and attribute keeps its line and column, so that a mistake
 * found later (an unknown type code) names the place in the file as an editor shows it.
 *
 * Written here rather than taken from npm: the structure file is simple XML, and a reader that
 * refuses what is not well-formed (a truncated file, a tag closed by another name) is what lets
 * `serve --project` stop with one line instead of serving half a structure. No namespaces, no
 * external entities, no DTD validation: 4D's structure uses none of them.
 */

/** A place in the text: 1-based line and column, as editors count them. */
export interface XmlPlace {
  readonly line: number
  readonly column: number
}

export interface XmlAttribute extends XmlPlace {
  readonly value: string
}

export interface XmlElement extends XmlPlace {
  readonly name: string
  readonly attributes: ReadonlyMap<string, XmlAttribute>
  readonly children: readonly XmlElement[]
  /** The element's own text (character data and CDATA), children's text left out. */
  readonly text: string
}

/** Text that is not well-formed XML, with the place of the mistake. */
export class XmlSyntaxError extends Error {
  override readonly name = 'XmlSyntaxError'
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message)
  }
}

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
}

// XML's name characters, closely enough for a structure file: letters of any script, digits,
// `_`, `:`, `-` and `.` (not first).
const NAME_START = /[\p{L}_:]/u
const NAME_CHAR = /[\p{L}\p{N}_:.\-\u00B7]/u

class Reader {
  #at = 0
  // Where each line starts: a place is found by a binary search, for any offset, at any time
  // (an entity reference is decoded after the reader has moved past it).
  readonly #lineStarts: number[] = [0]

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1))
      this.#lineStarts.push(i + 1)
  }

  get done(): boolean {
    return this.#at >= this.text.length
  }

  get offset(): number {
    return this.#at
  }

  place(at = this.#at): XmlPlace {
    const starts = this.#lineStarts
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid]! <= at) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: at - starts[lo]! + 1 }
  }

  fail(message: string, at = this.#at): never {
    const { line, column } = this.place(at)
    throw new XmlSyntaxError(message, line, column)
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.#at)
  }

  peek(): string {
    return this.text[this.#at] ?? ''
  }

  advance(n: number): void {
    this.#at = Math.min(this.#at + n, this.text.length)
  }

  /** The text up to `end` (left out), moved past it; `what` names the construct when it never ends. */
  until(end: string, what: string, from: number): string {
    const i = this.text.indexOf(end, this.#at)
    if (i < 0) this.fail(`${what} is not closed: the file ends inside it`, from)
    const out = this.text.slice(this.#at, i)
    this.#at = i + end.length
    return out
  }

  skipSpace(): boolean {
    const start = this.#at
    while (!this.done && /\s/.test(this.peek())) this.#at++
    return this.#at > start
  }

  expect(s: string, what: string): void {
    if (!this.startsWith(s))
      this.fail(this.done ? `the file ends where ${what} was expected` : `expected ${what}`)
    this.#at += s.length
  }

  readName(what: string): string {
    const start = this.#at
    if (!NAME_START.test(this.peek())) this.fail(`expected ${what}`)
    this.#at++
    while (!this.done && NAME_CHAR.test(this.peek())) this.#at++
    return this.text.slice(start, this.#at)
  }
}

/** Replaces `&name;` and `&#N;` references in `raw`, read at `from` (for the error's place). */
function decode(raw: string, r: Reader, from: number): string {
  if (!raw.includes('&')) return raw
  return raw.replace(/&([^;&\s]*);?/g, (whole, ref: string, offset: number) => {
    const at = from + offset
    if (!whole.endsWith(';')) r.fail(`"&" must start a reference such as &amp; (got ${whole})`, at)
    if (ref.startsWith('#')) {
      const code = /^#x[0-9a-fA-F]+$/.test(ref)
        ? parseInt(ref.slice(2), 16)
        : /^#\d+$/.test(ref)
          ? parseInt(ref.slice(1), 10)
          : NaN
      if (!Number.isFinite(code) || code > 0x10ffff || code === 0)
        r.fail(`invalid character reference ${whole}`, at)
      return String.fromCodePoint(code)
    }
    const known = PREDEFINED[ref]
    if (known === undefined)
      r.fail(`unknown entity ${whole} (XML knows &lt; &gt; &amp; &quot; &apos;)`, at)
    return known
  })
}

/** Comments, processing instructions and a DOCTYPE, wherever markup may be: skipped. */
function skipMisc(r: Reader, allowDoctype: boolean): boolean {
  const from = r.offset
  if (r.startsWith('<!--')) {
    r.advance(4)
    r.until('-->', 'a comment', from)
    return true
  }
  if (r.startsWith('<?')) {
    r.advance(2)
    r.until('?>', 'a processing instruction', from)
    return true
  }
  if (!r.startsWith('<!DOCTYPE')) return false
  if (!allowDoctype) r.fail('a DOCTYPE is allowed only before the root element')
  r.advance(9)
  // An internal subset `[ … ]` may hold `>`: skipped whole, then the closing `>`.
  let depth = 0
  for (;;) {
    if (r.done) r.fail('the DOCTYPE is not closed: the file ends inside it', from)
    const c = r.peek()
    r.advance(1)
    if (c === '[') depth++
    else if (c === ']') depth--
    else if (c === '>' && depth <= 0) return true
  }
}

/** Reads a start tag's attributes into `into`, up to `>` (an element with content) or `/>`. */
function readAttributes(r: Reader, into: Map<string, XmlAttribute>): 'open' | 'empty' {
  for (;;) {
    const spaced = r.skipSpace()
    if (r.startsWith('/>')) {
      r.advance(2)
      return 'empty'
    }
    if (r.startsWith('>')) {
      r.advance(1)
      return 'open'
    }
    if (r.done) r.fail('the file ends inside a tag: it is truncated')
    if (!spaced) r.fail('expected a space, ">" or "/>" after an attribute')
    const at = r.offset
    const name = r.readName('an attribute name')
    if (into.has(name)) r.fail(`the attribute "${name}" is given twice`, at)
    r.skipSpace()
    r.expect('=', `"=" after the attribute "${name}"`)
    r.skipSpace()
    const quote = r.peek()
    if (quote !== '"' && quote !== "'") r.fail(`the value of "${name}" must be in quotes`)
    r.advance(1)
    const from = r.offset
    const raw = r.until(quote, `the value of "${name}"`, at)
    const lt = raw.indexOf('<')
    if (lt >= 0) r.fail(`"<" cannot be in the value of "${name}" (write &lt;)`, from + lt)
    // Attribute-value normalization: a tab or line break in the value reads as a space.
    into.set(name, { value: decode(raw, r, from).replace(/[\t\n\r]/g, ' '), ...r.place(at) })
  }
}

/** Reads the XML document `text`: its root element. @throws XmlSyntaxError */
export function parseXml(text: string): XmlElement {
  const r = new Reader(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  while (!r.done && (r.skipSpace() || skipMisc(r, true)));
  if (r.done) r.fail('the file holds no element')
  if (!r.startsWith('<')) r.fail('expected "<": text before the root element')
  const root = readElement(r)
  while (!r.done && (r.skipSpace() || skipMisc(r, false)));
  if (!r.done) r.fail('only one root element is allowed: text or markup after it')
  return root
}

interface Building extends XmlPlace {
  readonly name: string
  readonly attributes: Map<string, XmlAttribute>
  readonly children: XmlElement[]
  text: string
}

/** Reads the root element from its `<`: its content and end tag included, nested ones in a loop. */
function readElement(r: Reader): XmlElement {
  const stack: Building[] = []
  let root: XmlElement | undefined
  const finish = (el: Building): void => {
    const done: XmlElement = Object.freeze({ ...el, children: Object.freeze(el.children) })
    const parent = stack.at(-1)
    if (parent) parent.children.push(done)
    else root = done
  }
  const open = (): void => {
    const place = r.place()
    r.advance(1)
    const name = r.readName('an element name after "<"')
    const el: Building = { name, ...place, attributes: new Map(), children: [], text: '' }
    if (readAttributes(r, el.attributes) === 'empty') finish(el)
    else stack.push(el)
  }
  open()
  while (stack.length > 0) {
    const current = stack.at(-1)!
    if (r.done)
      r.fail(
        `the file ends inside <${current.name}> (opened at line ${current.line}, column ${current.column}): it is truncated`,
      )
    if (r.startsWith('</')) {
      const at = r.offset
      r.advance(2)
      const name = r.readName('an element name after "</"')
      r.skipSpace()
      r.expect('>', `">" to end </${name}`)
      if (name !== current.name)
        r.fail(
          `</${name}> closes <${current.name}> (opened at line ${current.line}, column ${current.column})`,
          at,
        )
      stack.pop()
      finish(current)
    } else if (r.startsWith('<![CDATA[')) {
      const from = r.offset
      r.advance(9)
      current.text += r.until(']]>', 'a CDATA section', from)
    } else if (r.startsWith('<!--') || r.startsWith('<?')) skipMisc(r, false)
    else if (r.startsWith('<!')) r.fail('a declaration is not allowed inside an element')
    else if (r.startsWith('<')) open()
    else {
      const from = r.offset
      const end = r.text.indexOf('<', from)
      const raw = r.text.slice(from, end < 0 ? r.text.length : end)
      const bad = raw.indexOf(']]>')
      if (bad >= 0) r.fail('"]]>" cannot be in text', from + bad)
      current.text += decode(raw, r, from)
      r.advance(raw.length)
    }
  }
  return root!
}
