/**
 * @module The expression nodes of the 4D AST: literals, variables and parameters, member and index
 * access, calls of commands, methods and class functions, and the operators.
 *
 * The AST is purely syntactic: a bare identifier is a `Name` (a process variable, or a project
 * method called without arguments) until the compiler resolves it against the project; a command
 * is recognised by its name (the table in grammar/command-names.ts) or its token (`Length:C16`),
 * and left for the compiler to implement or to name as not runnable. Names keep the case they
 * were written in (4D's variable and command names are case-insensitive; the compiler folds them).
 */
import type { Loc } from './loc.js'

interface Base<K extends string> {
  readonly kind: K
  readonly loc: Loc
}

// ---- Literals ---------------------------------------------------------------------------------

/** `"text"`, escapes decoded (`\"`, `\\`, `\t`, `\r`, `\n`). */
export interface TextNode extends Base<'Text'> {
  readonly value: string
}

/** `12`, `1.5`, `1e3`, `0xFF`: `raw` as written, so that the compiler can tell `5` from `5.0`. */
export interface NumberNode extends Base<'Number'> {
  readonly value: number
  readonly raw: string
}

/** `!2020-01-15!` (ISO order; `!00-00-00!` is the null date, all three fields 0). */
export interface DateNode extends Base<'Date'> {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly raw: string
}

/** `?10:20:30?`: the seconds since midnight (a time may pass 24 hours or be negative). */
export interface TimeNode extends Base<'Time'> {
  readonly seconds: number
  readonly raw: string
}

/** `True` / `False` (4D's commands 214 and 215, tokenized or not). */
export interface BoolNode extends Base<'Bool'> {
  readonly value: boolean
}

/** `Null` (command 1517). */
export type NullNode = Base<'Null'>

// ---- Variables and parameters ----------------------------------------------------------------

/** A local variable `$name` (`name` without the `$`); `$0`, `$1`… are `Param`. */
export interface LocalNode extends Base<'Local'> {
  readonly name: string
}

/**
 * A bare identifier that is neither a known command nor a keyword: a process variable, or a
 * project method called without parentheses. The compiler decides from the project's methods.
 */
export interface NameNode extends Base<'Name'> {
  readonly name: string
}

/** An interprocess variable `<>name` (`name` without the `<>`). */
export interface InterprocessVarNode extends Base<'InterprocessVar'> {
  readonly name: string
}

/** A numbered parameter of the classic syntax: `$0` (the result), `$1`, `$2`… */
export interface ParamNode extends Base<'Param'> {
  readonly index: number
}

/** `${expr}`: the parameter whose number the expression gives (variadic methods). */
export interface IndirectParamNode extends Base<'IndirectParam'> {
  readonly index: ExprNode
}

// ---- Access ---------------------------------------------------------------------------------

/** `object.name` (object notation). */
export interface MemberNode extends Base<'Member'> {
  readonly object: ExprNode
  readonly name: string
}

/** `object["key"]` or `collection[0]`: which one is known at run time only. */
export interface IndexNode extends Base<'Index'> {
  readonly object: ExprNode
  readonly index: ExprNode
}

/** `array{n}`: an element of a (classic) array; `{0}` is the element 0. */
export interface ArrayElementNode extends Base<'ArrayElement'> {
  readonly array: ExprNode
  readonly index: ExprNode
}

/** `text[[n]]`: the character at position n (from 1). */
export interface CharAtNode extends Base<'CharAt'> {
  readonly text: ExprNode
  readonly index: ExprNode
}

/** `[Table]Field` (the classic language's field reference). */
export interface FieldNode extends Base<'Field'> {
  readonly table: string
  readonly field: string
}

/** `[Table]` alone (a table reference, as commands such as `ALL RECORDS([Table])` take it). */
export interface TableNode extends Base<'Table'> {
  readonly table: string
}

/** `->expr`: a pointer to a variable, field, table or array element. */
export interface PointerToNode extends Base<'PointerTo'> {
  readonly target: ExprNode
}

/** `expr->`: what a pointer points to. */
export interface DerefNode extends Base<'Deref'> {
  readonly pointer: ExprNode
}

// ---- Calls ----------------------------------------------------------------------------------

/** `callee(args)` where the callee is a member (`$o.f(1)`, `cs.Car.new()`, `$f.call()`). */
export interface CallNode extends Base<'Call'> {
  readonly callee: ExprNode
  readonly args: readonly ExprNode[]
}

/** `name(args)`: a project method (or a component's) called with parentheses. */
export interface MethodCallNode extends Base<'MethodCall'> {
  readonly name: string
  readonly args: readonly ExprNode[]
}

/**
 * A 4D command: `Length("a")`, `Length:C16("a")`, `Current date`, `New object("a";1)`. `name` is
 * as written (without the token), `number` the command's number (from the token when tokenized,
 * else from the table of names), `args` null when written without parentheses.
 */
export interface CommandNode extends Base<'Command'> {
  readonly name: string
  readonly number: number
  readonly tokenized: boolean
  readonly args: readonly ExprNode[] | null
}

/**
 * A 4D constant: `Is text`, `Is text:K8:3`. `theme` and `index` come from the token (`Kn:m`) when
 * tokenized and are null otherwise; the compiler finds the value by either.
 */
export interface ConstantNode extends Base<'Constant'> {
  readonly name: string
  readonly theme: number | null
  readonly index: number | null
}

// ---- Operators ------------------------------------------------------------------------------

/**
 * The binary operators. 4D evaluates them strictly left to right, all of one rank (`3+4*5` is 35,
 * `$a>1+$i` is `($a>1)+$i`): the grammar folds them left and only parentheses group.
 */
