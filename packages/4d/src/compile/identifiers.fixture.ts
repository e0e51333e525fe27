/**
 * @module The names a generated function uses, read with the TypeScript compiler's parser (acorn,
 * which research §8.9 names, is not a dependency here): every identifier that is not a property
 * name, and which of them it declares. The security tests require that all are the compiler's
 * own (`v3`, `t0`, the parameters…) and that the only free ones are the parameters — so that
 * generated code reaches nothing but `rt` and its arguments, whatever the 4D text was.
 */
import ts from 'typescript'
import { PARAMETERS } from './emit/context.js'

export interface Identifiers {
  /** Every identifier read or written (property names after `.` and object keys excluded). */
  readonly used: ReadonlySet<string>
  /** Those the source declares (let, function parameters, catch). */
  readonly declared: ReadonlySet<string>
  /** Syntax errors the parser found. */
  readonly errors: readonly string[]
}

export function identifiersOf(body: string): Identifiers {
  const source = ts.createSourceFile(
    'generated.js',
    `function generated(${PARAMETERS.join(', ')}) {\n${body}\n}`,
    ts.ScriptTarget.ES2022,
    true,
    ts.ScriptKind.JS,
  )
  const used = new Set<string>()
  const declared = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent
      const isPropertyName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node)
      const isDeclaration =
        (ts.isVariableDeclaration(parent) ||
          ts.isParameter(parent) ||
          ts.isFunctionDeclaration(parent)) &&
        parent.name === node
      if (isDeclaration) declared.add(node.text)
      else if (!isPropertyName) used.add(node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  declared.delete('generated')
  const diagnostics = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics
  const errors = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
  return { used, declared, errors }
}

/** The names the compiler may invent (context.ts). */
export const COMPILER_NAME = /^(?:rt|th|ag|cx|df|ln|[vtlces]\d+)$/

/** What is wrong with a generated body: syntax errors, names not the compiler's, free names. */
export function problemsOf(body: string): string[] {
  const { used, declared, errors } = identifiersOf(body)
  const problems = errors.map((e) => `syntax: ${e}`)
  for (const name of [...used, ...declared])
    if (!COMPILER_NAME.test(name)) problems.push(`a name that is not the compiler's: ${name}`)
  const params = new Set<string>(PARAMETERS)
  for (const name of used)
    if (!declared.has(name) && !params.has(name)) problems.push(`a free name: ${name}`)
  return problems
}
