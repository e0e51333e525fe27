/**
 * @module A project's 4D code compiled: every class and method file parsed once, and compiled
 * once to know its problems (a line that does not parse, a command that cannot run here), as
 * `entistore check` lists them. A file with problems is compiled like the others: what cannot run
 * fails when it is reached, as in 4D's interpreter, never the class's other functions.
 *
 * Running needs a class store of its own for each datastore (the ORDA classes a class extends are
 * that datastore's): `instantiate` compiles the parsed files again into one, which costs the passes
 * and not the parse; the JavaScript of a function is made at its first call.
 *
 * The components the project loads are compiled with it: their classes are `cs.<namespace>` of
 * the host, their shared methods the host's, their code runs on a running context of its own
 * (component-runtime.ts). Their problems are theirs, not the project's.
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
import type { ComponentSources } from './component-sources.js'
import { componentEntry } from './component-runtime.js'
import type { Runtime } from '../runtime/context/runtime.js'
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

/** A component the project loads, as compiled with it. */
export interface CompiledComponent {
  readonly name: string
  readonly folder: string
  /** `cs.<namespace>`; null: its classes are not the host's. */
  readonly namespace: string | null
  /** Its code is compiled (a `.4DZ`): it cannot run here. */
  readonly compiled: boolean
  /** Its classes' names. */
  readonly classes: readonly string[]
  /** Its methods the host calls by name. */
  readonly shared: readonly string[]
}

export interface CompiledProject {
  readonly classes: readonly ProjectClass[]
  readonly methods: readonly ProjectMethod[]
  /** The components loaded with it (component-sources.ts). */
  readonly components: readonly CompiledComponent[]
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
  /** The components the project loads (`readProjectComponents`): their code is compiled too. */
  readonly components?: readonly ComponentSources[]
  /** The project's name, as `Get call chain` gives it. @default "" */
  readonly name?: string
}

/** What building a class store needs: the store's options, each file's session, the entry. */
type Build = (
  options: ClassStoreOptions,
  sessionOf: (file: string) => Session,
  enter?: (rt: Runtime) => Runtime,
) => { classes: ClassStore; methods: MethodRegistry }

export function compileProject(
  sources: readonly ProjectSource[],
  options: CompileProjectOptions = {},
): CompiledProject {
  const loaded = (options.components ?? []).map((c) => ({
    source: c,
    code: c.compiled ? undefined : compileCode(c.files, [], c.name),
  }))
  const shared = loaded.flatMap(({ source, code }) => (code === undefined ? [] : source.shared))
  const { classes, methods, build: buildOwn } = compileCode(sources, shared, options.name ?? '')
  // The components' stores first: each is `cs.<namespace>` of the host's, its shared methods the
  // host's methods, its functions run on a context of its own (component-runtime.ts).
  const build: Build = (storeOptions, sessionOf) => {
    const own = buildOwn(storeOptions, sessionOf)
    for (const { source, code } of loaded) {
      if (code === undefined) continue
      // The entry is the component's store's, made once the store is: its functions run later.
      let enter = (rt: Runtime): Runtime => rt
      const parts = code.build(
        storeOptions,
        (file) => new Session(file),
        (rt) => enter(rt),
      )
      enter = componentEntry(parts.classes, parts.methods)
      if (source.namespace !== null) own.classes.addComponent(source.namespace, parts.classes)
      for (const name of source.shared) {
        const fn = parts.methods.get(name)
        if (fn !== undefined && own.methods.get(name) === undefined) own.methods.define(name, fn)
      }
    }
    return own
  }
  // The problems are the passes', whatever the store: found once, here, with the classes named
  // that do not exist here.
  const sessions = new Map<string, Session>()
  // The project's own files: a component's problems are its own, its store is made to run.
  buildOwn({}, (file) => {
    const session = new Session(file)
    sessions.set(file, session)
    return session
  })
  const known = {
    cs: projectClassNames(
      [
        ...classes.map((c) => c.name),
        ...loaded.flatMap(({ source, code }) =>
          code === undefined || source.namespace === null ? [] : [source.namespace],
        ),
      ],
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
    components: loaded.map(({ source, code }) => ({
      name: source.name,
      folder: source.folder,
      namespace: source.namespace,
      compiled: source.compiled,
      classes: code?.classes.map((c) => c.name) ?? [],
      shared: code === undefined ? [] : source.shared,
    })),
    files: [...sessions.values()].map((s) => ({ file: s.file, problems: s.problems })),
    instantiate: (options = {}) => build(options, (file) => new Session(file)),
  }
}

/** The files of a project or a component parsed, and how to build a class store of them. */
function compileCode(
  sources: readonly ProjectSource[],
  otherMethods: readonly string[],
  database: string,
): { classes: ProjectClass[]; methods: ProjectMethod[]; build: Build } {
  const classes: ProjectClass[] = []
  const methods: ProjectMethod[] = []
  const methodNames = projectMethodNames([
    ...sources.filter((s) => s.kind === 'method').map((s) => nameOfFile(s.path)),
    ...otherMethods,
  ])
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
  const build: Build = (options, sessionOf, enter) => {
    const store = new ClassStore(options)
    for (const c of classes)
      compileClass(c.ast, store, {
        name: c.name,
        text: c.text,
        session: sessionOf(c.file),
        enter,
        database,
      })
    const registry = new MethodRegistry()
    for (const m of methods)
      registry.define(
        m.name,
        compileMethod(m.ast, {
          name: m.name,
          text: m.text,
          session: sessionOf(m.file),
          enter,
          database,
        }).fn,
      )
    return { classes: store, methods: registry }
  }
  return { classes, methods, build }
}
