/**
 * @module The 4D AST: kind-tagged, frozen nodes with a `loc`, made by the factories of `Ast` (the
 * grammar's actions) and walked through `childrenOf`/`walk`.
 */
export type * from './expressions.js'
export type * from './statements.js'
export type * from './files.js'
export type { Loc, Position } from './loc.js'
export { toLoc, formatLoc } from './loc.js'
export { Ast, type Node, type NodeKind, type NodeOf, type NodeProps } from './nodes.js'
export { childrenOf, walk } from './walk.js'
