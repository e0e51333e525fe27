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
import { codeFunctions, mergeFunctions, type CodeDataClass } from './code-functions.js'
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
  const { functions: own, runner } = await codeFunctions(
    project,
    dataClasses,
    computed,
    hostOptions,
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
