/**
 * @module The lines of a 4D file that run (issue 80: the coverage of a project's tests): the line
 * of each statement, and of each `: (test)` of a `Case of`, as a coverage report lists them. Not a
 * declaration (`#DECLARE`, `var` without a value, `property`), nor the lines that only close or
 * divide a block (`Else`, `End if`), which run nothing of their own.
 */
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import type { Node } from '../ast/index.js'
import { walk } from '../ast/walk.js'

const RUN = new Set([
  'Var',
  'Assign',
  'ExprStmt',
  'Return',
  'Break',
  'Continue',
  'Throw',
  'If',
  'CaseBranch',
  'CaseOf',
  'For',
  'ForEach',
  'While',
  'Repeat',
  'Try',
  'Use',
  'Unparsed',
  'EmbeddedSql',
])

/** The 1-based lines of `ast` that hold code that runs, in order, each once. */
export function executableLines(ast: ClassFileNode | MethodFileNode): number[] {
  const lines = new Set<number>()
  walk(ast as Node, (node) => {
    if (!RUN.has(node.kind)) return
    // A `var` that gives no value declares, and runs nothing.
    if (node.kind === 'Var' && node.init === null) return
    // An unparsed member of a class (a broken `Function` line) is no statement.
    if (node.kind === 'Unparsed' && ast.kind === 'ClassFile' && ast.members.includes(node as never))
      return
    lines.add(node.loc.start.line)
  })
  return [...lines].sort((a, b) => a - b)
}
