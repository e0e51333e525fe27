/**
 * @module A project's compiled 4D code made the datastore's functions, with nothing of Node's: the
 * one path `serve --project` (four-d-code.ts, which adds the hosts of files, HTTP, mail and
 * programs) and a project bundled for a page (browser/project-in-page.ts) take. The language is
 * loaded when a project's code is, from its portable entry: a start or a page without a project
 * loads none of it.
 */
import type { FunctionsDef } from '@entistore/core'
import type { CompiledProject, ProjectRunner, ProjectRunnerOptions } from '@entistore/4d/portable'
import type { Notes } from './notes.js'

/** A dataclass as the code needs it: its name and its attributes'. */
export interface CodeDataClass {
  readonly name: string
  readonly attributes: readonly { readonly name: string }[]
}

/** What `codeFunctions` makes functions of: the code, and what the model left out of it. */
export interface CodeOf {
  readonly code: CompiledProject
  /** The class functions the model left out (`Car.model`, named like an attribute). */
  readonly shadowed: ReadonlySet<string>
}

/**
 * The functions of `project`'s code for a datastore of `dataClasses` whose calculated attributes
 * are `computed` (`Car.label`), run by one runner with `hosts`; an event of an attribute the
 * dataclass lacks is left out and said to `notes`.
 */
export async function codeFunctions(
  project: CodeOf,
  dataClasses: readonly CodeDataClass[],
  computed: readonly string[],
  hosts: ProjectRunnerOptions,
  notes: Notes,
): Promise<{ functions: FunctionsDef<any>; runner: ProjectRunner }> {
  const fourD = await import('@entistore/4d/portable')
  const runner = new fourD.ProjectRunner(project.code, hosts)
  const functions = withKnownAttributes(
    fourD.projectFunctions(project.code, {
      ...hosts,
      dataClasses: new Set(dataClasses.map((dc) => dc.name)),
      computed: new Set(computed),
      leftOut: project.shadowed,
      runner,
    }),
    dataClasses,
    notes,
  )
  return { functions, runner }
}

/**
 * `functions` without the events of attributes their dataclass does not have (`Function event
 * touched nosuch`), each noted: the others run, rather than the datastore refused for one.
 */
function withKnownAttributes(
  functions: FunctionsDef<any>,
  dataClasses: readonly CodeDataClass[],
  notes: Notes,
): FunctionsDef<any> {
  const out: Record<string, unknown> = { ...functions.dataClasses }
  for (const dc of dataClasses) {
    const defs = functions.dataClasses?.[dc.name]
    if (defs?.attributeEvents === undefined) continue
    const known = new Set(dc.attributes.map((a) => a.name))
    const kept = Object.entries(defs.attributeEvents).filter(([name, events]) => {
      if (known.has(name)) return true
      for (const kind of Object.keys(events ?? {}))
        notes.add(
          'entity events of an attribute the dataclass does not have are not run',
          `${dc.name}Entity: ${kind} ${name}`,
        )
      return false
    })
    out[dc.name] = { ...defs, attributeEvents: Object.fromEntries(kept) }
  }
  return { ...functions, dataClasses: out as FunctionsDef<any>['dataClasses'] }
}

type Group = Readonly<Record<string, unknown>> | undefined

const merged = (base: Group, over: Group): Record<string, unknown> => ({ ...base, ...over })

/** Each attribute's events, the module's winning by attribute and event. */
function byAttribute(own: Group, mod: Group): { attributeEvents?: Record<string, unknown> } {
  if (own === undefined || mod === undefined) return {}
  const names = new Set([...Object.keys(own), ...Object.keys(mod)])
  return {
    attributeEvents: Object.fromEntries(
      [...names].map((a) => [a, merged(own[a] as Group, mod[a] as Group)]),
    ),
  }
}

/**
 * `code`'s functions with `module`'s added, the module's winning where both name one: a function,
 * an entity event (an attribute's by attribute), a dataclass's `restrict`, a computed attribute's
 * functions as one (the module's `computed.label` replaces the class file's).
 */
export function mergeFunctions(
  code: FunctionsDef<any>,
  module: FunctionsDef<any> | undefined,
): FunctionsDef<any> {
  if (module === undefined) return code
  const dataClasses: Record<string, unknown> = { ...code.dataClasses }
  for (const [name, given] of Object.entries(module.dataClasses ?? {})) {
    const own = (code.dataClasses?.[name] ?? {}) as Record<string, Group>
    const mod = (given ?? {}) as Record<string, Group>
    dataClasses[name] = {
      ...own,
      ...mod,
      // By function, and by event: the module's `saving` replaces the class file's alone.
      ...Object.fromEntries(
        (['dataClass', 'entity', 'entitySelection', 'events', 'computed'] as const)
          .filter((kind) => own[kind] !== undefined || mod[kind] !== undefined)
          .map((kind) => [kind, merged(own[kind], mod[kind])]),
      ),
      ...byAttribute(own.attributeEvents, mod.attributeEvents),
    }
  }
  const singletons: Record<string, unknown> = { ...code.singletons }
  for (const [name, given] of Object.entries(module.singletons ?? {})) {
    const own = code.singletons?.[name]
    // The module's state and kind: its functions see them; the 4D ones use their class's instance.
    singletons[name] = { ...given, functions: merged(own?.functions, given.functions) }
  }
  return {
    dataStore: merged(code.dataStore, module.dataStore) as FunctionsDef<any>['dataStore'],
    dataClasses: dataClasses as FunctionsDef<any>['dataClasses'],
    singletons: singletons as FunctionsDef<any>['singletons'],
  }
}
