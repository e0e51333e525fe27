/**
 * @module A compact text form of expressions for tests: `(+ 3 4)`, `$a`, `<Length:C16 "x">`, so
 * that a test states a tree's shape in one line.
 */
import type { ExprNode } from '../ast/expressions.js'

export function sexp(node: ExprNode): string {
  const list = (items: readonly ExprNode[] | null) =>
    items === null ? '' : ' ' + items.map(sexp).join(' ')
  switch (node.kind) {
    case 'Number':
      return node.raw
    case 'Text':
      return JSON.stringify(node.value)
    case 'Local':
      return '$' + node.name
    case 'Param':
      return '$' + node.index
    case 'Name':
      return node.name
    case 'Bool':
      return String(node.value)
    case 'Null':
      return 'null'
    case 'This':
      return 'This'
    case 'Time':
    case 'Date':
      return node.raw
    case 'Binary':
    case 'AndOr':
      return `(${node.op} ${sexp(node.left)} ${sexp(node.right)})`
    case 'Unary':
      return `(${node.op} ${sexp(node.operand)})`
    case 'Ternary':
      return `(? ${sexp(node.test)} ${sexp(node.consequent)} ${sexp(node.alternate)})`
    case 'Member':
      return `${sexp(node.object)}.${node.name}`
    case 'Call':
      return `(call ${sexp(node.callee)}${list(node.args)})`
    case 'Command':
      return `<${node.name}${node.tokenized ? `:C${node.number}` : ''}${list(node.args)}>`
    case 'Constant':
      return `{${node.name}${node.theme === null ? '' : `:K${node.theme}:${node.index}`}}`
    case 'MethodCall':
      return `(${node.name}${list(node.args)})`
    case 'ObjectLiteral':
      return `{${node.props.map((p) => `${p.key}: ${sexp(p.value)}`).join('; ')}}`
    case 'CollectionLiteral':
      return `[${node.items.map(sexp).join('; ')}]`
    default:
      return node.kind
  }
}
