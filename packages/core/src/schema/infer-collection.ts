/**
 * @module One collection of a data file read for inference (infer-model.ts): its rows, the type of
 * each attribute (infer-column.ts), and its key, the attribute named `id` (any case), `_id` or
 * after the collection (`postId` in `posts`) whose values are integers or strings, in every row and
 * unique; else a key added and numbered 1, 2, … in the order of the rows (autosequence).
 */
import { fail } from '../errors/datastore-error.js'
import { Column, columnType, kindOf, KIND_WORDS } from './infer-column.js'
import { isIdName, nameMatch, referencePrefix } from './infer-names.js'
import { isModelName } from './model-checks.js'
import type { AttributeJson, ValueType } from './model-json.js'

/** Whether inference refuses (the default) or guesses what it cannot infer exactly. */
export interface InferMode {
  /** Guess, and say so in the notes: a model to edit, not one that serves the data as given. */
  readonly draft: boolean
  readonly notes: string[]
}

/** The key of a collection: one of its attributes, or one added to it. */
export interface InferredKey {
  readonly name: string
  readonly type: ValueType
  /** Added by inference: the rows do not hold it, the load numbers them. */
  readonly generated: boolean
  /** Its values, each once (empty for a generated key). */
  readonly values: ReadonlySet<unknown>
}

export interface Collection {
  readonly name: string
  readonly rows: readonly Readonly<Record<string, unknown>>[]
  /** A top-level object, read as a collection of one row. */
  readonly single: boolean
  /** Attributes in the order first met across the rows. */
  readonly columns: ReadonlyMap<string, Column>
  /** Each column's type. */
  readonly types: ReadonlyMap<string, ValueType>
  /** Columns whose values are of two types (a draft only: an exact inference refuses them). */
  readonly mixed: ReadonlySet<string>
  key: InferredKey
  /** Attribute names taken (columns, an added key, relations): what a new relation must avoid. */
  readonly names: Set<string>
  /** N→1 relations, by the column that holds the related key. */
  readonly relations: Map<string, AttributeJson>
  /** 1→N relations added by the collections that point here. */
  readonly inverses: AttributeJson[]
}

// The members a row of Entistore's own data files may carry beside its values (load-data.ts,
// data-stream.ts): read by the loader, not attributes.
const ROW_MEMBERS = new Set(['__KEY', '__STAMP', '__TIMESTAMP', '__entityModel'])

export function refuse(where: string, why: string): never {
  return fail('CannotInferModel', [where, why])
}

/** Where row `i` of `c` is, for a message: `posts[3]`, or `profile` for a top-level object. */
export const rowAt = (c: { name: string; single: boolean }, i: number): string =>
  c.single ? c.name : `${c.name}[${i}]`

const describe = (v: unknown): string => {
  const kind = kindOf(v)
  if (kind === null) return 'null'
  if (kind !== undefined) return KIND_WORDS[kind]
  // What JSON cannot hold: NaN, a Date, a function (data given by code, not read from a file).
  if (typeof v === 'number') return String(v)
  if (typeof v === 'object')
    return `a ${(Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'non-plain'} object`
  return `a ${typeof v}`
}

/**
 * Collection `name` of the data, holding `value`; undefined when a draft leaves it out (it holds
 * no rows of objects). Refuses, with the place named, what no model can serve as given.
 */
