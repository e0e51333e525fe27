/**
 * @module What a project's class files declare that the catalog shows, read from their trees
 * (the grammar's, parsed once by compile-project.ts): the exposed functions of the datastore, of
 * each dataclass's DataClass, Entity and EntitySelection classes and of the shared and session
 * singletons; the computed attributes (`Function get`, in every form 4D accepts: `($event :
 * Object) -> $r : Text`, `() : Text`, `->$r : Object`, no parentheses) and aliases (`Alias`) each
 * Entity class adds; and where a DataClass class restricts its reads. Each with its file, line and
 * column, so that a model error or a note names the line that caused it.
 */
import type { AttributeJson, MethodJson, SingletonJson, ValueType } from '@entistore/core'
import type { FunctionNode } from '../ast/files.js'
import { classPlace, declaredFunctions, type OrdaKind } from './class-kinds.js'
import type { CompiledProject, ProjectClass } from './compile-project.js'

/** A place in a class file (`Sources/Classes/CarEntity.4dm`, as its source names it). */
export interface DeclarationPlace {
  readonly file: string
  readonly line: number
  readonly column: number
}

/** What the classes declare that is not served as 4D would serve it, at its place. */
export interface DeclarationNote extends DeclarationPlace {
  readonly what: string
  readonly where: string
}

export interface ProjectDeclarations {
  /** The datastore's exposed functions (its `DataStoreImplementation` class). */
  readonly dataStore: readonly MethodJson[]
  /** Each dataclass's exposed functions (its DataClass, Entity and Selection classes). */
  readonly dataClasses: ReadonlyMap<string, readonly MethodJson[]>
  /** The computed attributes and aliases each dataclass's Entity class declares. */
  readonly attributes: ReadonlyMap<string, readonly AttributeJson[]>
  readonly singletons: readonly SingletonJson[]
  /** The dataclasses whose DataClass class declares `Function event restrict`, and where. */
  readonly restricts: readonly (DeclarationPlace & { readonly dataClass: string })[]
  /** Where each declaration is: `Car.label`, `Car.raise`, `$singleton.Pricing.quote`, `$ds.fn`. */
  readonly places: ReadonlyMap<string, DeclarationPlace>
  /**
   * The functions of a dataclass's classes named like one of its attributes (`Car.model`): the
   * attribute keeps the name, the function is left out (projectFunctions' `leftOut`) and noted.
   */
  readonly shadowed: ReadonlySet<string>
  readonly notes: readonly DeclarationNote[]
}

const APPLY_TO: Readonly<Record<OrdaKind, string>> = {
  dataClass: 'dataClass',
  entity: 'entity',
  entitySelection: 'entityCollection',
}

// 4D's declaration types, as the catalog types a computed attribute's value.
const VALUE_TYPES: Readonly<Record<string, ValueType>> = {
  text: 'string',
  string: 'string',
  integer: 'long',
  longint: 'long',
  real: 'number',
  number: 'number',
  boolean: 'bool',
  date: 'date',
  time: 'duration',
  object: 'object',
  collection: 'object',
  variant: 'object',
  picture: 'image',
  blob: 'blob',
  '4d.blob': 'blob',
}

/**
 * The catalog type of a getter's declared result: a value type, a dataclass (`cs.CarEntity`: a
 * getter of an entity) or its selection (`cs.CarSelection`); `object` when undeclared (4D's
 * Variant) or of another class; undefined for an ORDA type of no dataclass served.
 */
function getterType(node: FunctionNode, dataClasses: ReadonlySet<string>): string | undefined {
  const path = node.result?.type?.path
  if (path === undefined) return 'object'
  const value = VALUE_TYPES[path.join('.').toLowerCase()]
  if (value !== undefined) return value
  if (path.length === 2 && path[0] === 'cs') {
    const name = path[1]!
    for (const [suffix, kept] of [
      ['Entity', ''],
      ['Selection', 'Selection'],
    ] as const)
      if (name.endsWith(suffix) && dataClasses.has(name.slice(0, -suffix.length)))
        return name.slice(0, -suffix.length) + kept
    if (/(Entity|Selection)$/.test(name)) return undefined
  }
  return 'object'
}

const COMPUTED_KINDS: readonly string[] = ['get', 'set', 'query', 'orderBy']

/** The computed attributes and aliases of an Entity class. */
function entityAttributes(
  c: ProjectClass,
  dataClass: string,
  dataClasses: ReadonlySet<string>,
  place: (line: number, column: number) => DeclarationPlace,
  out: {
    attributes: AttributeJson[]
    places: Map<string, DeclarationPlace>
    notes: DeclarationNote[]
  },
): void {
  const computed = new Map<string, FunctionNode[]>()
  for (const m of c.ast.members) {
    if (m.kind === 'Alias') {
      out.attributes.push({
        name: m.name,
        kind: 'alias',
        path: m.path.join('.'),
        ...(m.exposed ? {} : { exposed: false }),
      })
      out.places.set(`${dataClass}.${m.name}`, place(m.loc.start.line, m.loc.start.column))
    } else if (m.kind === 'Function' && COMPUTED_KINDS.includes(m.functionKind))
      computed.set(m.name, [...(computed.get(m.name) ?? []), m])
  }
  for (const [name, members] of computed) {
    const get = members.find((m) => m.functionKind === 'get')
    const at = place((get ?? members[0]!).loc.start.line, (get ?? members[0]!).loc.start.column)
    const type = get === undefined ? undefined : getterType(get, dataClasses)
    if (type === undefined) {
      out.notes.push({
        ...at,
        what:
          get === undefined
            ? 'computed attributes without a getter are not served'
            : 'computed attributes of an entity or a selection of no dataclass served are not served',
        where: `${c.file}: ${name}`,
      })
      continue
    }
    out.attributes.push({
      name,
      kind: 'calculated',
      type,
      ...(get!.exposed ? {} : { exposed: false }),
      ...(members.some((m) => m.functionKind === 'set') ? { readOnly: false } : {}),
    } as AttributeJson)
    out.places.set(`${dataClass}.${name}`, at)
  }
}

