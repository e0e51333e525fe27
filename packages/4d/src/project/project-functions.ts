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
import { classPlace, declaredFunctions, type DeclaredFunction } from './class-kinds.js'
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
  /**
   * The functions left out (`Car.model`): those named like an attribute of their dataclass,
   * which keeps the name (declarations.ts' `shadowed`). @default none
   */
  readonly leftOut?: ReadonlySet<string>
  /**
   * The runner of the calls, when the caller runs code of its own on the same running state (a
   * test runner: its tests and the functions they call share `Storage`, the interprocess
   * variables and the singletons). @default a runner of its own, made with these options
   */
  readonly runner?: ProjectRunner
}

/** The project's functions, for `createDatastore(model, { functions })`. */
export function projectFunctions(
  project: CompiledProject,
  options: ProjectFunctionsOptions,
): FunctionsDef {
  const runner = options.runner ?? new ProjectRunner(project, options)
  const define = (
    c: ProjectClass,
    fn: DeclaredFunction,
    singleton: boolean,
  ): FunctionDef<unknown> => ({
    exposed: fn.exposed,
    onHTTPGet: fn.onHTTPGet,
    call(this: unknown, ...args: unknown[]): unknown {
      return runner.callInSlices(
        c,
        `${c.name}.${fn.name}`,
        ({ rt, cls, bridge }) => ({
          code: cls.findFunction(fn.name)!,
          self: singleton ? rt.run(() => cls.me(rt)) : bridge.toFourD(this),
          params: args.map((a, i) => bridge.toFourD(a, fn.types(i))),
        }),
        ({ bridge }, value) => bridge.resultOf(value),
      )
    },
  })

  const dataStore: Record<string, FunctionDef<unknown>> = {}
  // Each dataclass's functions by kind, and its computed attributes, events and restrict.
  const dataClasses: Record<string, Record<string, object | undefined>> = {}
  const singletons: Record<string, SingletonDef> = {}
  for (const c of project.classes) {
    const place = classPlace(c, options.dataClasses)
    if (place === undefined || place === 'orphan') continue
    const defs: Record<string, FunctionDef<unknown>> = {}
    const owner = 'dataClass' in place ? place.dataClass : undefined
    for (const fn of declaredFunctions(c.ast))
      if (!options.leftOut?.has(`${owner}.${fn.name}`))
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
