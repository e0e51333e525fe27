/**
 * @module What runs a 4D project's code wherever JavaScript runs, a page included (issue 81): the
 * compiler of its source texts, the runner of its class functions and the functions a datastore
 * takes. It imports no Node module (the package's main entry adds the readers of a project's
 * folder, which need `node:fs`); the few commands that need one ask for it when they run
 * (runtime/platform/node-builtins.ts), and where there is none raise `NotSupported` (9414), or
 * run without their bound (a regular expression).
 */
export {
  compileProject,
  type CompiledComponent,
  type CompileProjectOptions,
  type CompiledProject,
  type FileProblems,
  type ProjectClass,
  type ProjectMethod,
} from './project/compile-project.js'
export type { ProjectSource } from './project/sources.js'
export {
  checkReport,
  checkSummary,
  wouldFail,
  type CheckReport,
  type FileCheck,
} from './project/check-report.js'
export { projectFunctions, type ProjectFunctionsOptions } from './project/project-functions.js'
export {
  ProjectRunner,
  type ProjectProcess,
  type ProjectRunnerOptions,
} from './project/project-runner.js'
export { DEFAULT_LIMITS, type CodeLimits } from './runtime/values/limits.js'
export type {
  EventLog,
  ExecHost,
  HttpHost,
  ImageHost,
  SmtpHost,
  WebServerHost,
} from './runtime/context/command-context.js'
export type { FileHost } from './runtime/context/file-host.js'