/**
 * The declarations of `project` for a datastore whose dataclasses are `dataClasses`, each with
 * the names of the attributes its structure gives it.
 */
export function projectDeclarations(
  project: CompiledProject,
  structure: ReadonlyMap<string, ReadonlySet<string>>,
): ProjectDeclarations {
  const dataClasses = new Set(structure.keys())
  const dataStore: MethodJson[] = []
  const byDataClass = new Map<string, MethodJson[]>()
  const attributes = new Map<string, AttributeJson[]>()
  const singletons: SingletonJson[] = []
  const restricts: (DeclarationPlace & { dataClass: string })[] = []
  const places = new Map<string, DeclarationPlace>()
  const notes: DeclarationNote[] = []
  const shadowed = new Set<string>()
  // A dataclass's attribute names: its structure's, and the computed attributes and aliases of
  // its Entity class (read first: a function of its DataClass class may be named like one).
  const attributeNames = new Map<string, Set<string>>()
  for (const c of project.classes) {
    const kind = classPlace(c, dataClasses)
    if (kind === undefined || kind === 'orphan' || kind.kind !== 'entity') continue
    const names = attributeNames.get(kind.dataClass) ?? new Set(structure.get(kind.dataClass))
    for (const m of c.ast.members)
      if (m.kind === 'Alias' || (m.kind === 'Function' && COMPUTED_KINDS.includes(m.functionKind)))
        names.add(m.name)
    attributeNames.set(kind.dataClass, names)
  }
  for (const c of [...project.classes].sort((a, b) => a.name.localeCompare(b.name))) {
    const place = (line: number, column: number): DeclarationPlace => ({
      file: c.file,
      line,
      column,
    })
    const kind = classPlace(c, dataClasses)
    if (kind === undefined) continue
    if (kind === 'orphan') {
      notes.push({
        ...place(1, 1),
        what: 'ORDA classes of no dataclass served are left out',
        where: c.file,
      })
      continue
    }
    const taken =
      kind.kind === 'dataStore' || kind.kind === 'singleton'
        ? undefined
        : (attributeNames.get(kind.dataClass) ?? structure.get(kind.dataClass))
    const functions = declaredFunctions(c.ast).filter((f) => {
      if (!taken?.has(f.name)) return true
      const name = `${(kind as { dataClass: string }).dataClass}.${f.name}`
      shadowed.add(name)
      notes.push({
        ...place(f.line, f.column),
        what: 'functions named like an attribute of their dataclass are left out (the attribute keeps the name)',
        where: name,
      })
      return false
    })
    // Only exposed functions are in the catalog (4D answers "Unknown member method" for others).
    const exposed = functions.filter((f) => f.exposed)
    const methods = exposed.map((f): MethodJson => ({
      name: f.name,
      ...(kind.kind === 'singleton'
        ? {}
        : { applyTo: kind.kind === 'dataStore' ? 'dataStore' : APPLY_TO[kind.kind] }),
      allowedOnHTTPGET: f.onHTTPGet,
      exposed: true,
      declaredIn: c.file,
    }))
    const owner =
      kind.kind === 'dataStore'
        ? '$ds'
        : kind.kind === 'singleton'
          ? `$singleton.${c.name}`
          : kind.dataClass
    for (const f of exposed) places.set(`${owner}.${f.name}`, place(f.line, f.column))
    if (kind.kind === 'dataStore') dataStore.push(...methods)
    else if (kind.kind === 'singleton') {
      // 4D lists a singleton when it has an exposed function.
      if (methods.length > 0) singletons.push({ name: c.name, methods })
    } else {
      byDataClass.set(kind.dataClass, [...(byDataClass.get(kind.dataClass) ?? []), ...methods])
      if (kind.kind === 'entity') {
        const out = { attributes: [] as AttributeJson[], places, notes }
        entityAttributes(c, kind.dataClass, dataClasses, place, out)
        if (out.attributes.length > 0)
          attributes.set(kind.dataClass, [
            ...(attributes.get(kind.dataClass) ?? []),
            ...out.attributes,
          ])
      }
      if (kind.kind === 'dataClass') {
        // A restrict line that does not parse is a restrict all the same: its dataclass is then
        // served closed, never open (entistore's restrict-events.ts).
        const restrict = c.ast.members.find((m) =>
          m.kind === 'Function'
            ? m.functionKind === 'event' && m.name.toLowerCase() === 'restrict'
            : m.kind === 'Unparsed' && /^\s*Function\s+event\s+restrict\b/i.test(m.text),
        )
        if (restrict !== undefined)
          restricts.push({
            dataClass: kind.dataClass,
            ...place(restrict.loc.start.line, restrict.loc.start.column),
          })
      }
    }
  }
  return {
    dataStore,
    dataClasses: byDataClass,
    attributes,
    singletons,
    restricts,
    places,
    shadowed,
    notes,
  }
}
