/**
 * @module Walking the 4D AST. `childrenOf` is the one place that knows which fields of each kind
 * hold nodes: an exhaustive `switch (node.kind)` whose `never` default makes a new kind fail to
 * compile until it is listed here. Passes build on it (`walk`), or write their own exhaustive
 * switch when they treat each kind differently.
 */
import type { Node } from './nodes.js'

/** Adds the nodes among `items` (null for an absent optional child) to `out`. */
function push(out: Node[], ...items: readonly (Node | readonly Node[] | null)[]): Node[] {
  for (const item of items) {
    if (item === null) continue
    if (Array.isArray(item)) out.push(...(item as readonly Node[]))
    else out.push(item as Node)
  }
  return out
}

/** The direct children of a node, in source order. */
export function childrenOf(node: Node): readonly Node[] {
  const out: Node[] = []
  switch (node.kind) {
    case 'ClassFile':
      return push(out, node.extends, node.members)
    case 'MethodFile':
      return push(out, node.body)
    case 'Extends':
      return push(out, node.superclass)
    case 'Constructor':
      return push(out, node.params, node.body)
    case 'Property':
      return push(out, node.type, node.init)
    case 'Function':
      return push(out, node.params, node.result, node.body)
    case 'ParamDecl':
    case 'ResultDecl':
      return push(out, node.type)
    case 'Var':
      return push(out, node.names, node.type, node.init)
    case 'Declare':
      return push(out, node.params, node.result)
    case 'Assign':
      return push(out, node.target, node.value)
    case 'ExprStmt':
      return push(out, node.expr)
    case 'Return':
      return push(out, node.value)
    case 'Throw':
      return push(out, node.args)
    case 'If':
      return push(out, node.test, node.then, node.else)
    case 'CaseBranch':
      return push(out, node.test, node.body)
    case 'CaseOf':
      return push(out, node.branches, node.else)
    case 'For':
      return push(out, node.counter, node.start, node.end, node.step, node.body)
    case 'ForEach':
      return push(
        out,
        node.item,
        node.source,
        node.begin,
        node.end,
        node.until,
        node.while,
        node.body,
      )
    case 'While':
      return push(out, node.test, node.body)
    case 'Repeat':
      return push(out, node.body, node.until)
    case 'Try':
      return push(out, node.body, node.catch)
    case 'Use':
      return push(out, node.target, node.body)
    case 'IndirectParam':
      return push(out, node.index)
    case 'Member':
      return push(out, node.object)
    case 'Index':
      return push(out, node.object, node.index)
    case 'ArrayElement':
      return push(out, node.array, node.index)
    case 'CharAt':
      return push(out, node.text, node.index)
    case 'PointerTo':
      return push(out, node.target)
    case 'Deref':
      return push(out, node.pointer)
    case 'Call':
      return push(out, node.callee, node.args)
    case 'MethodCall':
      return push(out, node.args)
    case 'Command':
    case 'Super':
    case 'Ds':
      return push(out, node.args)
    case 'Binary':
    case 'AndOr':
      return push(out, node.left, node.right)
    case 'Unary':
      return push(out, node.operand)
    case 'Ternary':
      return push(out, node.test, node.consequent, node.alternate)
    case 'Prop':
      return push(out, node.value)
    case 'ObjectLiteral':
      return push(out, node.props)
    case 'CollectionLiteral':
      return push(out, node.items)
    case 'Formula':
    case 'TryExpr':
      return push(out, node.body)
    case 'Alias':
    case 'TypeRef':
    case 'Break':
    case 'Continue':
    case 'Unparsed':
    case 'EmbeddedSql':
    case 'Text':
    case 'Number':
    case 'Date':
    case 'Time':
    case 'Bool':
    case 'Null':
    case 'Local':
    case 'Name':
    case 'InterprocessVar':
    case 'Param':
    case 'Field':
    case 'Table':
    case 'Constant':
    case 'This':
    case 'ClassStore':
    case 'SymbolArg':
      return out
    default: {
      const unknown: never = node
      throw new Error(`childrenOf: unknown node kind ${(unknown as Node).kind}`)
    }
  }
}

/**
 * Visits `node` and its descendants depth-first in source order. `visit` may return false to skip
 * a node's children (a pass that handles a whole subtree itself). Iterative, so that a deep tree
 * (a long chain of operators) cannot exhaust the stack.
 */
export function walk(node: Node, visit: (node: Node, parent: Node | null) => boolean | void): void {
  const stack: [Node, Node | null][] = [[node, null]]
  while (stack.length > 0) {
    const [current, parent] = stack.pop()!
    if (visit(current, parent) === false) continue
    const children = childrenOf(current)
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, current])
  }
}
