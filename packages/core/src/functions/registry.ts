/**
 * @module The functions of one datastore, checked against its model and found by kind, owner and
 * name. Two sources meet here: the application's code (`defineFunctions`), and the declarations a
 * model may carry (`methods` of a catalog saved from a real server, `singletons`), which are listed
 * in the catalog and answer "not implemented" until code is given for them.
 *
 * The checks are made once, when the datastore is built, so that a mistake (a function on a
 * dataclass that does not exist, a name an attribute already has, a `call` that is not a function)
 * stops the start with InvalidFunctions (9104) rather than a request later.
 */
import { fail } from '../errors/datastore-error.js'
import type { DataClassDef, SchemaDef } from '../schema/definitions.js'
import type { MethodJson } from '../schema/model-json.js'
import { functionNameProblem } from '../schema/model-checks.js'
import type {
  FunctionDef,
  FunctionDefs,
  ParamSpec,
  SingletonDef,
  UntypedFunctionsDef,
} from './define.js'

/** What a function applies to: 4D's datastore, dataclass, entity, entity selection and singleton classes. */
export type FunctionKind = 'dataStore' | 'dataClass' | 'entity' | 'entitySelection' | 'singleton'

/** A function's code, called with `this` set to what it applies to. */
export type FunctionImpl = (this: unknown, ...args: unknown[]) => unknown

/** One function, resolved. */
export interface FunctionInfo {
  readonly name: string
  readonly kind: FunctionKind
  /** The dataclass (dataClass, entity, entitySelection) or singleton it belongs to; '' for the datastore. */
  readonly owner: string
  readonly exposed: boolean
  readonly onHTTPGet: boolean
  readonly scope: string
  readonly params: readonly ParamSpec[] | undefined
  /** Undefined for a function the model declares without code. */
  readonly impl: FunctionImpl | undefined
  /** The 4D class file that declares it (a project's `.4dm`), for a call without code. */
  readonly declaredIn?: string | undefined
  /** Fields of a model declaration that Entistore does not interpret, echoed in the catalog. */
  readonly extra: Readonly<Record<string, unknown>>
}

// Names become URL segments and catalog entries: the model's rule for names.
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u
const TOP_KEYS = new Set(['dataStore', 'dataClasses', 'singletons'])
const CLASS_KEYS = new Set([
  'dataClass',
  'entity',
  'entitySelection',
  'computed',
  'events',
  'attributeEvents',
  'restrict',
])
const EVENT_KINDS = new Set([
  'constructor',
  'touched',
  'validateSave',
  'saving',
  'afterSave',
  'validateDrop',
  'dropping',
  'afterDrop',
])
const OPTION_KEYS = new Set(['exposed', 'onHTTPGet', 'scope', 'params', 'call'])
const PARAM_TYPES = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'date',
  'object',
  'array',
  'any',
])
// The catalog's `applyTo` of each dataclass kind, and the other spellings clients know.
const KIND_OF_APPLY_TO: Readonly<Record<string, FunctionKind>> = {
  dataClass: 'dataClass',
  entity: 'entity',
  entityCollection: 'entitySelection',
  entitySelection: 'entitySelection',
  dataClassSelection: 'entitySelection',
}
// The fields the catalog writes itself, from the resolved function.
const DECLARED_FIELDS = new Set([
  'name',
  'applyTo',
  'scope',
  'from',
  'exposed',
  'allowedOnHTTPGET',
  'declaredIn',
])

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const invalid = (where: string, why: string): never => fail('InvalidFunctions', [where, why])

/** An event's function, called with `this` and the event object (define.ts). */
// `any`: `this` is a draft or an entity depending on the event; orda/objects/define-functions.ts types each.
type EventHandler = ((this: any, event?: unknown) => unknown) & {
  /**
   * The same as work in steps (query/slices.ts `Work`), which a save run in slices (the REST
   * interface's) runs a slice at a time; undefined from it: the function is called.
   */
  readonly steps?: (this: any, event?: unknown) => Generator<unknown, unknown, void> | undefined
}

