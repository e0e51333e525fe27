/**
 * @module Parsing a 4D source file: `parse4d(text, { file })` gives the file's AST (a class file
 * under a `Classes/` folder, else a method file) and its problems, one a line that did not parse.
 * Parsing never throws on bad 4D code: each bad line is an `Unparsed` node in its place.
 */
import type { ExprNode } from '../ast/expressions.js'
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import { toLoc, type Position } from '../ast/loc.js'
import { Ast, type Node } from '../ast/nodes.js'
import { walk } from '../ast/walk.js'
import { explainLine, type LineContext } from './explain.js'
import { NameTable } from './name-table.js'
import { parse, SyntaxError as ParseError } from './generated/4d-parser.js'

export interface ParseProblem {
  readonly line: number
  readonly column: number
  readonly message: string
}

export interface Parse4dOptions {
  /** The file's path, as the AST and errors name it (`Project/Sources/Classes/Car.4dm`). */
  readonly file: string
  /** Class or method file; by default a file in a `Classes` folder is a class. */
  readonly kind?: 'class' | 'method'
  /** The project's methods whose names contain a space (`projectMethodNames`), which then parse. */
  readonly methods?: NameTable<string>
}

/** The table `parse4d` takes of a project's method names: those with a space (others need none). */
export function projectMethodNames(names: Iterable<string>): NameTable<string> {
  return new NameTable([...names].filter((n) => n.includes(' ')).map((n) => [n, n] as const))
}

export interface Parse4dResult<
  F extends ClassFileNode | MethodFileNode = ClassFileNode | MethodFileNode,
> {
  readonly file: F
  readonly problems: readonly ParseProblem[]
}

const isClassPath = (file: string): boolean => /(^|[\\/])Classes[\\/][^\\/]+$/.test(file)

export function parse4d(text: string, options: Parse4dOptions): Parse4dResult {
  const kind = options.kind ?? (isClassPath(options.file) ? 'class' : 'method')
  const { methods } = options
  const parserOptions = {
    file: options.file,
    methods,
    explain: (text: string, start: Position, context: LineContext) =>
      explainLine(text, start, context, methods),
  }
  let file: ClassFileNode | MethodFileNode
  try {
    file =
      kind === 'class'
        ? parse(text, { ...parserOptions, startRule: 'ClassFile' })
        : parse(text, { ...parserOptions, startRule: 'MethodFile' })
  } catch (error) {
    file = unparsedFile(text, options.file, kind, error)
  }
  return { file, problems: problemsOf(file) }
}

/**
 * The whole file as one unparsed statement, when the parse of the file stops: code nested deeper
 * than the grammar's bounds (its message says so), or a stack exhausted by input no 4D code is.
 */
function unparsedFile(
  text: string,
  file: string,
  kind: 'class' | 'method',
  error: unknown,
): ClassFileNode | MethodFileNode {
  if (!(error instanceof ParseError) && !(error instanceof RangeError)) throw error
  const lines = text.split(/\r\n|\r|\n/)
  const end = {
    line: lines.length,
    column: lines[lines.length - 1]!.length + 1,
    offset: text.length,
  }
  const loc = toLoc({ start: { line: 1, column: 1, offset: 0 }, end })
  const at = error instanceof ParseError ? toLoc(error.location).start : loc.start
  const message =
    error instanceof ParseError ? error.message : 'The file is nested too deeply to be parsed'
  const whole = Ast.unparsed({ text, message, at }, loc)
  return kind === 'class'
    ? Ast.classFile({ file, extends: null, members: [whole] }, loc)
    : Ast.methodFile({ file, body: [whole] }, loc)
}

/** The problems of a parsed tree: its `Unparsed` nodes, in source order. */
export function problemsOf(root: Node): readonly ParseProblem[] {
  const problems: ParseProblem[] = []
  walk(root, (node) => {
    if (node.kind === 'Unparsed')
      problems.push({ line: node.at.line, column: node.at.column, message: node.message })
  })
  return problems
}

/** One 4D expression alone (tests and tools); throws the parser's SyntaxError when it does not parse. */
export function parseExpression(text: string): ExprNode {
  return parse(text, { startRule: 'Expression', explain: explainLine })
}
