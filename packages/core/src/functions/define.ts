/**
 * @module The shapes of an application's class functions that name none of the public objects:
 * one function and its options (4D's keywords `exposed` and `onHTTPGet`), a parameter's type, an
 * entity event and its refusal, a shared singleton. orda/objects/define-functions.ts builds on them the
 * typed form an application writes (`defineFunctions`, where `this` is a DataClass, an Entity or an
 * EntitySelection); the registry (registry.ts) reads them untyped, so that this folder stays below
 * the objects that run the functions.
 */

/**
 * The type a parameter is checked against before the call (a mismatch is FunctionParameterInvalid,
 * 9101): `date` also accepts text in the forms a write accepts and hands the function a `Date`;
 * `{ entity: 'Employee' }` an entity (or an entity being edited) of that dataclass;
 * `{ selection: 'Employee' }` an entity selection of it. A parameter left out, or null, is passed
 * as it is whatever its type: as in 4D, a function decides what a missing value means.
 */
export type ParamSpec =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'object'
  | 'array'
  | 'any'
  | { readonly entity: string }
  | { readonly selection: string }

/** What 4D's function keywords and declarations say, as options. */
export interface FunctionOptions {
  /** Callable from REST and listed in the catalog (4D's `exposed` keyword). @default false */
  readonly exposed?: boolean
  /** Also callable with GET, parameters in `$params` (4D's `onHTTPGet`). @default false */
  readonly onHTTPGet?: boolean
  /** The catalog's `scope`. @default 'public' */
  readonly scope?: string
  /**
   * The parameters' types, checked in order before the call; more arguments than listed are
   * refused. Without it, any arguments are passed.
   */
  readonly params?: readonly ParamSpec[]
}

/**
 * One function: its options and its code. `call` is a method (not an arrow function) so that `this`
 * is what the function applies to; it may return a value or a Promise of one.
 */
export interface FunctionDef<This> extends FunctionOptions {
  // Any arguments: each function declares its own parameters (`call(min: number)`).
  call(this: This, ...args: any[]): unknown
}

/** Functions by name, all with the same `this`. */
export type FunctionDefs<This> = { readonly [name: string]: FunctionDef<This> }

/** The entity events, in the order a save or a drop runs them. */
export type EntityEventKind =
  'touched' | 'validateSave' | 'saving' | 'afterSave' | 'validateDrop' | 'dropping' | 'afterDrop'

/** What an event function receives (4D's `$event`). */
export interface EntityEvent {
  readonly kind: EntityEventKind
  readonly dataClassName: string
  /** The attribute of an attribute-level event. */
  readonly attributeName?: string
  /** `afterSave`: the attributes the save wrote, and how it went. */
  readonly savedAttributes?: readonly string[]
  readonly saveStatus?: 'success'
  /** `afterDrop`: the attributes of the dropped entity, and how it went. */
  readonly droppedAttributes?: readonly string[]
  readonly dropStatus?: 'success'
}

/**
 * What a validate or -ing event returns to refuse the write (4D's error object); returning
 * nothing lets it go on. `errCode` defaults to 9138; the reply's componentSignature is `DBEV`.
 */
export interface EventError {
  readonly errCode?: number
  readonly message: string
  readonly extraDescription?: unknown
  /**
   * A validate event's serious (true: status 8) or mild (false, the default: status 7) validation
   * error; both refuse the write. A saving or dropping event's error is serious whatever it says.
   */
  readonly fatalError?: boolean
  /** The name 4D 21's first pages gave `fatalError`; read when `fatalError` is not given. */
  readonly seriousError?: boolean
}

/**
 * A singleton (`/rest/$singleton/{name}/{fn}`): its state and its functions, whose `this` is that
 * state. A shared singleton's state is made once per datastore on first use; a session singleton's
 * (`session: true`, 4D's `session singleton Class constructor`, 20 R7) once per session.
 */
export interface SingletonDef<S = unknown> {
  /** Makes the singleton's state (4D's constructor). @default an empty object */
  readonly state?: () => S
  readonly functions: FunctionDefs<S>
  /**
   * One instance per session rather than one for the datastore (4D's `session singleton`): each
   * session that calls it gets its own state, made on its first call and gone with the session.
   * @default false
   */
  readonly session?: boolean
}

/**
 * An application's functions as the registry reads them, whatever the model (the registry checks
 * every part when the datastore is built). orda/objects/define-functions.ts types each `this`: FunctionsDef.
 */
export interface UntypedFunctionsDef {
  // `any`: the `this` of each function is typed in FunctionsDef, which this folder cannot name.
  readonly dataStore?: FunctionDefs<any>
  readonly dataClasses?: { readonly [name: string]: object | undefined }
  readonly singletons?: { readonly [name: string]: SingletonDef<any> }
}

/**
 * A singleton whose functions see `state()`'s result as `this`, typed.
 *
 * @example singleton(() => ({ hits: 0 }), { hit: { exposed: true, call() { return ++this.hits } } })
 */
export function singleton<S>(state: () => S, functions: FunctionDefs<S>): SingletonDef<S> {
  return { state, functions }
}

/**
 * A session singleton (4D's `session singleton Class constructor`): one state a session, made by
 * `state()` on the session's first call, which its functions see as `this`, typed.
 *
 * @example sessionSingleton(() => ({ items: [] as string[] }), { add: { exposed: true, call(item: string) { this.items.push(item) } } })
 */
export function sessionSingleton<S>(state: () => S, functions: FunctionDefs<S>): SingletonDef<S> {
  return { state, functions, session: true }
}