/** A dataclass's `restrict` (orda/objects/define-functions.ts types it): `this` is the DataClass. */
// `any`: the DataClass and its context are typed in orda/objects/define-functions.ts.
export type RestrictHandler = ((this: any, context: any) => unknown) & {
  /**
   * The same in steps (query/slices.ts `Work`: a generator yielding between steps), which a read
   * in slices runs a slice at a time; undefined from it: the plain function is called.
   */
  readonly steps?: (this: any, context: any) => Generator<unknown, unknown, void> | undefined
}

/** One level's event functions by kind (`constructor`, `touched`, `validateSave`, …). */
export type EventHandlers = Readonly<Partial<Record<string, EventHandler>>>

/** A dataclass's entity events: the entity's own, and each attribute's. */
export interface DataClassEvents {
  readonly entity: EventHandlers | undefined
  readonly attributes: ReadonlyMap<string, EventHandlers>
}

/** The event functions at `where`, checked: known kinds, each a function (own keys only). */
function checkEvents(handlers: unknown, where: string): EventHandlers | undefined {
  if (handlers === undefined) return undefined
  if (!isRecord(handlers)) invalid(where, 'expected an object by event')
  const out: Record<string, EventHandler> = {}
  for (const key of Object.keys(handlers as object)) {
    if (!EVENT_KINDS.has(key))
      invalid(where, `unknown event "${key}" (expected ${[...EVENT_KINDS].join(', ')})`)
    const fn = (handlers as Record<string, unknown>)[key]
    if (typeof fn !== 'function') invalid(`${where}.${key}`, 'expected a function')
    out[key] = fn as EventHandler
  }
  return out
}

const keyOf = (kind: FunctionKind, owner: string, name: string): string =>
  `${kind}\u0000${owner}\u0000${name}`

/** How an error names where a function lives: `dataClass Employee`, `the datastore`, `singleton Shop`. */
export function ownerText(fn: Pick<FunctionInfo, 'kind' | 'owner'>): string {
  if (fn.kind === 'dataStore') return 'the datastore'
  if (fn.kind === 'singleton') return `singleton ${fn.owner}`
  return `dataClass ${fn.owner}`
}

/** How an error names a function: `Employee.raise`, `authentify`, `Shop.status`. */
export function functionText(fn: Pick<FunctionInfo, 'kind' | 'owner' | 'name'>): string {
  return fn.kind === 'dataStore' ? `"${fn.name}"` : `"${fn.owner}.${fn.name}"`
}

export class FunctionRegistry {
  readonly #byKey = new Map<string, FunctionInfo>()
  // Each owner's functions in order: the model's declarations first, then the code's own.
  readonly #lists = new Map<string, FunctionInfo[]>()
  readonly #singletonDefs = new Map<string, SingletonDef>()
  readonly #events = new Map<string, DataClassEvents>()
  readonly #restricts = new Map<string, RestrictHandler>()
  readonly #singletonStates = new Map<string, unknown>()
  // Session singletons: each session's states by name, dropped with the session object.
  #sessionStates = new WeakMap<object, Map<string, unknown>>()
  readonly #schema: SchemaDef

  constructor(schema: SchemaDef, functions?: UntypedFunctionsDef) {
    this.#schema = schema
    for (const m of schema.methods) this.#declare('dataStore', '', m)
    for (const dc of schema.dataClasses)
      for (const m of dc.methods) this.#declare(dataClassKind(dc, m), dc.name, m)
    for (const s of schema.singletons)
      for (const m of s.methods) this.#declare('singleton', s.name, m)
    if (functions !== undefined) this.#define(schema, functions)
  }

  /** The function `name` of `kind` on `owner` ('' for the datastore), exposed or not. */
  find(kind: FunctionKind, owner: string, name: string): FunctionInfo | undefined {
    return this.#byKey.get(keyOf(kind, owner, name))
  }

  /** The functions of `kind` on `owner`, in order (model declarations first). */
  list(kind: FunctionKind, owner = ''): readonly FunctionInfo[] {
    return this.#lists.get(`${kind}\u0000${owner}`) ?? []
  }

