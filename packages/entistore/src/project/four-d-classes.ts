/**
 * @module The declarations of a 4D project's class files (Project/Sources/Classes/*.4dm) that the
 * REST interface shows: the exposed functions of the ORDA classes (DataStore, a dataclass, its
 * Entity and its Selection class) and of shared and session singletons, listed in the catalog as
 * 4D lists them; and the computed attributes (`Function get`) and aliases (`Alias`) an Entity class
 * adds to its dataclass. The code is not read here: four-d-code.ts runs the class functions and
 * the computed attributes' functions (@entistore/4d); a model file written from these declarations
 * holds no code, and there a
 * function a `--functions` module does not give answers 9107, naming its file.
 *
 * Only declarations are read, a line at a time, after the comments are taken out: 4D declares
 * them at the start of a line (`exposed Function raise($rate : Real) : cs.EmployeeEntity`), and
 * nothing else in a class file changes what a client sees. Entity events and a
 * DataClass class's `Function event restrict` are 4D code, run by four-d-code.ts; the place of a
 * restrict is kept, so that its dataclass is never served open (restrict-events.ts).
 */
import type { AttributeJson, MethodJson, SingletonJson, ValueType } from '@entistore/core'
import { Notes } from './notes.js'
import type { RestrictEvent } from './restrict-events.js'

/** One class file: its name (the class's) and its text. */
export interface ClassFile {
  /** `EmployeeEntity`, from `EmployeeEntity.4dm`. */
  readonly name: string
  /** The path to name in messages and in `declaredIn`: `Classes/EmployeeEntity.4dm`. */
  readonly path: string
  readonly text: string
}

export interface ClassDeclarations {
  /** The datastore's exposed functions (DataStore.4dm). */
  readonly dataStore: readonly MethodJson[]
  /** Each dataclass's exposed functions (its DataClass, Entity and Selection classes). */
  readonly dataClasses: ReadonlyMap<string, readonly MethodJson[]>
  /** The computed attributes and aliases each dataclass's Entity class declares. */
  readonly attributes: ReadonlyMap<string, readonly AttributeJson[]>
  readonly singletons: readonly SingletonJson[]
  /** The dataclasses whose DataClass class declares `Function event restrict`, and where. */
  readonly restricts: readonly RestrictEvent[]
  /** What the classes declare that Entistore does not serve as 4D would: one line each. */
  readonly notes: readonly string[]
}

/** The class a class file extends, by the applyTo of its functions in the catalog. */
const ORDA_CLASSES: Readonly<Record<string, { applyTo: string; suffix: string }>> = {
  DataClass: { applyTo: 'dataClass', suffix: '' },
  Entity: { applyTo: 'entity', suffix: 'Entity' },
  EntitySelection: { applyTo: 'entityCollection', suffix: 'Selection' },
}

// 4D's declaration types, as the catalog types a computed attribute's value.
const VALUE_TYPES: Readonly<Record<string, ValueType>> = {
  text: 'string',
  integer: 'long',
  real: 'number',
  boolean: 'bool',
  date: 'date',
  time: 'duration',
  object: 'object',
  collection: 'object',
  picture: 'image',
  blob: 'blob',
  '4d.blob': 'blob',
}

/** The text without its comments (`// …` to the end of the line, `/* … *\/`), lines kept. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|\s)\/\/.*$/gm, '$1')
}

// `exposed onHTTPGet Function raise(…)`, `local Function get fullName(…) -> $r : Text`.
const FUNCTION =
  /^\s*((?:(?:exposed|local|shared|onHTTPGet)\s+)*)Function\s+(?:(get|set|query|orderBy|event)\s+)?([\p{L}_][\p{L}\p{N}_]*)(.*)$/iu
// `exposed Alias employerName employer.name`
const ALIAS =
  /^\s*((?:exposed\s+)?)Alias\s+([\p{L}_][\p{L}\p{N}_]*)\s+([\p{L}_][\p{L}\p{N}_.]*)\s*$/iu
const EXTENDS = /^\s*Class\s+extends\s+([\w.]+)/im
// `shared singleton Class constructor()`, `session singleton Class constructor`
const SINGLETON = /^\s*(shared|session)?\s*singleton\s+Class\s+constructor\b/im

/** The type a computed attribute's getter returns (`: Text` or `-> $r : Text`), or undefined. */
function returnType(rest: string): string | undefined {
  const m = /\)\s*(?:->\s*\$?\w+\s*)?:\s*([\w.]+)\s*$/.exec(rest)
  return m?.[1]
}

interface Declared {
  readonly functions: MethodJson[]
  readonly attributes: AttributeJson[]
  /** The place of a DataClass class's `Function event restrict` (1-based), if it has one. */
  readonly restrict: { readonly line: number; readonly column: number } | undefined
}