export function readCollection(
  name: string,
  value: unknown,
  mode: InferMode,
): Collection | undefined {
  if (!isModelName(name))
    refuse(
      JSON.stringify(name),
      'cannot name a dataclass (letters, digits and _, not starting with a digit or __)',
    )
  const kind = kindOf(value)
  let rows: readonly unknown[]
  const single = kind === 'object'
  if (single) {
    rows = [value]
    mode.notes.push(
      `${name}: one object, not an array of rows: served as a dataclass of one entity`,
    )
  } else if (kind === 'array') {
    rows = value as unknown[]
    if (rows.length === 0) {
      const why = 'no rows, so its attributes cannot be inferred'
      if (!mode.draft) refuse(name, `${why}: add one, or give a model`)
      mode.notes.push(`${name}: ${why}: only its key is written; add its attributes`)
    }
  } else {
    const why = `expected an array of rows (or one object), not ${describe(value)}`
    if (!mode.draft) refuse(name, why)
    mode.notes.push(`${name}: ${why}: left out`)
    return undefined
  }
  const found = new Map<string, Column>()
  // A field first met in a later row goes after the field before it in that row, not last: rows
  // that leave out their null values (a saved data file's) keep the order of the attributes.
  const order: string[] = []
  for (const [i, row] of rows.entries()) {
    if (kindOf(row) !== 'object') {
      const why = `expected an object (a row), not ${describe(row)}`
      if (!mode.draft) refuse(rowAt({ name, single }, i), why)
      mode.notes.push(`${rowAt({ name, single }, i)}: ${why}: ${name} is left out`)
      return undefined
    }
    let previous: string | undefined
    for (const [field, v] of Object.entries(row as object)) {
      if (ROW_MEMBERS.has(field)) continue
      let column = found.get(field)
      if (column === undefined) {
        if (!isModelName(field))
          refuse(
            `${rowAt({ name, single }, i)}.${field}`,
            `"${field}" cannot name an attribute (letters, digits and _, not starting with a digit or __)`,
          )
        column = new Column(field)
        found.set(field, column)
        order.splice(previous === undefined ? 0 : order.indexOf(previous) + 1, 0, field)
      }
      previous = field
      const k = kindOf(v)
      if (k === undefined)
        refuse(`${rowAt({ name, single }, i)}.${field}`, `${describe(v)} is not a JSON value`)
      if (k !== null) column.observe(k, i)
    }
  }
  const columns = new Map(order.map((field) => [field, found.get(field)!]))
  const c = { name, single }
  const types = new Map<string, ValueType>()
  const mixed = new Set<string>()
  for (const column of columns.values()) {
    const t = columnType(column)
    const at = `${name}.${column.name}`
    if ('type' in t) {
      types.set(column.name, t.type)
      if (column.present === 0) mode.notes.push(`${at}: only null values: typed string`)
      continue
    }
    const { first, firstRow, other, otherRow } = t.conflict
    const why = `${KIND_WORDS[other]} in ${rowAt(c, otherRow)} where ${rowAt(c, firstRow)} holds ${KIND_WORDS[first]}`
    if (!mode.draft)
      refuse(
        at,
        `${why}: an attribute holds values of one type (make them one type, or give a model that says which)`,
      )
    mode.notes.push(
      `${at}: ${why}: typed ${t.widened}` +
        (t.widened === 'string'
          ? ' (the other values load as text)'
          : ' (the values that are not objects or arrays will not load: edit them or the type)'),
    )
    types.set(column.name, t.widened)
    mixed.add(column.name)
  }
  const collection: Collection = {
    name,
    rows: rows as Readonly<Record<string, unknown>>[],
    single,
    columns,
    types,
    mixed,
    key: { name: '', type: 'long', generated: true, values: new Set() },
    names: new Set(columns.keys()),
    relations: new Map(),
    inverses: [],
  }
  collection.key = chooseKey(collection, mode)
  return collection
}

const KEY_TYPES: ReadonlySet<ValueType> = new Set(['long', 'long64', 'string'])

/** Why `column` of `c` cannot be its key, or its values when it can. */
function keyValues(c: Collection, column: string): Set<unknown> | string {
  const type = c.types.get(column)!
  if (c.mixed.has(column)) return 'holds values of two types'
  if (!KEY_TYPES.has(type))
    return `holds ${type === 'number' ? 'numbers that are not 32 or 53-bit integers' : `${type} values`}, and a key is an integer or a string`
  const seen = new Map<unknown, number>()
  for (const [i, row] of c.rows.entries()) {
    const v = row[column]
    if (v === null || v === undefined) return `is missing from ${rowAt(c, i)}`
    const before = seen.get(v)
    if (before !== undefined)
      return `holds ${JSON.stringify(v)} in both ${rowAt(c, before)} and ${rowAt(c, i)}`
    seen.set(v, i)
  }
  return new Set(seen.keys())
}

function chooseKey(c: Collection, mode: InferMode): InferredKey {
  const names = [...c.columns.keys()]
  const candidates = [
    ...names.filter(isIdName),
    ...names.filter((n) => n === '_id'),
    ...names.filter((n) => {
      const prefix = referencePrefix(n)
      return prefix !== undefined && nameMatch(prefix, c.name) !== undefined
    }),
  ]
  let problem: string | undefined
  for (const name of candidates) {
    const values = keyValues(c, name)
    if (typeof values !== 'string')
      return { name, type: c.types.get(name)!, generated: false, values }
    problem ??= `${name} ${values}`
  }
  const name = ['id', 'ID', '_id'].find((n) => !c.names.has(n)) ?? freeName(c, 'id')
  c.names.add(name)
  mode.notes.push(
    `${c.name}: no key in the data (${problem ?? 'no attribute named id'}): a key ${name} is added` +
      (c.single ? ', with the value 1' : ', numbered 1, 2, … in the order of the rows'),
  )
  return { name, type: 'long', generated: true, values: new Set() }
}

/** `base` followed by the first number that makes a name `c` does not have. */
export function freeName(c: Collection, base: string): string {
  for (let n = 2; ; n++) if (!c.names.has(`${base}${n}`)) return `${base}${n}`
}