  /** The singletons that have functions, in order. */
  singletonNames(): string[] {
    const names = new Set<string>()
    for (const fn of this.#byKey.values()) if (fn.kind === 'singleton') names.add(fn.owner)
    return [...names]
  }

  /** Whether any function is defined or declared. */
  get size(): number {
    return this.#byKey.size
  }

  /**
   * The state of singleton `name`, made by its `state()` on first use: kept for the life of the
   * datastore for a shared singleton, for the life of `session` for a session singleton (`made` is
   * called when a session's is made). Undefined if there is no such singleton.
   * @throws DatastoreError SessionSingletonWithoutSession (9152): a session singleton, no session
   */
  singletonState(name: string, session?: object, made?: () => void): unknown {
    const def = this.#singletonDefs.get(name)
    const states = def?.session
      ? session !== undefined
        ? this.#sessionStates.get(session)
        : fail('SessionSingletonWithoutSession', [name])
      : this.#singletonStates
    if (states?.has(name)) return states.get(name)
    if (!this.singletonNames().includes(name)) return undefined
    const state = def?.state ? def.state() : {}
    if (def?.session) {
      // Kept by the session object: a closed session's states go with it.
      const own = states ?? new Map<string, unknown>()
      this.#sessionStates.set(session!, own.set(name, state))
      made?.()
    } else this.#singletonStates.set(name, state)
    return state
  }

  /** Whether singleton `name` is a session singleton (one state a session). */
  isSessionSingleton(name: string): boolean {
    return this.#singletonDefs.get(name)?.session === true
  }

  /**
   * Drops every singleton's state, the sessions' included: the next use makes it again with
   * `state()` (a test fixture's reset starts each test with fresh singletons, as with fresh data).
   */
  resetSingletons(): void {
    this.#singletonStates.clear()
    this.#sessionStates = new WeakMap()
  }

  #add(fn: FunctionInfo): void {
    const key = keyOf(fn.kind, fn.owner, fn.name)
    const listKey = `${fn.kind}\u0000${fn.owner}`
    const list = this.#lists.get(listKey) ?? []
    const at = list.findIndex((f) => f.name === fn.name)
    if (at >= 0) list[at] = fn
    else list.push(fn)
    this.#lists.set(listKey, list)
    this.#byKey.set(key, fn)
  }

