/**
 * @module The values of entities as plain objects and collections: 4D's `extract()`,
 * `toCollection()` and `distinctPaths()` of a selection, and `toObject()` of one entity. Values
 * are read with `entity.get()`, so what the acting session may not read is refused here as
 * anywhere.
 *
 * It takes the entities and their dataclass by what it reads of them (members/member-class.ts,
 * members/entity-objects.ts), not by the public classes, which project through this file.
 */
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef } from '../../schema/definitions.js'
import type { EntityReader } from '../members/entity-objects.js'
import type { MemberClass } from '../members/member-class.js'

/** 4D's `ck keep null` option of `extract(attributePath; option)`. */
export interface ExtractOptions {
  /** Keep entities whose value is null, as null elements. @default false */
  readonly keepNull?: boolean
}

/** 4D's `dk with primary key` and `dk with stamp` options of `toCollection()`. */
export interface ToCollectionOptions {
  /** Add `__KEY` to each object. @default false */
  readonly withKey?: boolean
  /** Add `__STAMP` to each object. @default false */
  readonly withStamp?: boolean
}

type Plain = Record<string, unknown>

// A selection's members, as a relatedEntities attribute gives them.
type Listed = { toArray(): readonly EntityReader[] }

/**
 * Whether `path` can be read from the entities of `dc`: attributes through relatedEntity steps,
 * then properties of an object attribute. 4D answers an empty collection for an invalid path.
 */
function validPath(dc: MemberClass, path: readonly string[]): boolean {
  let def = dc.def
  for (let i = 0; i < path.length; i++) {
    const attr = def.attributesByName.get(path[i]!)
    if (!attr) return false
    if (i === path.length - 1) return true
    if (attr.kind === 'relatedEntity') def = dc.datastore.dataClass(attr.target).def
    else return attr.kind === 'storage' && attr.type === 'object'
  }
  return path.length > 0
}

/** The value at `path` of `entity`: relations followed, object properties read; null when missing. */
function valueAt(entity: EntityReader, path: readonly string[]): unknown {
  let current: unknown = entity
  for (const step of path) {
    if (current === null || current === undefined) return null
    if (isEntity(current)) current = current.get(step)
    else if (typeof current === 'object' && !Array.isArray(current))
      current = (current as Plain)[step]
    else return null
  }
  return current ?? null
}

// Entities are told apart from object values by their dataclass (no run-time import of Entity).
const isEntity = (v: unknown): v is EntityReader =>
  typeof v === 'object' && v !== null && 'dataClass' in v && 'rowId' in v

/** 4D's `extract(attributePath {; ck keep null})`: one value an entity, nulls left out unless kept. */
export function extractValues(
  dc: MemberClass,
  entities: Iterable<EntityReader>,
  attributePath: string,
  options: ExtractOptions = {},
): unknown[] {
  const path = attributePath.split('.')
  if (!validPath(dc, path)) return []
  const out: unknown[] = []
  for (const e of entities) {
    const v = valueAt(e, path)
    if (v !== null || options.keepNull === true) out.push(v)
  }
  return out
}

/**
 * 4D's `extract(attributePath; targetPath {; …})`: an object an entity, each valid pair's value
 * (nulls kept) at its target path.
 */
export function extractObjects(
  dc: MemberClass,
  entities: Iterable<EntityReader>,
  pairs: readonly string[],
): Plain[] {
  const valid: [string[], string[]][] = []
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const path = pairs[i]!.split('.')
    if (validPath(dc, path)) valid.push([path, pairs[i + 1]!.split('.')])
  }
  const out: Plain[] = []
  for (const e of entities) {
    const item: Plain = {}
    for (const [path, target] of valid) setAt(item, target, valueAt(e, path))
    out.push(item)
  }
  return out
}

function setAt(target: Plain, path: readonly string[], value: unknown): void {
  let at = target
  for (const step of path.slice(0, -1)) {
    const next = at[step]
    at = typeof next === 'object' && next !== null ? (next as Plain) : (at[step] = {} as Plain)
  }
  at[path[path.length - 1]!] = value
}

// A filter as a tree: each name is taken whole (true), with all its properties ('*'), or with
// some of them (a subtree).
type Filter = Map<string, true | '*' | Filter>

/** 4D's filter of `toObject()` and `toCollection()`: paths in a string, comma-separated, or a collection. */
export type ObjectFilter = string | readonly string[]

function filterOf(filter: ObjectFilter | undefined): Filter | undefined {
  const paths = (typeof filter === 'string' ? filter.split(',') : (filter ?? []))
    .map((p) => p.trim())
    .filter((p) => p !== '' && p !== '*')
  if (paths.length === 0) return undefined
  const root: Filter = new Map()
  for (const p of paths) {
    const steps = p.split('.')
    let node = root
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!
      const had = node.get(step)
      if (i === steps.length - 1) {
        if (had === undefined) node.set(step, true)
        break
      }
      if (steps[i + 1] === '*' && i + 2 === steps.length) {
        node.set(step, '*')
        break
      }
      const sub: Filter = had instanceof Map ? had : new Map()
      node.set(step, sub)
      node = sub
    }
  }
  return root
}

