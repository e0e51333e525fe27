/**
 * @module A project's own tests (issue 80): which of its 4D code is a test, by the conventions 4D
 * teams use, and the suites they make. No file is read here: the caller gives the compiled project
 * and, when it has one, the members of its Explorer folders (`folders.json`, testFolderMembers).
 *
 * - A **test method**: a project method whose name is `test` followed by `_`, a capital or a digit
 *   (`test_invoices`, `Test_Totals`, `testRental`; not `test`, the runner method of a framework,
 *   nor `testament`), or any method of a `Tests` folder.
 * - A **test class**: a class whose name ends with `Test` or `Tests` (`InvoiceTest`, the public
 *   frameworks' convention), or any class of a `Tests` folder, that is no ORDA class and no
 *   singleton. Its **test functions** are named as test methods are; `setup` runs once before
 *   them, `beforeEach` and `afterEach` around each, `teardown` once after: one instance of the
 *   class for them all, as the frameworks do.
 *
 * A team that names its tests otherwise gives patterns (4D's `@` wildcard, compared without case
 * as 4D compares names), which replace the default of the kinds they name.
 */
import type { CompiledProject, ProjectClass } from './compile-project.js'
import { classPlace, declaredFunctions } from './class-kinds.js'

/** How a team names its tests: each given kind's patterns replace its default. */
export interface TestConventions {
  /** Project methods that are tests (`check_@`). @default test_…, Test…, testX… */
  readonly methods?: readonly string[]
  /** Classes whose test functions are tests (`@Spec`). @default …Test, …Tests */
  readonly classes?: readonly string[]
  /** Functions of a test class that are tests (`should@`). @default as the methods */
  readonly functions?: readonly string[]
  /** Explorer folders whose methods and classes are all test code. @default Tests */
  readonly folders?: readonly string[]
}

/** The methods and classes of the test folders (testFolderMembers). */
export interface FolderMembers {
  readonly methods: ReadonlySet<string>
  readonly classes: ReadonlySet<string>
}

/** One test: a project method, or a function of a test class. */
export interface ProjectTest {
  /** `test_totals`, `InvoiceTest.test_total`: what a pattern on the command line matches. */
  readonly id: string
  readonly name: string
  /** The file, relative to the project's `Project` folder (`Sources/Methods/test_totals.4dm`). */
  readonly file: string
  /** The line of its declaration (a method: 1). */
  readonly line: number
}

/** The tests of one class, or the project's test methods (`className` undefined). */
export interface TestSuite {
  readonly className?: string
  readonly file?: string
  readonly tests: readonly ProjectTest[]
  /** Which of setup, teardown, beforeEach and afterEach the class declares. */
  readonly hooks: ReadonlySet<Hook>
}

export type Hook = 'setup' | 'teardown' | 'beforeEach' | 'afterEach'
const HOOKS: readonly Hook[] = ['setup', 'teardown', 'beforeEach', 'afterEach']

/** `test` then `_`, a capital or a digit: the default name of a test method or function. */
const TEST_NAME = /^[Tt]est(?:_|[A-Z0-9])/
/** A class of tests, by the frameworks' convention. */
const TEST_CLASS = /Tests?$/

/** A 4D name pattern (`@` any run of characters), compared without case, as 4D compares names. */
export function namePattern(pattern: string): RegExp {
  const body = pattern
    .split('@')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${body}$`, 'i')
}

const matcher = (patterns: readonly string[] | undefined, fallback: RegExp) => {
  if (patterns === undefined) return (name: string) => fallback.test(name)
  const res = patterns.map(namePattern)
  return (name: string) => res.some((re) => re.test(name))
}

/**
 * The members of the Explorer folders named `folders` (and of their subfolders) in a project's
 * `folders.json` as parsed (`{ "Tests": { "methods": [...], "classes": [...], "groups": [...] } }`).
 */
export function testFolderMembers(
  foldersJson: unknown,
  folders: readonly string[] = ['Tests'],
): FolderMembers {
  const methods = new Set<string>()
  const classes = new Set<string>()
  if (typeof foldersJson !== 'object' || foldersJson === null) return { methods, classes }
  const all = foldersJson as Record<string, unknown>
  const wanted = new Set(folders.map((f) => f.toLowerCase()))
  const seen = new Set<string>()
  const names = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  const visit = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    const folder = all[name]
    if (typeof folder !== 'object' || folder === null) return
    const f = folder as Record<string, unknown>
    for (const m of names(f.methods)) methods.add(m)
    for (const c of names(f.classes)) classes.add(c)
    for (const g of names(f.groups)) visit(g)
  }
  for (const name of Object.keys(all)) if (wanted.has(name.toLowerCase())) visit(name)
  return { methods, classes }
}

const NO_DATACLASS: ReadonlySet<string> = new Set()

/**
 * Whether a class is one REST reaches (the datastore's, an ORDA class, a singleton), as
 * class-kinds.ts's `classPlace` places it: never a test class.
 */
const isServed = (c: ProjectClass): boolean => classPlace(c, NO_DATACLASS) !== undefined

/**
 * The project's tests, as suites: its test methods first (one suite, when it has any), then each
 * test class's, in the order of their names.
 */
export function projectTests(
  project: CompiledProject,
  conventions: TestConventions = {},
  inFolders: FolderMembers = { methods: new Set(), classes: new Set() },
): TestSuite[] {
  const isTestMethod = matcher(conventions.methods, TEST_NAME)
  const isTestClass = matcher(conventions.classes, TEST_CLASS)
  const isTestFunction = matcher(conventions.functions, TEST_NAME)
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
  const suites: TestSuite[] = []
  const methods = project.methods
    .filter((m) => isTestMethod(m.name) || inFolders.methods.has(m.name))
    .sort(byName)
    .map((m): ProjectTest => ({ id: m.name, name: m.name, file: m.file, line: 1 }))
  if (methods.length > 0) suites.push({ tests: methods, hooks: new Set() })
  for (const c of [...project.classes].sort(byName)) {
    if (isServed(c) || !(isTestClass(c.name) || inFolders.classes.has(c.name))) continue
    const functions = declaredFunctions(c.ast)
    const tests = functions
      .filter((f) => isTestFunction(f.name))
      .map((f): ProjectTest => ({
        id: `${c.name}.${f.name}`,
        name: f.name,
        file: c.file,
        line: f.line,
      }))
    if (tests.length === 0) continue
    const declared = new Set(functions.map((f) => f.name))
    const hooks = new Set(HOOKS.filter((h) => declared.has(h)))
    suites.push({ className: c.name, file: c.file, tests, hooks })
  }
  return suites
}
