/**
 * @module The node factories: the only way nodes are made (the grammar's actions call them). Each
 * returns a frozen node whose arrays are frozen copies, `kind` first and `loc` last, so a node
 * prints in the same order everywhere (golden files, messages).
 */
import type { ExprNode } from './expressions.js'
import type * as E from './expressions.js'
import type * as F from './files.js'
import type { Loc } from './loc.js'
import type * as S from './statements.js'

/** Every node of the 4D AST. */
export type Node =
  | F.FileNode
  | F.ExtendsNode
  | F.ClassMemberNode
  | S.StatementNode
  | S.CaseBranchNode
  | S.TypeRefNode
  | S.ParamDeclNode
  | S.ResultDeclNode
  | ExprNode
  | E.PropNode

export type NodeKind = Node['kind']

/** The node of one kind. */
export type NodeOf<K extends NodeKind> = Extract<Node, { readonly kind: K }>

/** What a factory takes besides the loc: the node's own fields. */
export type NodeProps<K extends NodeKind> = Omit<NodeOf<K>, 'kind' | 'loc'>

function make<K extends NodeKind>(kind: K): (props: NodeProps<K>, loc: Loc) => NodeOf<K> {
  return (props, loc) => {
    const node: Record<string, unknown> = { kind }
    const fields = props as Record<string, unknown>
    for (const key in fields) {
      const value = fields[key]
      node[key] = Array.isArray(value) ? Object.freeze(value.slice()) : value
    }
    node.loc = loc
    return Object.freeze(node) as unknown as NodeOf<K>
  }
}

/** The factories, one per kind: `Ast.binary({ op: '+', left, right }, loc)`. */
export const Ast = {
  // files and class members
  classFile: make('ClassFile'),
  methodFile: make('MethodFile'),
  extends: make('Extends'),
  classConstructor: make('Constructor'),
  property: make('Property'),
  function: make('Function'),
  alias: make('Alias'),
  // declarations
  typeRef: make('TypeRef'),
  paramDecl: make('ParamDecl'),
  resultDecl: make('ResultDecl'),
  var: make('Var'),
  declare: make('Declare'),
  // statements
  assign: make('Assign'),
  exprStmt: make('ExprStmt'),
  return: make('Return'),
  break: make('Break'),
  continue: make('Continue'),
  throw: make('Throw'),
  unparsed: make('Unparsed'),
  embeddedSql: make('EmbeddedSql'),
  if: make('If'),
  caseBranch: make('CaseBranch'),
  caseOf: make('CaseOf'),
  for: make('For'),
  forEach: make('ForEach'),
  while: make('While'),
  repeat: make('Repeat'),
  try: make('Try'),
  use: make('Use'),
  // literals
  text: make('Text'),
  number: make('Number'),
  date: make('Date'),
  time: make('Time'),
  bool: make('Bool'),
  null: make('Null'),
  // variables and access
  local: make('Local'),
  name: make('Name'),
  interprocessVar: make('InterprocessVar'),
  param: make('Param'),
  indirectParam: make('IndirectParam'),
  member: make('Member'),
  index: make('Index'),
  arrayElement: make('ArrayElement'),
  charAt: make('CharAt'),
  field: make('Field'),
  table: make('Table'),
  pointerTo: make('PointerTo'),
  deref: make('Deref'),
  // calls
  call: make('Call'),
  methodCall: make('MethodCall'),
  command: make('Command'),
  constant: make('Constant'),
  // operators
  binary: make('Binary'),
  unary: make('Unary'),
  andOr: make('AndOr'),
  ternary: make('Ternary'),
  // literal objects and collections
  prop: make('Prop'),
  objectLiteral: make('ObjectLiteral'),
  collectionLiteral: make('CollectionLiteral'),
  // classes and stores
  this: make('This'),
  super: make('Super'),
  classStore: make('ClassStore'),
  ds: make('Ds'),
  formula: make('Formula'),
  tryExpr: make('TryExpr'),
  symbolArg: make('SymbolArg'),
} as const satisfies { readonly [name: string]: (props: never, loc: Loc) => Node }
