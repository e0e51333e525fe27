/**
 * @module A project's class functions as the datastore's functions (`createDatastore(model, {
 * functions })`, core's FunctionsDef), so that REST calls them as it calls a functions module's:
 * the `DataStore` class's (`Class extends DataStoreImplementation`: /rest/$catalog/fn), each
 * dataclass's DataClass, Entity and EntitySelection classes (`Car`, `CarEntity`, `CarSelection`:
 * /rest/Car/fn, /rest/Car(1)/fn, /rest/Car/$entityset/…/fn) and the shared and session singletons
 * (/rest/$singleton/Pricing/fn). A function is exposed when its class file says `exposed`; the
 * others are there for code (core calls them as private functions).
 *
 * Each call runs on a running context of its own (runtime.ts) over the datastore's class store
 * (compiled once per datastore: the ORDA classes extended are that datastore's), as the caller:
 * `This` and the parameters are what core hands the function — the caller's view, which decides
 * what it may read — made 4D values by the ORDA bridge, each to its declared type; the result goes
 * back through the bridge. No access decision is made here. The code stops at the request's time
 * budget (core's query budget, which the REST interface sets for each request), or at `budgetMs`
 * for a call made outside one. A 4D error is answered as 4D's error stack: the error, then where
 * it happened (the function, its file and line).
 */
import {
  currentBudget,
  currentCall,
  datastoreError,
  DatastoreError,
  systemClock,
  type Datastore,
  type FunctionDef,
  type FunctionsDef,
  type SingletonDef,
} from '@entistore/core'
import type { ClassFileNode, FunctionNode } from '../ast/files.js'
import type { ParamDeclNode } from '../ast/statements.js'
import { brokenFunction } from '../compile/compile-class.js'
import { compileFormulaText } from '../compile/formula-text.js'
import { Runtime } from '../runtime/context/runtime.js'
import { budgetOf } from '../runtime/context/budget.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { markShared } from '../runtime/classes/shared.js'
import { newObject } from '../runtime/values/kinds.js'
import type { ClassObject } from '../runtime/classes/class-object.js'
import type { ClassStore } from '../runtime/classes/class-store.js'
import type { MethodRegistry } from '../runtime/context/methods.js'
import type { CompiledProject, ProjectClass } from './compile-project.js'
import { ordaBridge, type OrdaBridge } from '../orda/bridge.js'
import { withoutOrda } from './without-orda.js'
import type { FileHost } from '../runtime/files/file-host.js'

export interface ProjectFunctionsOptions {
  /** The datastore's dataclasses: the ORDA classes of another name are left out. */
  readonly dataClasses: ReadonlySet<string>
  /** The ORDA bridge of a datastore, made once for each. @default src/orda's `ordaBridge` */
  readonly bridge?: (datastore: Datastore) => OrdaBridge
  /** The time a call made outside a request may run. @default 2000 (the REST query budget's) */
  readonly budgetMs?: number
  /** The project's folders, for `File` and `Folder` (project-files.ts); none: they raise. */
  readonly files?: FileHost
}

/** Where a class's functions go: its FunctionsDef place. */
type Place =
  | { readonly kind: 'dataStore' }
  | { readonly kind: 'dataClass' | 'entity' | 'entitySelection'; readonly dataClass: string }
  | { readonly kind: 'singleton'; readonly session: boolean }

// The ORDA class a class file extends, the kind of its functions and its name's suffix.
const ORDA_KINDS: Readonly<
  Record<string, { kind: 'dataClass' | 'entity' | 'entitySelection'; suffix: string }>
> = {
  DataClass: { kind: 'dataClass', suffix: '' },
  Entity: { kind: 'entity', suffix: 'Entity' },
  EntitySelection: { kind: 'entitySelection', suffix: 'Selection' },
}

/** The place of a class's functions, or undefined for a class REST does not reach. */
function placeOf(c: ProjectClass, dataClasses: ReadonlySet<string>): Place | undefined {
  const parent = c.superclass?.length === 1 ? c.superclass[0] : undefined
  if (parent === 'DataStoreImplementation') return { kind: 'dataStore' }
  const orda = parent === undefined ? undefined : ORDA_KINDS[parent]
  if (orda !== undefined) {
    if (!c.name.endsWith(orda.suffix)) return undefined
    const dataClass = c.name.slice(0, c.name.length - orda.suffix.length)
    return dataClasses.has(dataClass) ? { kind: orda.kind, dataClass } : undefined
  }
  const ctor = c.ast.members.find((m) => m.kind === 'Constructor')
  if (ctor === undefined || !(ctor.shared || ctor.session)) return undefined
  // 4D gives REST the shared and the session singletons (`$singleton`).
  return ctor.singleton || ctor.session ? { kind: 'singleton', session: ctor.session } : undefined
}

/** A function of a class file as REST sees it: its name, exposure and declared parameter types. */
interface Declared {
  readonly name: string
  readonly exposed: boolean
  readonly onHTTPGet: boolean
  readonly types: (index: number) => string | undefined
}

const typeName = (p: ParamDeclNode): string | undefined => p.type?.path.join('.')

function declaredTypes(
  params: readonly ParamDeclNode[] | null,
): (index: number) => string | undefined {
  if (params === null) return () => undefined
  const named = params.filter((p) => !p.variadic)
  const rest = params.find((p) => p.variadic)
  return (i) => {
    const p = named[i]
    return p !== undefined ? typeName(p) : rest === undefined ? undefined : typeName(rest)
  }
}

