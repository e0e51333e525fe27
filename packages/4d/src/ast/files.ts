/**
 * @module The top of the 4D AST: a class file (`Project/Sources/Classes/Name.4dm`), made of class
 * members, and a method file (`Project/Sources/Methods/name.4dm`), made of statements.
 *
 * A class member's body runs to the next member or the end of the file (4D has no `End function`).
 * Lines before the first member that are not members (comments aside) become `Unparsed` members.
 */
import type { ExprNode } from './expressions.js'
import type { Loc } from './loc.js'
import type {
  ParamDeclNode,
  ResultDeclNode,
  StatementNode,
  TypeRefNode,
  UnparsedNode,
} from './statements.js'

interface Base<K extends string> {
  readonly kind: K
  readonly loc: Loc
}

/** `Class extends Parent` (`DataClass`, `Entity`, `EntitySelection`, `DataStoreImplementation`, a user class…). */
export interface ExtendsNode extends Base<'Extends'> {
  readonly superclass: TypeRefNode
}

/**
 * `{shared} {{session} singleton} Class constructor({params})`. `shared singleton` is one instance
 * for all processes, `session singleton` one per session (and shared), `singleton` one per process.
 */
export interface ConstructorNode extends Base<'Constructor'> {
  readonly shared: boolean
  readonly singleton: boolean
  readonly session: boolean
  readonly params: readonly ParamDeclNode[]
  readonly body: readonly StatementNode[]
}

/** `property a; b : Text` or `property name : Text := "Smith"` (one name when initialized). */
export interface PropertyNode extends Base<'Property'> {
  readonly names: readonly string[]
  readonly type: TypeRefNode | null
  readonly init: ExprNode | null
}

/**
 * What a `Function` declares:
 * - `plain`   `Function name(…)`: a class function;
 * - `get`/`set` `Function get name()`, `Function set name($v)`: a computed property's accessors;
 * - `query`/`orderBy` `Function query name($event)`: a computed attribute's query and sort (ORDA);
 * - `event`   `Function event touched {attribute}($event)`: an ORDA entity event.
 */
export type FunctionKind = 'plain' | 'get' | 'set' | 'query' | 'orderBy' | 'event'

/**
 * `{exposed|local|server} {shared} {onHTTPGet} Function {kind} name(params) {-> $r : Type | : Type}`
 * (the modifiers in any order).
 * `name` is the function's or computed property's name, or for an event the event's name
 * (`touched`, `validateSave`, `restrict`…) with `attribute` the attribute it watches (null for the
 * entity). `params` is null for the legacy form without parentheses (`Function getArea` reading
 * `$1`…, returning `$0`).
 */
export interface FunctionNode extends Base<'Function'> {
  readonly name: string
  readonly functionKind: FunctionKind
  readonly attribute: string | null
  readonly exposed: boolean
  readonly local: boolean
  /** `server Function` (21): runs on the server even when called from a client. */
  readonly server: boolean
  readonly shared: boolean
  readonly onHTTPGet: boolean
  readonly params: readonly ParamDeclNode[] | null
  readonly result: ResultDeclNode | null
  readonly body: readonly StatementNode[]
}

/** `{exposed} Alias name path.to.attribute` (an ORDA alias attribute of a dataclass). */
export interface AliasNode extends Base<'Alias'> {
  readonly name: string
  readonly path: readonly string[]
  readonly exposed: boolean
}

export type ClassMemberNode =
  ConstructorNode | PropertyNode | FunctionNode | AliasNode | UnparsedNode

/** A class file: its `Class extends` (null for a plain class) and its members, in order. */
export interface ClassFileNode extends Base<'ClassFile'> {
  readonly file: string
  readonly extends: ExtendsNode | null
  readonly members: readonly ClassMemberNode[]
}

/** A method file: its statements (`#DECLARE` among them, first when written). */
export interface MethodFileNode extends Base<'MethodFile'> {
  readonly file: string
  readonly body: readonly StatementNode[]
}

export type FileNode = ClassFileNode | MethodFileNode
