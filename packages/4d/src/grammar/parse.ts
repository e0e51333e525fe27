/**
 * @module Parsing a 4D source file: `parse4d(text, { file })` gives the file's AST (a class file
 * under a `Classes/` folder, else a method file) and its problems, one a line that did not parse.
 * Parsing never throws on bad 4D code: each bad line is an `Unparsed` node in its place.
 */
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import type { Node } from '../ast/nodes.js'
import { walk } from '../ast/walk.js'
import { explainLine } from './explain.js'
import { parse } from './generated/4d-parser.js'

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
  const parserOptions = { file: options.file, explain: explainLine }
  const file =
    kind === 'class'
      ? parse(text, { ...parserOptions, startRule: 'ClassFile' })
      : parse(text, { ...parserOptions, startRule: 'MethodFile' })
  return { file, problems: problemsOf(file) }
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
