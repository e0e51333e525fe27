/**
 * @module `compileClass`: a class file (its text or its AST) made a Class object of a class store
 * (`cs`), each member a Function object whose code is made at its first call. The constructor,
 * functions, computed properties (`Function get`/`set`), declared properties with a value, and
 * the ORDA members (kept for the ORDA layer) are read here; a member line that did not parse is
 * reported, and when it was a `Function` line, that function exists and raises its syntax error
 * when called, while the class's other functions run.
 */
import type { ClassFileNode, FunctionNode } from '../ast/files.js'
import type { UnparsedNode } from '../ast/statements.js'
import { parse4d } from '../grammar/parse.js'
import type { ClassDefinition, OrdaMember } from '../runtime/context/class-object.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import type { ClassStore } from '../runtime/context/class-store.js'
import { FourDFunction } from '../runtime/context/function-object.js'
import { fourDError } from '../runtime/errors/fourd-error.js'
import { writingShared } from '../runtime/context/shared-functions.js'
import { analyzeUnit, lazyFunction, type CompileOptions } from './compile-method.js'
import { Session } from './session.js'
import { functionUnit, nameOfFile, type Unit } from './units.js'

export interface ClassOptions extends CompileOptions {
  /** The file's path with a text (`Project/Sources/Classes/Car.4dm`). */
  readonly file?: string
  /** The class's name; the file's by default. */
  readonly name?: string
}

export function compileClass(
  source: string | ClassFileNode,
  store: ClassStore,
  options: ClassOptions = {},
): ClassObject {
  const text = typeof source === 'string' ? source : options.text
  const file =
    typeof source === 'string' ? (options.file ?? 'Project/Sources/Classes/Class.4dm') : source.file
  const ast =
    typeof source === 'string'
      ? (parse4d(source, { file, kind: 'class' }).file as ClassFileNode)
      : source
  const session = options.session ?? new Session(file)
  return store.define(
    classDefinition(ast, options.name ?? nameOfFile(file), session, { ...options, text }),
  )
}

function classDefinition(
  ast: ClassFileNode,
  name: string,
  session: Session,
  options: CompileOptions,
): ClassDefinition {
  const make = (unit: Unit): FourDFunction =>
    lazyFunction(analyzeUnit(unit, session, options.text), options)
  let constructorFunction: FourDFunction | undefined
  let flags = { shared: false, singleton: false, sessionSingleton: false }
  const functions = new Map<string, FourDFunction>()
  const getters = new Map<string, FourDFunction>()
  const setters = new Map<string, FourDFunction>()
  const initializers: { name: string; value: FourDFunction }[] = []
  const orda: OrdaMember[] = []
  const properties = new Set<string>()
  // The `shared Function`s (and accessors): they write `This` as shared state.
  const sharedFunctions = new Set<FourDFunction>()
  const named = (
    map: Map<string, FourDFunction>,
    key: string,
    fn: FourDFunction,
    at: FunctionNode | UnparsedNode,
  ): void => {
    if (map.has(key) || (map === functions && properties.has(key)))
      session.error('declaration', `${key} is declared twice in the class`, at.loc)
    else map.set(key, fn)
  }
  for (const member of ast.members) {
    switch (member.kind) {
      case 'Constructor':
        if (constructorFunction !== undefined) {
          session.error('declaration', 'A class has one constructor', member.loc)
          break
        }
        flags = {
          shared: member.shared || member.session,
          singleton: member.singleton && !member.session,
          sessionSingleton: member.session,
        }
        constructorFunction = make({
          kind: 'constructor',
          name: `${name}.constructor`,
          file: ast.file,
          line: member.loc.start.line,
          params: member.params,
          result: null,
          body: member.body,
          inClass: true,
          expression: null,
        })
        break
      case 'Property':
        for (const p of member.names) properties.add(p)
        if (member.init !== null)
          initializers.push({
            name: member.names[0]!,
            value: make({
              kind: 'initializer',
              name: `${name}.${member.names[0]!}`,
              file: ast.file,
              line: member.loc.start.line,
              params: [],
              result: null,
              body: [],
              inClass: true,
              expression: member.init,
            }),
          })
        break
      case 'Function': {
        const fn = make(functionUnit(ast, name, member))
        if (member.shared) sharedFunctions.add(fn)
        if (member.functionKind === 'plain') named(functions, member.name, fn, member)
        else if (member.functionKind === 'get') named(getters, member.name, fn, member)
        else if (member.functionKind === 'set') named(setters, member.name, fn, member)
        else
          orda.push({
            kind: member.functionKind,
            name: member.name,
            attribute: member.attribute,
            fn,
            path: undefined,
          })
        break
      }
      case 'Alias':
        orda.push({
          kind: 'alias',
          name: member.name,
          attribute: null,
          fn: undefined,
          path: member.path,
        })
        break
      case 'Unparsed': {
        session.error('syntax', member.message, member.at)
        const broken = brokenFunction(member)
        if (broken !== undefined) {
          const fnName = `${name}.${broken.name}`
          const detail = `${member.message}: ${member.text.trim()}`
          const fn = new FourDFunction(fnName, () => {
            throw fourDError('SyntaxError', { detail }).at(fnName, member.at.line, ast.file)
          })
          named(
            broken.kind === 'get' ? getters : broken.kind === 'set' ? setters : functions,
            broken.name,
            fn,
            member,
          )
        }
        break
      }
    }
  }
  for (const key of functions.keys())
    if (properties.has(key))
      session.error('declaration', `${key} is both a property and a function of the class`, ast.loc)
  // What writes shared state tells it (runtime/context/shared-functions.ts): a shared function, and any function of a
  // process singleton (the request's own state, which its functions change).
  const processSingleton = flags.singleton && !flags.shared
  for (const map of [functions, getters, setters])
    for (const [key, fn] of map)
      if (processSingleton || sharedFunctions.has(fn)) map.set(key, writingShared(fn))
  return {
    name,
    file: ast.file,
    superclass: ast.extends?.superclass.path ?? null,
    ...flags,
    constructorFunction,
    functions,
    getters,
    setters,
    initializers,
    orda,
  }
}

/** The function a member line that did not parse declares, when it reads as a `Function` line. */
export function brokenFunction(member: UnparsedNode): { name: string; kind: string } | undefined {
  const m =
    /^\s*(?:(?:exposed|local|server|shared|onHTTPGet)\s+)*Function\s+(?:(get|set)\s+)?([A-Za-z_$][\w$]*)/i.exec(
      member.text,
    )
  return m === null ? undefined : { name: m[2]!, kind: (m[1] ?? 'plain').toLowerCase() }
}