/** The class functions of a class file, a `Function` line that did not parse included. */
function declaredFunctions(ast: ClassFileNode): Declared[] {
  const out: Declared[] = []
  for (const m of ast.members) {
    if (m.kind === 'Function' && m.functionKind === 'plain') out.push(fromNode(m))
    else if (m.kind === 'Unparsed') {
      // Declared all the same: a call answers its syntax error (compile-class.ts), not "no code".
      const broken = brokenFunction(m)
      if (broken?.kind === 'plain') {
        const modifiers = m.text.slice(0, m.text.search(/\bFunction\b/i)).toLowerCase()
        out.push({
          name: broken.name,
          exposed: /\bexposed\b/.test(modifiers),
          onHTTPGet: /\bonhttpget\b/.test(modifiers),
          types: () => undefined,
        })
      }
    }
  }
  return out
}

const fromNode = (m: FunctionNode): Declared => ({
  name: m.name,
  exposed: m.exposed,
  onHTTPGet: m.onHTTPGet,
  types: declaredTypes(m.params),
})

/** What runs a project's code on one datastore. */
interface Running {
  readonly bridge: OrdaBridge
  readonly classes: ClassStore
  readonly methods: MethodRegistry
  /** The interprocess variables (`<>name`), the datastore's. */
  readonly interprocess: Map<string, unknown>
  /** `Storage`, the datastore's shared object. */
  readonly storage: object
}

/** The project's functions, for `createDatastore(model, { functions })`. */
export function projectFunctions(
  project: CompiledProject,
  options: ProjectFunctionsOptions,
): FunctionsDef {
  const bridgeOf = options.bridge ?? ordaBridge
  const budgetMs = options.budgetMs ?? 2000
  // One running state a datastore (the call's), and one for a call made outside any.
  const running = new WeakMap<object, Running>()
  const noDatastore = {}
  const runningFor = (ds: Datastore | undefined): Running => {
    const key = ds ?? noDatastore
    let r = running.get(key)
    if (r === undefined) {
      const bridge = ds === undefined ? withoutOrda : bridgeOf(ds)
      const { classes, methods } = project.instantiate({
        builtinSuperclass: (path) => bridge.builtinSuperclass(path) as ClassObject | null,
      })
      const storage = markShared(newObject())
      running.set(key, (r = { bridge, classes, methods, interprocess: new Map(), storage }))
    }
    return r
  }

  const define = (c: ProjectClass, fn: Declared, singleton: boolean): FunctionDef<unknown> => ({
    exposed: fn.exposed,
    onHTTPGet: fn.onHTTPGet,
    call(this: unknown, ...args: unknown[]): unknown {
      const ds = currentCall()?.datastore
      const { bridge, classes, methods, interprocess, storage } = runningFor(ds)
      const cls = classes.get(c.name)!
      const session = bridge.session()
      const rt = new Runtime({
        classes,
        methods,
        interprocess,
        storage,
        compileFormula: compileFormulaText,
        ds: bridge.ds,
        builtinClasses: bridge.fourD,
        ...(typeof session === 'object' && session !== null ? { session } : {}),
        ...(options.files === undefined ? {} : { files: options.files }),
        budget: currentBudget() ?? budgetOf(budgetMs, ds?.clock ?? systemClock),
      })
      try {
        const self = singleton ? rt.run(() => cls.me(rt)) : bridge.toFourD(this)
        const params = args.map((a, i) => bridge.toFourD(a, fn.types(i)))
        const code = cls.findFunction(fn.name)!
        return bridge.resultOf(rt.invoke(code, self, params))
      } catch (e) {
        throw FourDError.is(e) ? errorStack(e, `${c.name}.${fn.name}`, c.file) : e
      }
    },
  })

  const dataStore: Record<string, FunctionDef<unknown>> = {}
  const dataClasses: Record<string, Record<string, Record<string, FunctionDef<unknown>>>> = {}
  const singletons: Record<string, SingletonDef> = {}
  for (const c of project.classes) {
    const place = placeOf(c, options.dataClasses)
    if (place === undefined) continue
    const defs: Record<string, FunctionDef<unknown>> = {}
    for (const fn of declaredFunctions(c.ast))
      defs[fn.name] = define(c, fn, place.kind === 'singleton')
    if (place.kind === 'dataStore') Object.assign(dataStore, defs)
    else if (place.kind === 'singleton')
      singletons[c.name] = { functions: defs, ...(place.session ? { session: true } : {}) }
    else Object.assign(((dataClasses[place.dataClass] ??= {})[place.kind] ??= {}), defs)
  }
  return { dataStore, dataClasses, singletons }
}

/**
 * A 4D error as the REST interface answers it: 4D's error (its code, component and message), then
 * where it happened, as 4D's error stack reads.
 */
function errorStack(e: FourDError, fallback: string, fallbackFile: string): DatastoreError {
  const method = e.method ?? fallback
  const file = e.file ?? fallbackFile
  const place = `Error in ${method}${e.line === undefined || e.line === 0 ? '' : `, line ${e.line}`} of ${file}`
  return datastoreError('FunctionFailed', [e.message], {
    code: { errCode: e.errCode, componentSignature: e.componentSignature },
    cause: datastoreError('FunctionFailed', [place]),
  })
}