  // A function the model declares (a saved catalog's `methods`): listed, with no code yet.
  #declare(kind: FunctionKind, owner: string, m: MethodJson): void {
    this.#add({
      name: m.name,
      kind,
      owner,
      exposed: m.exposed !== false,
      onHTTPGet: m.allowedOnHTTPGET === true,
      scope: typeof m.scope === 'string' ? m.scope : 'public',
      params: undefined,
      impl: undefined,
      ...(typeof m.declaredIn === 'string' ? { declaredIn: m.declaredIn } : {}),
      extra: Object.freeze(
        Object.fromEntries(Object.entries(m).filter(([k]) => !DECLARED_FIELDS.has(k))),
      ),
    })
  }

  #define(schema: SchemaDef, functions: UntypedFunctionsDef): void {
    if (!isRecord(functions))
      invalid('functions', 'expected an object { dataStore, dataClasses, singletons }')
    for (const key of Object.keys(functions))
      if (!TOP_KEYS.has(key))
        invalid('functions', `unknown key "${key}" (expected dataStore, dataClasses, singletons)`)
    const dataStore = functions.dataStore as FunctionDefs<unknown> | undefined
    if (dataStore !== undefined) {
      this.#defineAll('dataStore', '', dataStore, 'functions.dataStore', (name) => {
        if (schema.byName.has(name))
          return `the name of a dataclass (/rest/$catalog/${name} describes it)`
        return undefined
      })
    }
    const classes = functions.dataClasses as Record<string, unknown> | undefined
    if (classes !== undefined) {
      if (!isRecord(classes)) invalid('functions.dataClasses', 'expected an object by dataclass')
      for (const [dcName, defs] of Object.entries(classes as Record<string, unknown>)) {
        const where = `functions.dataClasses.${dcName}`
        const dc = schema.byName.get(dcName)
        if (!dc) invalid(where, `the model has no dataclass "${dcName}"`)
        if (defs === undefined) continue
        if (!isRecord(defs)) invalid(where, 'expected { dataClass, entity, entitySelection }')
        for (const key of Object.keys(defs as object))
          if (!CLASS_KEYS.has(key))
            invalid(
              where,
              `unknown key "${key}" (expected dataClass, entity, entitySelection, computed, events, attributeEvents, restrict)`,
            )
        const taken = (name: string): string | undefined =>
          dc!.attributesByName.has(name) ? `the name of an attribute of ${dcName}` : undefined
        const d = defs as Record<string, FunctionDefs<unknown> | undefined>
        // The code of computed attributes is given to the model's calculated attributes (when
        // the datastore is built, see orda/objects/datastore.ts): each must be one.
        const computed = (defs as { computed?: unknown }).computed
        if (computed !== undefined) {
          if (!isRecord(computed)) invalid(`${where}.computed`, 'expected an object by attribute')
          for (const name of Object.keys(computed as object))
            if (dc!.attributesByName.get(name)?.kind !== 'calculated')
              invalid(
                `${where}.computed.${name}`,
                `${dcName} has no calculated attribute "${name}" (declare it in the model with kind "calculated" and its type)`,
              )
        }
        for (const kind of ['dataClass', 'entity', 'entitySelection'] as const) {
          const group = d[kind]
          if (group !== undefined) this.#defineAll(kind, dcName, group, `${where}.${kind}`, taken)
        }
        const events = checkEvents((defs as { events?: unknown }).events, `${where}.events`)
        const perAttribute = (defs as { attributeEvents?: unknown }).attributeEvents
        const attributes = new Map<string, EventHandlers>()
        if (perAttribute !== undefined) {
          if (!isRecord(perAttribute))
            invalid(`${where}.attributeEvents`, 'expected an object by attribute')
          for (const [name, handlers] of Object.entries(perAttribute as object)) {
            const at = `${where}.attributeEvents.${name}`
            if (!dc!.attributesByName.has(name)) invalid(at, `${dcName} has no attribute "${name}"`)
            if (isRecord(handlers) && Object.hasOwn(handlers, 'constructor'))
              invalid(at, 'an attribute has no constructor event (the entity has)')
            attributes.set(name, checkEvents(handlers, at)!)
          }
        }
        if (events || attributes.size) this.#events.set(dcName, { entity: events, attributes })
        const restrict = (defs as { restrict?: unknown }).restrict
        if (restrict !== undefined) {
          if (typeof restrict !== 'function')
            invalid(`${where}.restrict`, 'expected a function that returns a selection')
          this.#restricts.set(dcName, restrict as RestrictHandler)
        }
      }
    }
    const singletons = functions.singletons as Record<string, unknown> | undefined
    if (singletons !== undefined) {
      if (!isRecord(singletons)) invalid('functions.singletons', 'expected an object by name')
      for (const [name, def] of Object.entries(singletons as Record<string, unknown>)) {
        const where = `functions.singletons.${name}`
        checkName(where, name)
        if (!isRecord(def) || !isRecord(def.functions))
          invalid(where, 'expected { state?, functions, session? }')
        const s = def as unknown as SingletonDef
        if (s.state !== undefined && typeof s.state !== 'function')
          invalid(where, '"state" must be a function that makes the state')
        if (s.session !== undefined && typeof s.session !== 'boolean')
          invalid(where, '"session" must be true (one instance per session) or false')
        this.#singletonDefs.set(name, s)
        this.#defineAll('singleton', name, s.functions, `${where}.functions`, () => undefined)
      }
    }
  }

  /** Whether any dataclass has a `restrict` event (reads then depend on who makes them). */
  get restricting(): boolean {
    return this.#restricts.size > 0
  }

  /** The `restrict` event of dataclass `name`, if its functions declare one. */
  restrict(name: string): RestrictHandler | undefined {
    return this.#restricts.get(name)
  }

  /** The entity events of dataclass `name` (its functions' `events`, `attributeEvents`), if any. */
  events(name: string): DataClassEvents | undefined {
    return this.#events.get(name)
  }

  #defineAll(
    kind: FunctionKind,
    owner: string,
    defs: FunctionDefs<unknown>,
    where: string,
    taken: (name: string) => string | undefined,
  ): void {
    if (!isRecord(defs)) invalid(where, 'expected an object of functions by name')
    for (const [name, def] of Object.entries(defs)) {
      const at = `${where}.${name}`
      const problem = functionNameProblem(name)
      if (problem !== undefined) invalid(at, problem)
      const clash = taken(name)
      if (clash !== undefined) invalid(at, `"${name}" is ${clash}`)
      const fn = checkDef(at, def, this.#schema)
      const declared = this.find(kind, owner, name)
      this.#add({
        name,
        kind,
        owner,
        exposed: fn.exposed ?? declared?.exposed ?? false,
        onHTTPGet: fn.onHTTPGet ?? declared?.onHTTPGet ?? false,
        scope: fn.scope ?? declared?.scope ?? 'public',
        params: fn.params,
        impl: fn.call as FunctionImpl,
        extra: declared?.extra ?? {},
      })
    }
  }
}

