/**
 * @module A project's class functions as the datastore's functions (`createDatastore(model, {
 * functions })`, core's FunctionsDef), so that REST calls them as it calls a functions module's:
 * the `DataStore` class's (`Class extends DataStoreImplementation`: /rest/$catalog/fn), each
 * dataclass's DataClass, Entity and EntitySelection classes (`Car`, `CarEntity`, `CarSelection`:
 * /rest/Car/fn, /rest/Car(1)/fn, /rest/Car/$entityset/…/fn) and the shared and session singletons
 * (/rest/$singleton/Pricing/fn). A function is exposed when its class file says `exposed`; the
 * others are there for code (core calls them as private functions).
 *
 * Each call is run by the project's runner (project-runner.ts) as the caller: `This` and the
 * parameters are what core hands the function — the caller's view, which decides what it may read
 * — made 4D values by the ORDA bridge, each to its declared type; the result goes back through the
 * bridge. No access decision is made here.
 */
import type { FunctionDef, FunctionsDef, SingletonDef } from '@entistore/core'
import type { ClassFileNode, FunctionNode } from '../ast/files.js'
import type { ParamDeclNode } from '../ast/statements.js'
import { brokenFunction } from '../compile/compile-class.js'
import type { CompiledProject, ProjectClass } from './compile-project.js'
import { computedAttributes } from './computed-attributes.js'
import { ProjectRunner, type ProjectRunnerOptions } from './project-runner.js'
import { entityEvents } from './entity-events.js'
import { restrictCode } from './restrict-code.js'

export interface ProjectFunctionsOptions extends ProjectRunnerOptions {
  /** The datastore's dataclasses: the ORDA classes of another name are left out. */
  readonly dataClasses: ReadonlySet<string>
  /**
   * The model's calculated attributes (`Car.label`), which an Entity class's `Function get`
   * computes; the others (a getter of an entity, of no catalog type) are left out.
   * @default every getter's
   */
  readonly computed?: ReadonlySet<string>
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

/** The project's functions, for `createDatastore(model, { functions })`. */
export function projectFunctions(
  project: CompiledProject,
  options: ProjectFunctionsOptions,
): FunctionsDef {
  const runner = new ProjectRunner(project, options)
  const define = (c: ProjectClass, fn: Declared, singleton: boolean): FunctionDef<unknown> => ({
    exposed: fn.exposed,
    onHTTPGet: fn.onHTTPGet,
    call(this: unknown, ...args: unknown[]): unknown {
      return runner.run(c, `${c.name}.${fn.name}`, ({ rt, cls, bridge }) => {
        const self = singleton ? rt.run(() => cls.me(rt)) : bridge.toFourD(this)
        const params = args.map((a, i) => bridge.toFourD(a, fn.types(i)))
        const code = cls.findFunction(fn.name)!
        return bridge.resultOf(rt.invoke(code, self, params))
      })
    },
  })

  const dataStore: Record<string, FunctionDef<unknown>> = {}
  // Each dataclass's functions by kind, and its computed attributes, events and restrict.
  const dataClasses: Record<string, Record<string, object | undefined>> = {}
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
    // Its computed attributes, entity events and restrict (computed-attributes.ts,
    // entity-events.ts, restrict-code.ts), where core runs them.
    if (place.kind === 'entity') {
      const served = (a: string): boolean =>
        options.computed?.has(`${place.dataClass}.${a}`) ?? true
      const computed = computedAttributes(runner, c, place.dataClass, served)
      if (Object.keys(computed).length > 0) dataClasses[place.dataClass]!.computed = computed
      Object.assign(dataClasses[place.dataClass]!, entityEvents(c, runner))
    }
    if (place.kind === 'dataClass') dataClasses[place.dataClass]!.restrict = restrictCode(c, runner)
  }
  return { dataStore, dataClasses, singletons }
}
