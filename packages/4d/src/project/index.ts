/**
 * @module A 4D project's code: its class and method files read (sources.ts), compiled with their
 * problems (compile-project.ts), reported as `entistore check` says them (check-report.ts), and
 * its class functions made the datastore's functions (project-functions.ts).
 */
export { readProjectSources, type ProjectSource, type ProjectSources } from './sources.js'
export {
  readProjectComponents,
  type ComponentSearch,
  type ComponentSources,
  type MissingComponent,
  type ProjectComponents,
} from './component-sources.js'
export {
  compileProject,
  type CompiledComponent,
  type CompileProjectOptions,
  type CompiledProject,
  type FileProblems,
  type ProjectClass,
  type ProjectMethod,
} from './compile-project.js'
export {
  checkReport,
  checkSummary,
  problemLines,
  wouldFail,
  type CheckReport,
  type FileCheck,
} from './check-report.js'
export { projectFunctions, type ProjectFunctionsOptions } from './project-functions.js'
export {
  projectDeclarations,
  type DeclarationNote,
  type DeclarationPlace,
  type ProjectDeclarations,
} from './declarations.js'
export { withoutOrda } from './without-orda.js'
export { projectFiles } from './project-files.js'
export { executableLines } from './executable-lines.js'
export { ProjectRunner, type ProjectProcess, type ProjectRunnerOptions } from './project-runner.js'
export {
  namePattern,
  projectTests,
  testFolderMembers,
  type FolderMembers,
  type Hook,
  type ProjectTest,
  type TestConventions,
  type TestSuite,
} from './project-tests.js'
export {
  runSteps,
  runSuite,
  SuiteRun,
  type SuiteSteps,
  type RunSuiteOptions,
  type TestFailure,
  type TestResult,
  type TestStatus,
} from './test-run.js'