/** The kind a dataclass method of the model declares (`applyTo`, `dataClass` when absent). */
function dataClassKind(dc: DataClassDef, m: MethodJson): FunctionKind {
  const applyTo = m.applyTo ?? 'dataClass'
  return (
    KIND_OF_APPLY_TO[applyTo] ??
    invalid(
      `model: dataclass "${dc.name}", method "${m.name}"`,
      `unknown applyTo "${applyTo}" (dataClass, entity, entityCollection)`,
    )
  )
}

function checkName(where: string, name: string): void {
  if (!NAME.test(name) || name.startsWith('__'))
    invalid(
      where,
      `the name ${JSON.stringify(name)} is not valid (letters, digits and _, not starting with a digit or __)`,
    )
}

function checkDef(where: string, def: unknown, schema: SchemaDef): FunctionDef<unknown> {
  if (typeof def === 'function')
    invalid(where, 'expected { exposed?, onHTTPGet?, params?, call() {…} }, not a bare function')
  if (!isRecord(def)) invalid(where, 'expected { exposed?, onHTTPGet?, params?, call() {…} }')
  const d = def as Record<string, unknown>
  for (const key of Object.keys(d))
    if (!OPTION_KEYS.has(key))
      invalid(where, `unknown option "${key}" (exposed, onHTTPGet, scope, params, call)`)
  if (typeof d.call !== 'function') invalid(where, '"call" must be a function')
  for (const flag of ['exposed', 'onHTTPGet'] as const)
    if (d[flag] !== undefined && typeof d[flag] !== 'boolean')
      invalid(where, `"${flag}" must be true or false`)
  if (d.scope !== undefined && typeof d.scope !== 'string') invalid(where, '"scope" must be text')
  if (d.params !== undefined) {
    if (!Array.isArray(d.params)) invalid(where, '"params" must be an array of types')
    ;(d.params as unknown[]).forEach((p, i) => checkParamSpec(`${where}.params[${i}]`, p, schema))
  }
  return d as unknown as FunctionDef<unknown>
}

function checkParamSpec(where: string, p: unknown, schema: SchemaDef): void {
  if (typeof p === 'string' && PARAM_TYPES.has(p)) return
  if (isRecord(p)) {
    const keys = Object.keys(p)
    const target = p[keys[0]!]
    if (keys.length === 1 && (keys[0] === 'entity' || keys[0] === 'selection')) {
      if (typeof target === 'string' && schema.byName.has(target)) return
      invalid(where, `the model has no dataclass ${JSON.stringify(target)}`)
    }
  }
  invalid(
    where,
    `${JSON.stringify(p)} is not a parameter type (${[...PARAM_TYPES].join(', ')}, { entity: 'Name' }, { selection: 'Name' })`,
  )
}