/** The REST declarations of one class file whose functions apply to `applyTo`. */
function declarations(file: ClassFile, applyTo: string | undefined, notes: Notes): Declared {
  const functions: MethodJson[] = []
  const computed = new Map<string, { exposed: boolean; type?: string; members: string[] }>()
  const attributes: AttributeJson[] = []
  let restrict: Declared['restrict']
  for (const [i, line] of withoutComments(file.text).split('\n').entries()) {
    const alias = ALIAS.exec(line)
    if (alias) {
      if (applyTo !== 'entity') continue
      attributes.push({
        name: alias[2]!,
        kind: 'alias',
        path: alias[3]!,
        ...(alias[1]!.trim() === '' ? { exposed: false } : {}),
      })
      continue
    }
    const m = FUNCTION.exec(line)
    if (!m) continue
    const modifiers = m[1]!.toLowerCase().split(/\s+/)
    const exposed = modifiers.includes('exposed')
    const member = m[2]?.toLowerCase()
    const name = m[3]!
    if (member === 'event') {
      // Events run (four-d-code.ts); a restrict is kept with its place, so that its dataclass
      // is closed if its code cannot be given to core (restrict-events.ts).
      if (applyTo === 'dataClass' && name.toLowerCase() === 'restrict')
        restrict ??= { line: i + 1, column: line.search(/\S/) + 1 }
      continue
    }
    if (member !== undefined) {
      if (applyTo !== 'entity') continue
      const c = computed.get(name) ?? { exposed: false, members: [] }
      c.members.push(member)
      if (member === 'get') {
        c.exposed = exposed
        const t = returnType(m[4]!)
        if (t !== undefined) c.type = t
      }
      computed.set(name, c)
      continue
    }
    // Only exposed functions are in the catalog (4D answers "Unknown member method" for the others).
    if (!exposed) continue
    functions.push({
      name,
      ...(applyTo === undefined ? {} : { applyTo }),
      allowedOnHTTPGET: modifiers.includes('onhttpget'),
      exposed: true,
      declaredIn: file.path,
    })
  }
  for (const [name, c] of computed) {
    const type = c.type === undefined ? undefined : VALUE_TYPES[c.type.toLowerCase()]
    if (!c.members.includes('get') || type === undefined) {
      notes.add(
        'computed attributes without a getter of a scalar, object or collection type are not served',
        `${file.path}: ${name}${c.type === undefined ? '' : ` (${c.type})`}`,
      )
      continue
    }
    attributes.push({
      name,
      kind: 'calculated',
      type,
      ...(c.exposed ? {} : { exposed: false }),
      ...(c.members.includes('set') ? { readOnly: false } : {}),
    })
  }
  return { functions, attributes, restrict }
}

/**
 * The declarations of `files` for a datastore whose dataclasses are `dataClasses`: a class of an
 * ORDA kind whose dataclass is not served (a trashed table, no primary key) is noted, not read.
 */
export function readClassDeclarations(
  files: readonly ClassFile[],
  dataClasses: ReadonlySet<string>,
): ClassDeclarations {
  const notes = new Notes()
  const dataStore: MethodJson[] = []
  const byDataClass = new Map<string, MethodJson[]>()
  const attributes = new Map<string, AttributeJson[]>()
  const singletons: SingletonJson[] = []
  const restricts: RestrictEvent[] = []
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    const text = withoutComments(file.text)
    const base = EXTENDS.exec(text)?.[1]
    if (base === 'DataStoreImplementation') {
      dataStore.push(...declarations(file, 'dataStore', notes).functions)
      continue
    }
    const orda = base === undefined ? undefined : ORDA_CLASSES[base]
    if (orda) {
      const dataClass = file.name.endsWith(orda.suffix)
        ? file.name.slice(0, file.name.length - orda.suffix.length)
        : ''
      if (!dataClasses.has(dataClass)) {
        notes.add('ORDA classes of no dataclass served are left out', file.path)
        continue
      }
      const declared = declarations(file, orda.applyTo, notes)
      if (declared.restrict) restricts.push({ dataClass, file: file.path, ...declared.restrict })
      byDataClass.set(dataClass, [...(byDataClass.get(dataClass) ?? []), ...declared.functions])
      if (declared.attributes.length > 0)
        attributes.set(dataClass, [...(attributes.get(dataClass) ?? []), ...declared.attributes])
      continue
    }
    if (SINGLETON.exec(text)?.[1] !== undefined) {
      const methods = declarations(file, undefined, notes).functions
      // 4D lists a singleton when it has an exposed function.
      if (methods.length > 0) singletons.push({ name: file.name, methods })
    }
  }
  return {
    dataStore,
    dataClasses: byDataClass,
    attributes,
    singletons,
    restricts,
    notes: notes.lines(),
  }
}
