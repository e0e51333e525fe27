/**
 * @module The code of a `<!--#4DCODE …-->` tag read into a tree of statements
 * (docs/Tags/transformation-tags.md, "4DCODE": "a multi-line 4D code block … interpreted
 * sequentially"): its blocks (`If`…`Else`…`End if`, `Case of`, `While`, `Repeat`…`Until`, `For`,
 * `For each`), `break`, `continue`, `return`, declarations of its locals, and lines.
 *
 * Why the blocks are read here and not by the compiler: the run's compiler of 4D given as text
 * (`compileFormula`) takes an expression or one line (EXECUTE FORMULA's), so a block is run by
 * four-d-tags-run-code.ts, its conditions and each of its other lines compiled on their own.
 * A declaration is read here too: a template's locals are members of the object its code runs
 * with (four-d-tags-source.ts), and `var $x : Text` gives that member its type.
 */
import type { DeclaredType } from '../convert/assign.js'
import { classicDeclarationType, typeNamed } from '../convert/declared-types.js'
import { raise } from '../errors/fourd-error.js'
import { closingParen, codeLines, localName, splitArguments } from './four-d-tags-source.js'

export interface CaseBranch {
  readonly condition: string
  readonly body: readonly CodeNode[]
}

export type CodeNode =
  /** A statement compiled as one line. */
  | { readonly kind: 'line'; readonly code: string }
  /** `var $a; $b : Type {:= value}`, `C_TEXT($a)`: typed locals, given a value or their default. */
  | {
      readonly kind: 'declare'
      readonly names: readonly string[]
      readonly type: DeclaredType
      readonly init: string | null
    }
  /** `If` (one branch) and `Case of` (one a `:`), with what `Else` holds. */
  | {
      readonly kind: 'if'
      readonly branches: readonly CaseBranch[]
      readonly otherwise: readonly CodeNode[]
    }
  | { readonly kind: 'while'; readonly condition: string; readonly body: readonly CodeNode[] }
  | { readonly kind: 'repeat'; readonly body: readonly CodeNode[]; readonly until: string }
  | {
      readonly kind: 'for'
      readonly counter: string
      readonly start: string
      readonly end: string
      readonly step: string | null
      readonly body: readonly CodeNode[]
    }
  | {
      readonly kind: 'forEach'
      readonly item: string
      readonly source: string
      readonly begin: string | null
      readonly end: string | null
      readonly body: readonly CodeNode[]
    }
  | { readonly kind: 'break' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'return' }

const syntax = (detail: string): never => raise('SyntaxError', { detail: `4DCODE: ${detail}` })

/**
 * What the parentheses after `For` or `For each` hold; what follows them (`For each`'s `Until`
 * or `While`) is not read here, and is a syntax error rather than a condition left out.
 */
function callArguments(line: string, keyword: string): string {
  const open = line.indexOf('(')
  const close = closingParen(line, open)
  if (close < 0) return syntax(`${keyword} without its closing parenthesis`)
  if (line.slice(close + 1).trim() !== '')
    syntax(`${keyword} with a condition after its parameters is not supported in 4DCODE`)
  return line.slice(open + 1, close)
}

/** Reads the lines into nodes, block by block. */
class CodeReader {
  #at = 0

  constructor(private readonly lines: readonly string[]) {}

