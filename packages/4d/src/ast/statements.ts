/**
 * @module The statement nodes of the 4D AST (one 4D line, or one block from its opening keyword to
 * its `End …`), the declarations they use (`var`, `#DECLARE`, parameters, types), and `Unparsed`:
 * a statement that did not parse keeps its text and the parser's message, so that it fails when it
 * is reached, as in 4D's interpreter, instead of the whole file failing.
 */
import type {
  AssignableNode,
  AssignNode,
  ExprNode,
  LocalNode,
  NameNode,
  IndirectParamNode,
  InterprocessVarNode,
  ParamNode,
} from './expressions.js'
import type { Loc, Position } from './loc.js'

interface Base<K extends string> {
  readonly kind: K
  readonly loc: Loc
}

// ---- Types and declarations -------------------------------------------------------------------

/**
 * A type as written after `:`: `Text`, `Integer`, `Object`, `Collection`, `Variant`… (`path` of
 * one name, in the case written: 4D's type names are case-insensitive), or a class: `cs.Employee`
 * (`['cs', 'Employee']`), `cs.comp.Class`, `4D.File` (`['4D', 'File']`; `4D:C1709.File` too).
 */
export interface TypeRefNode extends Base<'TypeRef'> {
  readonly path: readonly string[]
}

/**
 * One declared parameter: `$name : Type` (`type` null when untyped: a Variant), or the variadic
 * `... : Type` of 4D 20 (`name` null, `variadic` true): the parameters past the named ones.
 */
export interface ParamDeclNode extends Base<'ParamDecl'> {
  readonly name: string | null
  readonly type: TypeRefNode | null
  readonly variadic: boolean
}

/** The result of a function or `#DECLARE`: `-> $r : Type` (`name` "r") or `: Type` (`name` null). */
export interface ResultDeclNode extends Base<'ResultDecl'> {
  readonly name: string | null
  readonly type: TypeRefNode | null
}

/** A name that `var` declares: a local `$x`, a process variable `x` or an interprocess `<>x`. */
export type VarNameNode = LocalNode | NameNode | InterprocessVarNode | ParamNode | IndirectParamNode

/**
 * `var $a, $b : Text` (`,` or `;` between names), `var $c : cs.Employee`, `var $x:=expr`,
 * `var $n : Integer := 5`; `var $0; $2 : Integer` types numbered parameters, `var ${2} : Text`
 * those from the second on.
 */
export interface VarNode extends Base<'Var'> {
  readonly names: readonly VarNameNode[]
  readonly type: TypeRefNode | null
  readonly init: ExprNode | null
}

/** `#DECLARE($a : Text; $b : Integer) -> $r : Text`: a method's named parameters. */
export interface DeclareNode extends Base<'Declare'> {
  readonly params: readonly ParamDeclNode[]
  readonly result: ResultDeclNode | null
}

// ---- Simple statements -----------------------------------------------------------------------

/** An expression run for its effect: a command (`ALERT("x")`), a call (`$col.push(1)`)… */
export interface ExprStmtNode extends Base<'ExprStmt'> {
  readonly expr: ExprNode
}

/** `return` / `return expr`. */
export interface ReturnNode extends Base<'Return'> {
  readonly value: ExprNode | null
}

export type BreakNode = Base<'Break'>
export type ContinueNode = Base<'Continue'>

/**
 * `throw(errCode; message)`, `throw({errCode: 1; message: "…"})`, or a bare `throw` (in a
 * `Catch` or an error handler: throws the current error again). `args` as written.
 */
export interface ThrowNode extends Base<'Throw'> {
  readonly args: readonly ExprNode[]
}

/**
 * A statement (or a class member) that did not parse: its `text` (the whole logical line, with its
 * continuation lines), the parser's `message` and `at`, the point where the parse failed (inside
 * `loc`). It raises a syntax error when it is reached.
 */
export interface UnparsedNode extends Base<'Unparsed'> {
  readonly text: string
  readonly message: string
  readonly at: Position
}

/**
 * `Begin SQL … End SQL`: 4D's embedded SQL, kept whole (`text`, its lines). It parses, and cannot
 * run here: reported as not runnable, and it raises that when it is reached.
 */
export interface EmbeddedSqlNode extends Base<'EmbeddedSql'> {
  readonly text: string
}

// ---- Blocks ----------------------------------------------------------------------------------

/** `If (test) … Else … End if` (4D has no `Else if`: nested `If`s or `Case of`). */
export interface IfNode extends Base<'If'> {
  readonly test: ExprNode
  readonly then: readonly StatementNode[]
  readonly else: readonly StatementNode[] | null
}

/** One `: (test)` branch of a `Case of`. */
export interface CaseBranchNode extends Base<'CaseBranch'> {
  readonly test: ExprNode
  readonly body: readonly StatementNode[]
}

/** `Case of : (t1) … : (t2) … Else … End case`: the first true branch runs. */
export interface CaseOfNode extends Base<'CaseOf'> {
  readonly branches: readonly CaseBranchNode[]
  readonly else: readonly StatementNode[] | null
}

/** `For (counter; start; end{; step}) … End for`. */
export interface ForNode extends Base<'For'> {
  readonly counter: AssignableNode
  readonly start: ExprNode
  readonly end: ExprNode
  readonly step: ExprNode | null
  readonly body: readonly StatementNode[]
}

/**
 * `For each (item; source{; begin{; end}}) {Until (test) | While (test)} … End for each`: over a
 * collection, an object's property names or an entity selection; `Until` is tested after each
 * pass, `While` before.
 */
export interface ForEachNode extends Base<'ForEach'> {
  readonly item: AssignableNode
  readonly source: ExprNode
  readonly begin: ExprNode | null
  readonly end: ExprNode | null
  readonly until: ExprNode | null
  readonly while: ExprNode | null
  readonly body: readonly StatementNode[]
}

/** `While (test) … End while`. */
export interface WhileNode extends Base<'While'> {
  readonly test: ExprNode
  readonly body: readonly StatementNode[]
}

/** `Repeat … Until (test)`. */
export interface RepeatNode extends Base<'Repeat'> {
  readonly body: readonly StatementNode[]
  readonly until: ExprNode
}

/** `Try … Catch … End try` (`catch` null without a `Catch` part). */
export interface TryNode extends Base<'Try'> {
  readonly body: readonly StatementNode[]
  readonly catch: readonly StatementNode[] | null
}

/** `Use (sharedObject) … End use`. */
export interface UseNode extends Base<'Use'> {
  readonly target: ExprNode
  readonly body: readonly StatementNode[]
}

export type StatementNode =
  | VarNode
  | DeclareNode
  | AssignNode
  | ExprStmtNode
  | ReturnNode
  | BreakNode
  | ContinueNode
  | ThrowNode
  | IfNode
  | CaseOfNode
  | ForNode
  | ForEachNode
  | WhileNode
  | RepeatNode
  | TryNode
  | UseNode
  | UnparsedNode
  | EmbeddedSqlNode