export type BinaryOp =
  | '+'
  | '-'
  | '*'
  | '/'
  | '\\' // integer division
  | '%' // modulo (numbers), contains keyword (texts)
  | '^' // exponent
  | '=' // equal (texts: case- and accent-insensitive, `@` wildcard)
  | '#' // not equal
  | '<'
  | '>'
  | '<='
  | '>='
  | '&' // logical AND (both sides evaluated) or bitwise AND on integers
  | '|' // logical OR or bitwise OR
  | '^|' // bitwise exclusive OR
  | '<<' // left bit shift
  | '>>' // right bit shift
  | '?+' // bit set
  | '?-' // bit clear
  | '??' // bit test

export interface BinaryNode extends Base<'Binary'> {
  readonly op: BinaryOp
  readonly left: ExprNode
  readonly right: ExprNode
}

/** `-expr` (and `+expr`, which 4D accepts and ignores). Logical not is the command `Not`. */
export interface UnaryNode extends Base<'Unary'> {
  readonly op: '-' | '+'
  readonly operand: ExprNode
}

/** `&&` and `||`: short-circuit, returning one of the operands (truthy/falsy), not a Boolean. */
export interface AndOrNode extends Base<'AndOr'> {
  readonly op: '&&' | '||'
  readonly left: ExprNode
  readonly right: ExprNode
}

/** `test ? consequent : alternate`. */
export interface TernaryNode extends Base<'Ternary'> {
  readonly test: ExprNode
  readonly consequent: ExprNode
  readonly alternate: ExprNode
}

// ---- Literal objects and collections -----------------------------------------------------

/** One `key: value` of an object literal (`key` a property name, or a quoted text: `"a b": 1`). */
export interface PropNode extends Base<'Prop'> {
  readonly key: string
  readonly value: ExprNode
}

/** `{a: 1; b: "x"}` (4D separates the properties with `;`; `,` is accepted as well). */
export interface ObjectLiteralNode extends Base<'ObjectLiteral'> {
  readonly props: readonly PropNode[]
}

/** `[1; 2; 3]` (separated by `;`; `,` is accepted as well). */
export interface CollectionLiteralNode extends Base<'CollectionLiteral'> {
  readonly items: readonly ExprNode[]
}

// ---- Classes and stores ----------------------------------------------------------------------

/** `This` (command 1470): the object a class function was called on. */
export type ThisNode = Base<'This'>

/**
 * `Super` (command 1706): `Super(args)` calls the parent class's constructor (`args` non-null);
 * `Super.f()` is a `Call` of a `Member` of a bare `Super` (`args` null).
 */
export interface SuperNode extends Base<'Super'> {
  readonly args: readonly ExprNode[] | null
}

/** `cs` (command 1710, the user class store) or `4D` (command 1709, the built-in class store). */
export interface ClassStoreNode extends Base<'ClassStore'> {
  readonly store: 'cs' | '4D'
}

/** `ds` (command 1482), the datastore; `ds("localId")` names another one. */
export interface DsNode extends Base<'Ds'> {
  readonly args: readonly ExprNode[] | null
}

/**
 * `Formula(expr)` (command 1597) or `New formula(expr)` (1568): the expression is not evaluated
 * here but becomes a function object; `$1`… inside it are the formula's own parameters. Its body
 * may also be an assignment (`Formula(Form.x:=$1)`), run when the formula is called.
 */
export interface FormulaNode extends Base<'Formula'> {
  readonly command: 'Formula' | 'New formula'
  readonly body: ExprNode | AssignNode
}

/**
 * `Try(expression)` (20 R2): evaluates the expression and returns its value, or undefined when it
 * throws; the error is then in `Last errors` and no handler is called.
 */
export interface TryExprNode extends Base<'TryExpr'> {
  readonly body: ExprNode
}

/**
 * A symbol passed to a command as an argument, not a value: `*` (`OBJECT SET FONT(*; "name"; …)`),
 * `>` and `<` (`SORT ARRAY($a; >)`), and `QUERY`'s conjunctions `&`, `|`, `#` (`QUERY([T]; & [T]f=1)`
 * gives the conjunction and the query argument as two arguments). Only an argument of a call.
 */
export interface SymbolArgNode extends Base<'SymbolArg'> {
  readonly symbol: '*' | '>' | '<' | '&' | '|' | '#'
}

export type LiteralNode = TextNode | NumberNode | DateNode | TimeNode | BoolNode | NullNode

/** The expressions a value can be assigned to (`:=`, `+=`…) or declared (`var`, `For`…). */
export type AssignableNode =
  | LocalNode
  | NameNode
  | InterprocessVarNode
  | ParamNode
  | IndirectParamNode
  | MemberNode
  | IndexNode
  | ArrayElementNode
  | CharAtNode
  | FieldNode
  | DerefNode

export type ExprNode =
  | LiteralNode
  | AssignableNode
  | TableNode
  | PointerToNode
  | CallNode
  | MethodCallNode
  | CommandNode
  | ConstantNode
  | BinaryNode
  | UnaryNode
  | AndOrNode
  | TernaryNode
  | ObjectLiteralNode
  | CollectionLiteralNode
  | ThisNode
  | SuperNode
  | ClassStoreNode
  | DsNode
  | FormulaNode
  | TryExprNode
  | SymbolArgNode

// An assignment is a statement (statements.ts lists it among them), typed here because a formula's
// body may be one (`Formula(Form.x:=$1)`): so the expressions need not import the statements.

/** The assignment operators: `:=` and the compound ones 4D has (19 R4). */
export type AssignOp = ':=' | '+=' | '-=' | '*=' | '/='

/** `target := value`, `target += value`… */
export interface AssignNode extends Base<'Assign'> {
  readonly target: AssignableNode
  readonly op: AssignOp
  readonly value: ExprNode
}