  /** The statements up to a line `ends` matches (left to read) or the end of the code. */
  block(ends: RegExp | null): CodeNode[] {
    const nodes: CodeNode[] = []
    while (this.#at < this.lines.length) {
      const line = this.lines[this.#at]!
      if (ends !== null && ends.test(line)) return nodes
      this.#at++
      nodes.push(this.#statement(line))
    }
    return nodes
  }

  /** The line that closes a block, consumed; a syntax error when the code ends before it. */
  #closing(opener: string, closer: string): string {
    const line = this.lines[this.#at++]
    return line ?? syntax(`${opener} without a matching ${closer}`)
  }

  /** The statement a line starts, by its first words (4D's keywords are written without case). */
  #statement(line: string): CodeNode {
    let m: RegExpExecArray | null
    if ((m = /^If\b\s*([\s\S]*)$/i.exec(line))) {
      const then = this.block(/^(Else|End if)$/i)
      let otherwise: CodeNode[] = []
      if (/^Else$/i.test(this.#closing('If', 'End if'))) {
        otherwise = this.block(/^End if$/i)
        this.#closing('If', 'End if')
      }
      return { kind: 'if', branches: [{ condition: m[1]!, body: then }], otherwise }
    }
    if (/^Case of$/i.test(line)) return this.#caseOf()
    if ((m = /^While\b\s*([\s\S]*)$/i.exec(line))) {
      const body = this.block(/^End while$/i)
      this.#closing('While', 'End while')
      return { kind: 'while', condition: m[1]!, body }
    }
    if (/^Repeat$/i.test(line)) {
      const body = this.block(/^Until\b/i)
      const until = this.#closing('Repeat', 'Until').replace(/^Until\s*/i, '')
      return { kind: 'repeat', body, until }
    }
    if (/^For each\s*\(/i.test(line)) {
      const [item, source, begin, end] = splitArguments(callArguments(line, 'For each'))
      const body = this.block(/^End for each$/i)
      this.#closing('For each', 'End for each')
      if (item === undefined || source === undefined)
        syntax(`For each needs an item and what it loops on`)
      return {
        kind: 'forEach',
        item: item!,
        source: source!,
        begin: begin ?? null,
        end: end ?? null,
        body,
      }
    }
    if (/^For\s*\(/i.test(line)) {
      const [counter, start, end, step] = splitArguments(callArguments(line, 'For'))
      const body = this.block(/^End for$/i)
      this.#closing('For', 'End for')
      if (end === undefined) syntax('For needs a counter, a start and an end')
      return { kind: 'for', counter: counter!, start: start!, end: end!, step: step ?? null, body }
    }
    if (/^break$/i.test(line)) return { kind: 'break' }
    if (/^continue$/i.test(line)) return { kind: 'continue' }
    // A template's block has no result to give: `return` ends the block (its value is dropped).
    if (/^return\b/i.test(line)) return { kind: 'return' }
    if (/^(Else|End if|End case|End while|End for|End for each)$|^Until\b/i.test(line))
      syntax(`${line} without the block it closes`)
    return declaration(line) ?? { kind: 'line', code: line }
  }

  #caseOf(): CodeNode {
    const branches: CaseBranch[] = []
    let otherwise: CodeNode[] = []
    // Lines before the first `:` are skipped, as 4D runs none of them.
    this.block(/^(:|Else$|End case$)/i)
    for (;;) {
      const line = this.#closing('Case of', 'End case')
      if (/^End case$/i.test(line)) break
      if (/^Else$/i.test(line)) {
        otherwise = this.block(/^End case$/i)
        this.#closing('Case of', 'End case')
        break
      }
      const body = this.block(/^(:|Else$|End case$)/i)
      branches.push({ condition: line.slice(1).trim(), body })
    }
    return { kind: 'if', branches, otherwise }
  }
}

/**
 * `var $a; $b : Text {:= value}`, `var $a := value`, `C_TEXT($a; $b)` (tokens allowed:
 * `C_OBJECT:C1216(…)`) over the template's locals; undefined for another line, or a declaration
 * of process variables, which the compiler takes as a line. A parameter's (`C_TEXT($1)`) declares
 * nothing: the parameters are the command's.
 */
function declaration(line: string): CodeNode | undefined {
  const classic = /^(C_[A-Za-z]+)(?::C\d+)?\s*\(([\s\S]*)\)$/i.exec(line)
  if (classic !== null) {
    const type = classicDeclarationType(classic[1]!)
    const names = splitArguments(classic[2]!).filter((n) => !/^\$\d+$/.test(n))
    if (type === undefined || !names.every((n) => localName(n) !== undefined)) return undefined
    return { kind: 'declare', names: names.map((n) => localName(n)!), type, init: null }
  }
  const modern = /^var\s+([^:]+?)\s*(?::(?!=)\s*([^:]+?))?\s*(?::=([\s\S]*))?$/i.exec(line)
  if (modern === null) return undefined
  const names = splitArguments(modern[1]!)
  if (!names.every((n) => localName(n) !== undefined)) return undefined
  const written = modern[2]?.trim()
  const type: DeclaredType | undefined =
    written === undefined ? 'Variant' : /^(cs|4D)\./i.test(written) ? 'Object' : typeNamed(written)
  if (type === undefined) return syntax(`unknown type ${written}`)
  return {
    kind: 'declare',
    names: names.map((n) => localName(n)!),
    type,
    init: modern[3]?.trim() ?? null,
  }
}

/** The statements of a `4DCODE` block; a block left open, or closed twice, is a syntax error. */
export function parseCode(block: string): readonly CodeNode[] {
  const reader = new CodeReader(codeLines(block))
  return reader.block(null)
}

/** The nodes a node holds, for a pass over the whole tree. */
export function codeChildren(node: CodeNode): readonly CodeNode[] {
  switch (node.kind) {
    case 'line':
    case 'declare':
    case 'break':
    case 'continue':
    case 'return':
      return []
    case 'if':
      return [...node.branches.flatMap((b) => b.body), ...node.otherwise]
    case 'while':
    case 'repeat':
    case 'for':
    case 'forEach':
      return node.body
    default: {
      const unknown: never = node
      throw new Error(`four-d-tags-code: unknown node kind ${(unknown as CodeNode).kind}`)
    }
  }
}
