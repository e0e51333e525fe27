/**
 * @module A project's 4D code compiled: every class and method file parsed once, and compiled
 * once to know its problems (a line that does not parse, a command that cannot run here), as
 * `entistore check` lists them. A file with problems is compiled like the others: what cannot run
 * fails when it is reached, as in 4D's interpreter, never the class's other functions.
 *
 * Running needs a class store of its own for each datastore (the ORDA classes a class extends are
 * that datastore's): `instantiate` compiles the parsed files again into one, which costs the passes
 * and not the parse; the JavaScript of a function is made at its first call.
 */
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import { compileClass } from '../compile/compile-class.js'
import { compileMethod } from '../compile/compile-method.js'
import { Session, type Problem } from '../compile/session.js'
import { nameOfFile } from '../compile/units.js'
import { parse4d, projectMethodNames } from '../grammar/parse.js'
import {
  BuiltinClassStore,
  ClassStore,
  type ClassStoreOptions,
} from '../runtime/context/class-store.js'
import { MethodRegistry } from '../runtime/context/methods.js'
import type { ProjectSource } from './sources.js'
import { FOUR_D_NAMES, ORDA_KINDS } from '../orda/builtin-classes.js'
import { projectClassNames, reportUnknownClasses } from './class-references.js'
import { reportProjectWarnings } from './project-warnings.js'

/** One class file: its name (the file's), the class it extends, and its tree. */
export interface ProjectClass {
  readonly name: string
  readonly file: string
  /** `['DataClass']`, `['cs', 'Person']`; null for a class that extends none. */
  readonly superclass: readonly string[] | null
  readonly ast: ClassFileNode
  readonly text: string
}

export interface ProjectMethod {
  readonly name: string
  readonly file: string
  readonly ast: MethodFileNode
  readonly text: string
}

/** The problems of one file, in the order of the file. */
export interface FileProblems {
  readonly file: string
  readonly problems: readonly Problem[]
}

export interface CompiledProject {
  readonly classes: readonly ProjectClass[]
  readonly methods: readonly ProjectMethod[]
  /** Every file, with its problems (none for a clean file). */
  readonly files: readonly FileProblems[]
  /** A class store and project methods to run the code, the ORDA parents from `options`. */
  instantiate(options?: ClassStoreOptions): { classes: ClassStore; methods: MethodRegistry }
}

export interface CompileProjectOptions {
  /**
   * The structure's dataclasses, whose ORDA classes `cs.` names (`cs.CarEntity`); none for a
   * folder of class files checked before its structure.
   */
  readonly dataClasses?: readonly string[]
}

export function compileProject(
  sources: readonly ProjectSource[],
  options: CompileProjectOptions = {},
): CompiledProject {
  const classes: ProjectClass[] = []
  const methods: ProjectMethod[] = []
  const methodNames = projectMethodNames(
    sources.filter((s) => s.kind === 'method').map((s) => nameOfFile(s.path)),
  )
  for (const source of sources) {
    const { path: file, text } = source
    const ast = parse4d(text, { file, kind: source.kind, methods: methodNames }).file
    if (ast.kind === 'ClassFile')
      classes.push({
        name: nameOfFile(file),
        file,
        superclass: ast.extends?.superclass.path ?? null,
        ast,
        text,
      })
    else methods.push({ name: nameOfFile(file), file, ast, text })
  }
  const build = (
    options: ClassStoreOptions,
    sessionOf: (file: string) => Session,
  ): { classes: ClassStore; methods: MethodRegistry } => {
    const store = new ClassStore(options)
    for (const c of classes)
      compileClass(c.ast, store, { name: c.name, text: c.text, session: sessionOf(c.file) })
    const registry = new MethodRegistry()
    for (const m of methods)
      registry.define(
        m.name,
        compileMethod(m.ast, { name: m.name, text: m.text, session: sessionOf(m.file) }).fn,
      )
    return { classes: store, methods: registry }
  }
  // The problems are the passes', whatever the store: found once, here, with the classes named
  // that do not exist here.
  const sessions = new Map<string, Session>()
  build({}, (file) => {
    const session = new Session(file)
    sessions.set(file, session)
    return session
  })
  const known = {
    cs: projectClassNames(
      classes.map((c) => c.name),
      options.dataClasses ?? [],
    ),
    // The built-in store's classes (`4D.File`, `4D.Function`…) and ORDA's (`4D.Entity`…), which
    // are parents too.
    fourD: new Set([...new BuiltinClassStore().names(), ...Object.keys(FOUR_D_NAMES)]),
    fourDParents: new Set<string>(ORDA_KINDS),
  }
  for (const unit of [...classes, ...methods])
    reportUnknownClasses(unit.ast, known, sessions.get(unit.file)!)
  // Without a structure (a folder of class files checked alone) `ds.` cannot be judged.
  if (options.dataClasses !== undefined)
    reportProjectWarnings({ dataClasses: new Set(options.dataClasses), classes, methods }, (file) =>
      sessions.get(file)!,
    )
  return {
    classes,
    methods,
    files: [...sessions.values()].map((s) => ({ file: s.file, problems: s.problems })),
    instantiate: (options = {}) => build(options, (file) => new Session(file)),
  }
}