/** The related entity's simple form, `{ __KEY }`, as 4D gives a relatedEntity not filtered further. */
const simple = (e: EntityReader | null): Plain | null => (e ? { __KEY: e.getKey() } : null)

// What 4D extracts with no filter: storage attributes, and each relatedEntity in its simple form
// (relatedEntities, calculated and alias attributes are left out, as in 4D's examples).
function whole(e: EntityReader): Plain {
  const out: Plain = {}
  for (const attr of e.dataClass.def.attributes) {
    if (attr.kind === 'storage') out[attr.name] = e.get(attr.name)
    else if (attr.kind === 'relatedEntity')
      out[attr.name] = simple(e.get(attr.name) as EntityReader | null)
  }
  return out
}

function picked(e: EntityReader, filter: Filter): Plain {
  const out: Plain = {}
  for (const [name, how] of filter) {
    const attr: AttributeDef | undefined = e.dataClass.def.attributesByName.get(name)
    if (!attr) continue
    const value = e.get(name)
    out[name] = how === true ? leaf(attr, value) : nested(value, how)
  }
  return out
}

function leaf(attr: AttributeDef, value: unknown): unknown {
  if (attr.kind === 'relatedEntity') return simple(value as EntityReader | null)
  if (attr.kind === 'relatedEntities') return (value as Listed).toArray().map(simple)
  return isEntity(value) ? simple(value) : value
}

function nested(value: unknown, how: '*' | Filter): unknown {
  const render = (e: EntityReader): Plain => (how === '*' ? whole(e) : picked(e, how))
  if (value === null || value === undefined) return null
  if (isEntity(value)) return render(value)
  if (typeof value === 'object' && 'toArray' in value)
    return (value as Listed).toArray().map(render)
  // Properties of an object attribute.
  if (how === '*' || typeof value !== 'object') return value
  const out: Plain = {}
  for (const [k] of how) out[k] = (value as Plain)[k] ?? null
  return out
}

// One entity's object, its filter already read: `__KEY` and `__STAMP` first when asked.
function objectOf(e: EntityReader, tree: Filter | undefined, options: ToCollectionOptions): Plain {
  const values = tree ? picked(e, tree) : whole(e)
  if (options.withKey !== true && options.withStamp !== true) return values
  const head: Plain = {}
  if (options.withKey === true) head.__KEY = e.getKey()
  if (options.withStamp === true) head.__STAMP = e.getStamp()
  return Object.assign(head, values)
}

/**
 * 4D's `entity.toObject(filter?; options?)`: every storage attribute and each relatedEntity as
 * `{ __KEY }` (no filter, `""` or `"*"`), or the paths of `filter` (`"a, b"` or `["a", "b"]`;
 * `"employer.*"`, `"employer.name"`, `"reports.lastName"`); `{ withKey, withStamp }` add `__KEY`
 * and `__STAMP` (4D's `dk with primary key`, `dk with stamp`).
 */
export function toObject(
  e: EntityReader,
  filter: ObjectFilter | undefined,
  options: ToCollectionOptions = {},
): Plain {
  return objectOf(e, filterOf(filter), options)
}

/**
 * 4D's `toCollection(filter?; options?; begin?; howMany?)` over `members` (the window already
 * cut; a deleted member is skipped but counted in it, as 4D counts it in `howMany`): one
 * `toObject` a live member.
 */
export function toCollection(
  members: readonly (EntityReader | null)[],
  filter: ObjectFilter | undefined,
  options: ToCollectionOptions = {},
): Plain[] {
  const tree = filterOf(filter)
  const out: Plain[] = []
  for (const e of members) if (e) out.push(objectOf(e, tree, options))
  return out
}

/**
 * 4D's `distinctPaths(attribute)`: the paths found in the object attribute's values, nested
 * properties in dot notation, a collection as `name.length` and its elements' properties as
 * `name[].property` (a collection of scalars as `name[]`). Sorted without case, `[]` before `.`.
 */
export function distinctPaths(
  dc: MemberClass,
  entities: Iterable<EntityReader>,
  name: string,
): string[] {
  const attr = dc.attribute(name)
  if (attr.kind !== 'storage' || attr.type !== 'object')
    fail('AggregateNotApplicable', ['distinctPaths', name, dc.name, 'not an object attribute'])
  const paths = new Set<string>()
  const walk = (value: Plain, prefix: string): void => {
    for (const [key, v] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`
      paths.add(path)
      if (Array.isArray(v)) {
        paths.add(`${path}.length`)
        for (const item of v as unknown[]) {
          if (isPlain(item)) walk(item, `${path}[]`)
          else if (item !== null && item !== undefined) paths.add(`${path}[]`)
        }
      } else if (isPlain(v)) walk(v, path)
    }
  }
  for (const e of entities) {
    const value = e.get(name)
    if (isPlain(value)) walk(value, '')
  }
  const key = (p: string): string => p.toLowerCase().replaceAll('[]', '\u0001')
  return [...paths].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isEntity(v)
