/**
 * @module A 4D project's own code as the datastore's functions (`serve --project`): its class and
 * method files compiled by @entistore/4d, their class functions given to the datastore as a
 * functions module's are, and a `--functions` module's function of the same name winning (the
 * module is how a team replaces what does not run here yet). What would fail when it runs is said
 * in one line at start-up, as `entistore check --project` says it in full.
 */
import { dirname } from 'node:path'
import type { FunctionsDef } from '@entistore/core'

/** What the 4D code gives a project's datastore. */
export interface ProjectCode {
  /** The functions: the project's, a module's own winning by name. */
  readonly functions: FunctionsDef<any>
  /** One line on the code's problems (`7 files of 4D code: no problem`); none without code. */
  readonly summary: string | undefined
}

/**
 * The functions of the code in `projectFolder` (the `Project` folder) for a datastore of
 * `dataClasses` whose calculated attributes are `computed` (`Car.label`), with `module`'s (a
 * `--functions` module) winning by name.
 */
export async function projectCode(
  projectFolder: string,
  dataClasses: readonly string[],
  module: FunctionsDef<any> | undefined,
  computed: readonly string[] = [],
): Promise<ProjectCode> {
  const fourD = await import('@entistore/4d')
  const sources = await fourD.readProjectSources(projectFolder)
  const compiled = fourD.compileProject(sources.files, { dataClasses })
  const report = fourD.checkReport(compiled.files)
  const own = fourD.projectFunctions(compiled, {
    dataClasses: new Set(dataClasses),
    computed: new Set(computed),
    // File and Folder reach the project's root folder, the one holding `Project`, and no further.
    files: fourD.projectFiles(dirname(projectFolder)),
  })
  const summary =
    report.files.length === 0
      ? undefined
      : `${fourD.checkSummary(report)}${fourD.wouldFail(report) ? ` (entistore check --project ${projectFolder} lists them)` : ''}`
  return { functions: mergeFunctions(own, module), summary }
}

type Group = Readonly<Record<string, unknown>> | undefined

const merged = (base: Group, over: Group): Record<string, unknown> => ({ ...base, ...over })

/**
 * `code`'s functions with `module`'s added, the module's winning where both name one (a computed
 * attribute's functions as one: the module's `computed.label` replaces the class file's).
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
      ...Object.fromEntries(
        (['dataClass', 'entity', 'entitySelection', 'computed'] as const)
          .filter((kind) => own[kind] !== undefined || mod[kind] !== undefined)
          .map((kind) => [kind, merged(own[kind], mod[kind])]),
      ),
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
