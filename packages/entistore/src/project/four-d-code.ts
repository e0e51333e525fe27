/**
 * @module A 4D project's own code as the datastore's functions (`serve --project`): its class and
 * method files compiled by @entistore/4d, their class functions, entity events and restrict
 * events given to the datastore as a functions module's are, and a `--functions` module's
 * function, event or restrict of the same name winning (the module is how a team replaces what
 * does not run here yet). What would fail when it runs is said
 * in one line at start-up, as `entistore check --project` says it in full.
 */
import { dirname } from 'node:path'
import type { FunctionsDef } from '@entistore/core'
import type { CodeLimits, ProjectRunner, ProjectRunnerOptions } from '@entistore/4d'
import { codeFacts, type CodeFacts } from './code-changes.js'
import { Notes } from './notes.js'
import type { LoadedProject } from './load-project.js'
import { httpHost } from './http-host.js'
import { imageHost } from './image-host.js'
import { smtpHost } from './smtp-host.js'
import { execHost } from './exec-host.js'
import { webServerOf } from './web-server-host.js'

/** What the 4D code gives a project's datastore. */
export interface ProjectCode {
  /** The functions: the project's, a module's own winning by name. */
  readonly functions: FunctionsDef<any>
  /** One line on the code's problems (`7 files of 4D code: no problem`); none without code. */
  readonly summary: string | undefined
  /** Its functions' texts and its syntax errors, for `--watch` (code-changes.ts). */
  readonly facts: CodeFacts
  /** What of the code is left out (an event of an attribute the dataclass lacks), one line a kind. */
  readonly notes: readonly string[]
  /** What runs the functions: a test runner runs its tests on the same running state. */
  readonly runner: ProjectRunner
}

/** A dataclass as the code needs it: its name and its attributes'. */
export interface CodeDataClass {
  readonly name: string
  readonly attributes: readonly { readonly name: string }[]
}

/**
 * The functions of `project`'s code (compiled once by loadProject) for a datastore of
 * `dataClasses` whose calculated attributes are `computed` (`Car.label`), with `module`'s (a
 * `--functions` module) winning by name.
 */
export async function projectCode(
  project: Pick<LoadedProject, 'code' | 'files' | 'shadowed'>,
  dataClasses: readonly CodeDataClass[],
  module: FunctionsDef<any> | undefined,
  computed: readonly string[] = [],
  hosts: {
    readonly allowHttp: readonly string[]
    readonly allowSmtp?: readonly string[]
    readonly allowExec?: readonly string[]
    /** The bounds of the code's sizes and call depth (`serve --code-limits`). */
    readonly codeLimits?: Partial<CodeLimits>
  } = {
    allowHttp: [],
  },
): Promise<ProjectCode> {
  const fourD = await import('@entistore/4d')
  const projectFolder = project.files.project
  const compiled = project.code
  const names = dataClasses.map((dc) => dc.name)
  const report = fourD.checkReport(compiled.files)
  const notes = new Notes()
  const hostOptions: ProjectRunnerOptions = {
    // File and Folder reach the project's root folder, the one holding `Project`, and no further.
    files: fourD.projectFiles(dirname(projectFolder)),
    webServer: webServerOf,
    // `LOG EVENT`: one line on stderr, beside the server's own error log.
    log: (importance, message) =>
      process.stderr.write(
        `entistore: LOG EVENT (${importance}): ${message.replace(/\n/g, ' ')}\n`,
      ),
    // CREATE THUMBNAIL and the other conversions: sharp, when installed (image-host.ts).
    images: imageHost(),
    // HTTP Request and HTTP Get: to the hosts --allow-http names, none by default.
    http: httpHost(hosts.allowHttp),
    // SMTPTransporter.send(): through the mail servers --allow-smtp names, none by default.
    smtp: smtpHost(hosts.allowSmtp),
    // LAUNCH EXTERNAL PROCESS: the programs --allow-exec names, in the project's folder.
    exec: execHost(hosts.allowExec, dirname(projectFolder)),
    ...(hosts.codeLimits === undefined ? {} : { limits: hosts.codeLimits }),
  }
  const runner = new fourD.ProjectRunner(compiled, hostOptions)
  const own = withKnownAttributes(
    fourD.projectFunctions(compiled, {
      ...hostOptions,
      dataClasses: new Set(names),
      computed: new Set(computed),
      leftOut: project.shadowed,
      runner,
    }),
    dataClasses,
    notes,
  )
  const summary =
    report.files.length === 0
      ? undefined
      : `${fourD.checkSummary(report)}${fourD.wouldFail(report) ? ` (entistore check --project ${projectFolder} lists them)` : ''}`
  return {
    functions: mergeFunctions(own, module),
    summary,
    facts: codeFacts(compiled, projectFolder),
    notes: notes.lines(),
    runner,
  }
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
