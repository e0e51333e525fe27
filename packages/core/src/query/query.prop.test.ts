/**
 * The differential property test of the query engine: random data, random filters built with the
 * AST factories and printed as text, run on three datastores holding the same rows (every storage
 * attribute indexed with `auto` indexes, indexed with a random `indexKind` per attribute, and no
 * indexes at all) and on a deliberately naive evaluator written here from the documented semantics
 * (docs/filter-language.md, 4D's query() page). It imports nothing of the engine's evaluation code
 * (predicate, compare, fold, bind): folding, wildcards and ordering are re-derived below in the
 * plainest way, so that a shared mistake cannot hide itself.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AttributeJson, ModelJson } from '../schema/model-json.js'
import { createDatastore } from '../orda/objects/datastore.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'
import {
  Ast,
  type ComparisonOp,
  type FilterNode,
  type LiteralNode,
  type LogicalOp,
  type OrderByItemNode,
  type PathSegment,
} from './ast.js'
import { printFilter, printOrderBy, printQuery } from './print-filter.js'

// ---- The model: Person → City, City ⇒ people ----

type IndexKind = 'auto' | 'hash' | 'sorted'
/** How a datastore indexes each storage attribute: undefined for none. */
type Indexing = (dataClass: string, attribute: string) => IndexKind | undefined

const STORAGE = {
  City: [
    ['ID', 'long'],
    ['name', 'string'],
    ['country', 'string'],
  ],
  Person: [
    ['ID', 'long'],
    ['name', 'string'],
    ['age', 'long'],
    ['score', 'number'],
    ['born', 'date'],
    ['active', 'bool'],
    ['tags', 'object'],
    ['cityID', 'long'],
  ],
} as const

function model(indexing: Indexing): ModelJson {
  const storage = (dc: keyof typeof STORAGE): AttributeJson[] =>
    STORAGE[dc].map(([name, type]) => {
      const kind = indexing(dc, name)
      return kind ? { name, type, indexed: true, indexKind: kind } : { name, type }
    })
  return {
    dataClasses: [
      {
        name: 'City',
        attributes: [...storage('City'), { name: 'people', kind: 'relatedEntities', path: 'city' }],
      },
      {
        name: 'Person',
        attributes: [...storage('Person'), { name: 'city', kind: 'relatedEntity', path: 'City' }],
      },
    ],
  }
}

// ---- Random data ----

type Row = Record<string, unknown>
interface Db {
  readonly cities: readonly Row[]
  readonly persons: readonly Row[]
}

const NAMES = [
  'Élodie',
  'elodie',
  'ELODIE',
  'Elodie Smith',
  "O'Leary",
  "o'leary",
  'smith',
  'Smith',
  'SMITH',
  'Smíth',
  'Zoë',
  'zoe',
  'Anne-Marie',
  'anne marie',
  'Bob',
  'bobby',
  'Bo',
  'a@b',
  'Ørjan',
  'straße',
  '',
]
const CITY_NAMES = ['Paris', 'paris', 'PARIS', 'Lyon', 'Zürich', 'zurich', 'New York', '']
const COUNTRIES = ['France', 'FRANCE', 'Spain', 'España', 'espana', '']
const DATES = ['1970-01-01', '1999-12-31', '2000-01-01', '2000-02-29', '2024-06-15']
const SCORES = [-2.5, 0, 0.5, 1, 1.5, 3, 10, 99.75]
const HOBBIES = ['chess', 'Chess', 'Piano', 'piano jazz', 'échecs', 'go', '']

const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) })

const tagsArb: fc.Arbitrary<unknown> = maybe(
  fc.record(
    {
      hobbies: fc.array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...HOBBIES) },
          { weight: 1, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constant(3) },
        ),
        { maxLength: 3 },
      ),
      address: fc.record(
        { city: fc.oneof(fc.constantFrom(...CITY_NAMES), fc.constant(null), fc.constant(7)) },
        { requiredKeys: [] },
      ),
      level: fc.oneof(
        fc.constantFrom(0, 3, 7, 10),
        fc.constantFrom('3', 'high', 'High', 'Élevé'),
        fc.boolean(),
        fc.constant(null),
      ),
    },
    { requiredKeys: [] },
  ),
)

const dbArb: fc.Arbitrary<Db> = fc
  .uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 5 })
  .chain((cityIds) =>
    fc.record({
      cities: fc.tuple(
        ...cityIds.map((ID) =>
          fc.record({
            ID: fc.constant(ID),
            name: maybe(fc.constantFrom(...CITY_NAMES)),
            country: maybe(fc.constantFrom(...COUNTRIES)),
          }),
        ),
      ),
      // Keys in random order: creation order (ties in sorts) and key order (default order) differ.
      persons: fc
        .uniqueArray(fc.integer({ min: 1, max: 80 }), { maxLength: 24, size: 'max' })
        .chain((ids) =>
          fc.tuple(
            ...ids.map((ID) =>
              fc.record({
                ID: fc.constant(ID),
                name: maybe(fc.constantFrom(...NAMES)),
                age: maybe(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(-1, 30))),
                score: maybe(fc.constantFrom(...SCORES)),
                born: maybe(fc.constantFrom(...DATES)),
                active: maybe(fc.boolean()),
                tags: tagsArb,
                cityID: cityIds.length ? maybe(fc.constantFrom(...cityIds)) : fc.constant(null),
              }),
            ),
          ),
        ),
    }),
  )

// ---- The naive evaluator ----

/** Case- and diacritic-insensitive form, the plainest way. */
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const hasWildcard = (s: string): boolean => /[@*]/.test(s)
/** `@` (and `*`) match any run of characters: a regular expression on folded text. */
const like = (pattern: string): RegExp =>
  new RegExp(
    `^${fold(pattern)
      .split(/[@*]/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  )
const words = (s: string): string[] => fold(s).match(/[\p{L}\p{N}_]+/gu) ?? []

type Scalar = string | number | boolean | null
/** A comparison value after conversion to the attribute's type; a list for IN. */
type Q = Scalar | Scalar[]

const isNull = (v: unknown): v is null | undefined => v === null || v === undefined

function equal(q: Scalar, v: unknown, wildcards: boolean): boolean {
  if (q === null) return isNull(v)
  if (isNull(v)) return false
  if (typeof q === 'string' && typeof v === 'string')
    return wildcards && hasWildcard(q) ? like(q).test(fold(v)) : fold(q) === fold(v)
  return typeof q === typeof v && q === v
}

/** <0, 0, >0, or undefined when the two are not of one kind. */
function order(v: unknown, q: Scalar): number | undefined {
  if (isNull(v) || q === null || typeof v !== typeof q) return undefined
  if (typeof v === 'string') {
    const a = fold(v)
    const b = fold(q as string)
    return a < b ? -1 : a > b ? 1 : 0
  }
  if (typeof v === 'number') return v - (q as number)
  if (typeof v === 'boolean') return Number(v) - Number(q)
  return undefined
}

function compare(op: ComparisonOp, q: Q, v: unknown): boolean {
  const one = q as Scalar
  switch (op) {
    case 'eq':
      return equal(one, v, true)
    case 'strictEq':
      return equal(one, v, false)
    case 'ne':
      return one === null ? !isNull(v) : !isNull(v) && !equal(one, v, true)
    case 'strictNe':
      return one === null ? !isNull(v) : !isNull(v) && !equal(one, v, false)
    case 'in':
      return (q as Scalar[]).some((item) => equal(item, v, true))
    case 'begin':
      return typeof v === 'string' && fold(v).startsWith(fold(one as string))
    case 'contains': {
      if (typeof v !== 'string') return false
      const w = one as string
      return words(v).some((word) => (hasWildcard(w) ? like(w).test(word) : word === fold(w)))
    }
    case 'lt':
    case 'gt':
    case 'le':
    case 'ge': {
      const c = order(v, one)
      if (c === undefined) return false
      return op === 'lt' ? c < 0 : op === 'gt' ? c > 0 : op === 'le' ? c <= 0 : c >= 0
    }
  }
}

/** Values reached by a path: one, or the elements of a `[]` collection. */
type Reach = (values: unknown[], collection: boolean) => boolean

function test(op: ComparisonOp, q: Q): Reach {
  return (values, collection) => {
    // 4D: `!=` on a collection holds when every element differs; anything else, when one matches.
    if (collection && (op === 'ne' || op === 'strictNe') && q !== null) {
      const eq = op === 'ne' ? 'eq' : 'strictEq'
      return values.length > 0 && values.every((v) => !isNull(v) && !compare(eq, q, v))
    }
    return values.some((v) => compare(op, q, v))
  }
}

// ---- Attribute paths, each with its type and how the naive evaluator reaches its values ----

/** `any`: inside an object attribute (no conversion); `object`: only comparable with null. */
type VType = 'string' | 'long' | 'number' | 'date' | 'bool' | 'any' | 'object'

interface Spec {
  readonly segments: readonly PathSegment[]
  readonly type: VType
  readonly holds: (row: Row, db: Db, reach: Reach) => boolean
  /** Through City.people: what is read of one related person (see Cond.link). */
  readonly people?: Spec
}

const dig = (v: unknown, names: readonly string[]): unknown =>
  names.reduce<unknown>(
    (o, n) =>
      typeof o === 'object' && o !== null && !Array.isArray(o) && Object.hasOwn(o, n)
        ? (o as Row)[n]
        : undefined,
    v,
  )

const attr = (name: string, type: VType, column = name): Spec => ({
  segments: [{ name }],
  type,
  holds: (row, _db, reach) => reach([row[column]], false),
})
const inObject = (column: string, names: string[]): Spec => ({
  segments: [{ name: column }, ...names.map((name) => ({ name }))],
  type: 'any',
  holds: (row, _db, reach) => reach([dig(row[column], names)], false),
})
const collection = (column: string, names: string[]): Spec => ({
  segments: [
    { name: column },
    ...names.map((name, i) =>
      i === names.length - 1 ? { name, collection: { letter: null } } : { name },
    ),
  ],
  type: 'any',
  holds: (row, _db, reach) => {
    const list = dig(row[column], names)
    return reach(Array.isArray(list) ? list : [], true)
  },
})
/** Through Person.city: persons whose city exists and matches. */
const viaCity = (inner: Spec): Spec => ({
  segments: [{ name: 'city' }, ...inner.segments],
  type: inner.type,
  holds: (row, db, reach) => {
    const city = db.cities.find((c) => c.ID === row.cityID)
    return city !== undefined && inner.holds(city, db, reach)
  },
})
/**
 * Through City.people: the related values read as one collection (4D's rule for `[]`): some value
 * matches, and for `!=` every value differs and there is at least one.
 */
const viaPeople = (inner: Spec): Spec => ({
  segments: [{ name: 'people' }, ...inner.segments],
  type: inner.type,
  people: inner,
  holds: (row, db, reach) => {
    const values: unknown[] = []
    const collect: Reach = (found) => (values.push(...found), false)
    for (const p of db.persons) if (p.cityID === row.ID) inner.holds(p, db, collect)
    return reach(values, true)
  },
})

// Text and collections hold most of the semantics (folding, wildcards, `!=`): listed twice, drawn
// twice as often.
const PERSON_SPECS: Spec[] = [
  attr('ID', 'long'),
  attr('name', 'string'),
  attr('name', 'string'),
  attr('age', 'long'),
  attr('score', 'number'),
  attr('born', 'date'),
  attr('active', 'bool'),
  attr('cityID', 'long'),
  attr('city', 'long', 'cityID'),
  attr('tags', 'object'),
  viaCity(attr('name', 'string')),
  viaCity(attr('country', 'string')),
  viaCity(attr('ID', 'long')),
  viaCity(viaPeople(attr('age', 'long'))),
  inObject('tags', ['address', 'city']),
  inObject('tags', ['level']),
  collection('tags', ['hobbies']),
  collection('tags', ['hobbies']),
]
const CITY_SPECS: Spec[] = [
  attr('ID', 'long'),
  attr('name', 'string'),
  attr('country', 'string'),
  viaPeople(attr('age', 'long')),
  viaPeople(attr('name', 'string')),
  viaPeople(attr('score', 'number')),
  viaPeople(collection('tags', ['hobbies'])),
  viaPeople(viaCity(attr('name', 'string'))),
]

// ---- Random comparisons: a literal as written and the value it stands for ----

interface Written {
  readonly lit: LiteralNode
  readonly q: Scalar
}
const str = (value: string): LiteralNode => Ast.literal({ type: 'string', value })
const num = (value: number): LiteralNode => Ast.literal({ type: 'number', value })
const NULL: Written = { lit: Ast.literal({ type: 'null', value: null }), q: null }

const STRING_VALUES = [
  ...NAMES,
  ...CITY_NAMES,
  ...COUNTRIES,
  ...HOBBIES,
  'ELODIE',
  'eLoDiE',
  'Elodie',
  'elodie smith',
  'smyth',
  'sm',
  'Bobby',
  'm',
  'z',
  'chess',
  'high',
  'HIGH',
  'elevé',
]
const WILDCARDS = [
  'el@',
  '@ie',
  '@LEAR@',
  'S@th',
  '@',
  'sm@',
  "o'@",
  'E@',
  '@e@i@',
  'par@',
  '@a@',
  'ch@ss',
  'Sm*',
  'a@b',
  '@@',
]

/**
 * Text values (with wildcards when `wildcards`) and numbers: converted to text for a string
 * attribute (`typed`), kept as numbers inside an object attribute.
 */
function textValues(wildcards: boolean, typed: boolean): fc.Arbitrary<Written> {
  const plain = fc.constantFrom(...STRING_VALUES).map((s) => ({ lit: str(s), q: s }))
  const wild = fc.constantFrom(...WILDCARDS).map((s) => ({ lit: str(s), q: s }))
  const numeric = fc.constantFrom(0, 3, 7).map((n) => ({ lit: num(n), q: typed ? String(n) : n }))
  return wildcards
    ? fc.oneof({ weight: 4, arbitrary: plain }, { weight: 3, arbitrary: wild }, numeric)
    : fc.oneof({ weight: 4, arbitrary: plain }, numeric)
}

/** Numbers written as numbers or as numeric text ("20" is 20 for a number attribute). */
function numbers(pool: number[]): fc.Arbitrary<Written> {
  return fc.tuple(fc.constantFrom(...pool), fc.boolean()).map(([n, asText]) => ({
    lit: asText ? str(String(n)) : num(n),
    q: n,
  }))
}

const OPS_NULLABLE: readonly ComparisonOp[] = ['eq', 'strictEq', 'ne', 'strictNe']
const OPS_ORDERED: readonly ComparisonOp[] = ['lt', 'gt', 'le', 'ge']
const ALL_OPS: readonly ComparisonOp[] = [
  ...OPS_NULLABLE,
  ...OPS_ORDERED,
  'in',
  'begin',
  'contains',
]

/** The values one may compare a path of `type` with `op` (null only where it is allowed). */
function valuesFor(type: VType, op: ComparisonOp): fc.Arbitrary<Written> {
  const nullable = OPS_NULLABLE.includes(op) || op === 'in'
  const withNull = (arb: fc.Arbitrary<Written>): fc.Arbitrary<Written> =>
    nullable ? fc.oneof({ weight: 5, arbitrary: arb }, fc.constant(NULL)) : arb
  const wildcards = op === 'eq' || op === 'ne' || op === 'in' || op === 'contains'
  switch (type) {
    case 'string':
      return withNull(textValues(wildcards, true))
    case 'long':
      return withNull(numbers([-1, 0, 1, 2, 3, 5, 6, 30, 2.5, 9]))
    case 'number':
      return withNull(numbers([...SCORES, -1, 2, 0.25]))
    case 'date':
      return withNull(
        fc
          .tuple(fc.constantFrom(...DATES, '2000-06-15', '1969-12-31'), fc.boolean())
          .map(([d, asText]) => ({
            lit: asText ? str(d) : Ast.literal({ type: 'date', value: d }),
            q: d,
          })),
      )
    case 'bool':
      return withNull(
        fc.oneof(
          fc.boolean().map((b) => ({ lit: Ast.literal({ type: 'boolean', value: b }), q: b })),
          fc.constantFrom(0, 1).map((n) => ({ lit: num(n), q: n === 1 })),
          fc.constantFrom('true', 'false').map((s) => ({ lit: str(s), q: s === 'true' })),
        ),
      )
    case 'any': {
      const text = textValues(wildcards, false)
      // `begin` and `%` are text operators: with a number inside an object they have no meaning.
      if (op === 'begin' || op === 'contains') return text.filter((w) => typeof w.q === 'string')
      const others = fc.constantFrom(0, 3, 7, 10, 2.5).map((n) => ({ lit: num(n), q: n }))
      // Booleans are not ordered in object attributes (an error): only for the other operators.
      const booleans = fc
        .boolean()
        .map((b) => ({ lit: Ast.literal({ type: 'boolean', value: b }), q: b }))
      return withNull(
        OPS_ORDERED.includes(op) ? fc.oneof(text, others) : fc.oneof(text, others, booleans),
      )
    }
    case 'object':
      return fc.constant(NULL)
  }
}

function opsFor(type: VType): readonly ComparisonOp[] {
  switch (type) {
    case 'string':
    case 'any':
      return ALL_OPS
    case 'object':
      return OPS_NULLABLE
    default:
      return [...OPS_NULLABLE, ...OPS_ORDERED, 'in']
  }
}

/** A filter and its naive meaning. */
interface Cond {
  readonly node: FilterNode
  readonly holds: (row: Row, db: Db) => boolean
  /** Values of the named placeholders of `node`. */
  readonly params: Readonly<Record<string, unknown>>
  /**
   * A comparison through City.people that one AND tests on one person with the others of its
   * reference (its class index, '' without): DataClassClass.md `.query()`, "Queries in
   * many-to-many relations". `!=` with a value reads every person, and is never linked.
   */
  readonly link?: { readonly reference: string; readonly on: (person: Row, db: Db) => boolean }
  /** The operands of an AND, which the AST flattens into the AND around it. */
  readonly and?: readonly Cond[]
}
// Counterexamples print as query text, not as closures.
const cond = (
  node: FilterNode,
  holds: Cond['holds'],
  params: Cond['params'] = {},
  more: Pick<Cond, 'link' | 'and'> = {},
): Cond =>
  Object.assign(
    { node, holds, params, ...more },
    {
      [fc.toStringMethod]: () =>
        printFilter(node) + (Object.keys(params).length ? ` ${JSON.stringify(params)}` : ''),
    },
  )

// Placeholders are named after their value, so two leaves with the same name hold the same value.
const placeholderNames = new Map<string, string>()
function placeholderFor(value: unknown): { name: string; value: unknown } {
  const id = JSON.stringify(value)
  let name = placeholderNames.get(id)
  if (!name) placeholderNames.set(id, (name = `p${placeholderNames.size}`))
  return { name, value }
}

function comparisonArb(specs: readonly Spec[]): fc.Arbitrary<Cond> {
  return fc
    .constantFrom(...specs)
    .chain((spec) => fc.constantFrom(...opsFor(spec.type)).map((op) => [spec, op] as const))
    .chain(([spec, op]) => {
      const values = valuesFor(spec.type, op)
      const value =
        op === 'in'
          ? fc.array(values, { maxLength: 3 }).map((items) => ({
              lits: items.map((i) => i.lit),
              q: items.map((i) => i.q) as Q,
            }))
          : values.map((w) => ({ lits: [w.lit], q: w.q as Q }))
      // A quarter of the values come through a named placeholder (an array for IN), as REST
      // `$params` and querySettings.parameters give them; 4D reads null only as a literal.
      // Through City.people, a third of the paths name another reference: `people{2}.age`.
      return fc
        .tuple(value, fc.nat({ max: 3 }), fc.nat({ max: 2 }))
        .map(([{ lits, q }, how, reference]): Cond => {
          const raw = op === 'in' ? lits.map((l) => l.value) : lits[0]!.value
          const other = spec.people !== undefined && reference === 0
          const segments = other
            ? [{ name: 'people', classIndex: 2 }, ...spec.segments.slice(1)]
            : spec.segments
          const path = Ast.path(segments)
          const holds = (row: Row, db: Db) => spec.holds(row, db, test(op, q))
          const inner = spec.people
          const link: Cond['link'] =
            inner && !((op === 'ne' || op === 'strictNe') && raw !== null)
              ? {
                  reference: other ? '2' : '',
                  on: (person, db) => {
                    const values: unknown[] = []
                    inner.holds(person, db, (found) => (values.push(...found), false))
                    return test(op, q)(values, true)
                  },
                }
              : undefined
          const more = link ? { link } : {}
          if (how === 0 && raw !== null) {
            const p = placeholderFor(raw)
            const node = Ast.comparison(path, op, Ast.placeholder(p.name))
            return cond(node, holds, { [p.name]: raw }, more)
          }
          const node = Ast.comparison(path, op, op === 'in' ? Ast.list(lits) : lits[0]!)
          return cond(node, holds, {}, more)
        })
    })
}

function filterArb(leaf: fc.Arbitrary<Cond>, depth: number): fc.Arbitrary<Cond> {
  if (depth === 0) return leaf
  const sub = filterArb(leaf, depth - 1)
  const not = sub.map((c): Cond => cond(Ast.not(c.node), (row, db) => !c.holds(row, db), c.params))
  const logical = fc
    .tuple(
      fc.constantFrom<LogicalOp>('And', 'Or', 'Except'),
      fc.array(sub, { minLength: 2, maxLength: 3 }),
    )
    .map(([op, parts]): Cond => {
      const node = Ast.logical(
        op,
        parts.map((p) => p.node),
      )
      const params = Object.assign({}, ...parts.map((p) => p.params))
      if (op === 'And') {
        const and = parts.flatMap((p) => p.and ?? [p])
        return cond(node, andHolds(and), params, { and })
      }
      return cond(
        node,
        (row, db) =>
          op === 'Or'
            ? parts.some((p) => p.holds(row, db))
            : parts[0]!.holds(row, db) && !parts.slice(1).some((p) => p.holds(row, db)),
        params,
      )
    })
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: not },
    { weight: 2, arbitrary: logical },
  )
}

/**
 * An AND: the comparisons through City.people of one reference hold for one same person (4D:
 * `roles.actor.lastName = :1 AND roles.actor.lastName = :2` is empty), the others each as it is.
 */
function andHolds(parts: readonly Cond[]): Cond['holds'] {
  const groups = new Map<string, Cond[]>()
  const alone: Cond[] = []
  for (const p of parts) {
    if (!p.link) alone.push(p)
    else groups.set(p.link.reference, [...(groups.get(p.link.reference) ?? []), p])
  }
  for (const group of groups.values()) if (group.length === 1) alone.push(group[0]!)
  const linked = [...groups.values()].filter((g) => g.length > 1)
  return (row, db) =>
    alone.every((p) => p.holds(row, db)) &&
    linked.every((group) =>
      db.persons.some((p) => p.cityID === row.ID && group.every((c) => c.link!.on(p, db))),
    )
}

// ---- Orders ----

interface OrderKey {
  readonly item: OrderByItemNode
  readonly read: (row: Row, db: Db) => unknown
}

function orderKey(segments: string[], read: (row: Row, db: Db) => unknown): fc.Arbitrary<OrderKey> {
  return fc.constantFrom('asc' as const, 'desc' as const).map((direction) => {
    const item = Ast.orderByItem(Ast.path(segments.map((name) => ({ name }))), direction)
    return { item, read, [fc.toStringMethod]: () => printOrderBy([item]) }
  })
}
const column = (name: string) => (row: Row) => row[name]
const cityOf = (row: Row, db: Db): Row | undefined => db.cities.find((c) => c.ID === row.cityID)

const PERSON_ORDER = [
  orderKey(['name'], column('name')),
  orderKey(['age'], column('age')),
  orderKey(['score'], column('score')),
  orderKey(['born'], column('born')),
  orderKey(['active'], column('active')),
  orderKey(['ID'], column('ID')),
  orderKey(['city'], column('cityID')),
  orderKey(['city', 'name'], (row, db) => cityOf(row, db)?.name),
  orderKey(['city', 'country'], (row, db) => cityOf(row, db)?.country),
]
const CITY_ORDER = [
  orderKey(['name'], column('name')),
  orderKey(['country'], column('country')),
  orderKey(['ID'], column('ID')),
]

/** Nulls first; then by value (text folded); `desc` reverses all of it (nulls last). */
function compareValues(a: unknown, b: unknown): number {
  if (isNull(a) || isNull(b)) return isNull(a) ? (isNull(b) ? 0 : -1) : 1
  return order(a, b as Scalar) ?? 0
}

interface Case {
  readonly cond: Cond | null
  readonly keys: readonly OrderKey[]
  readonly skip: number
  readonly top: number
}

function caseArb(specs: readonly Spec[], orders: fc.Arbitrary<OrderKey>[]): fc.Arbitrary<Case> {
  return fc.record({
    cond: fc.oneof(
      { weight: 9, arbitrary: filterArb(comparisonArb(specs), 3) },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    keys: fc.oneof(
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 2, arbitrary: fc.array(fc.oneof(...orders), { minLength: 1, maxLength: 2 }) },
    ),
    skip: fc.nat({ max: 26 }),
    top: fc.integer({ min: 1, max: 26 }),
  })
}

// ---- The property ----

const named = (text: string, f: Indexing): Indexing =>
  Object.assign(f, { [fc.toStringMethod]: () => text })

const INDEXINGS: { name: string; indexing: fc.Arbitrary<Indexing> }[] = [
  { name: 'unindexed', indexing: fc.constant(named('none', () => undefined)) },
  { name: 'indexed (auto)', indexing: fc.constant(named('auto', () => 'auto' as const)) },
  {
    name: 'indexed (random kinds)',
    indexing: fc
      .array(fc.constantFrom<IndexKind>('auto', 'hash', 'sorted'), { minLength: 11, maxLength: 11 })
      .map((kinds) => {
        const names = [...STORAGE.City, ...STORAGE.Person].map(
          ([n], i) => `${i < 3 ? 'C' : 'P'}.${n}`,
        )
        return named(kinds.join(','), (dc, a) => kinds[names.indexOf(`${dc[0]}.${a}`)])
      }),
  },
]

const keysOf = (s: EntitySelection): unknown[] => [...s].map((e) => e?.getKey())

/** What the naive evaluator expects of one case: the ordered keys. */
function expected(rows: readonly Row[], db: Db, c: Case): unknown[] {
  const hits = rows
    .map((row, at) => ({ row, at }))
    .filter(({ row }) => !c.cond || c.cond.holds(row, db))
  if (c.keys.length === 0) return hits.map((h) => h.row.ID as number).sort((a, b) => a - b)
  const sorted = hits.sort((x, y) => {
    for (const k of c.keys) {
      const r = compareValues(k.read(x.row, db), k.read(y.row, db))
      if (r !== 0) return k.item.direction === 'desc' ? -r : r
    }
    return x.at - y.at // ties: creation order
  })
  return sorted.map((h) => h.row.ID)
}

function check(
  datastores: { name: string; ds: ReturnType<typeof createDatastore> }[],
  dataClass: 'Person' | 'City',
  rows: readonly Row[],
  db: Db,
  c: Case,
): void {
  const text = printQuery(
    Ast.query(
      c.cond?.node ?? null,
      c.keys.map((k) => k.item),
    ),
  )
  const want = expected(rows, db, c)
  for (const { name, ds } of datastores) {
    const where = `${name}: ${dataClass}.query(${JSON.stringify(text)}, ${JSON.stringify(c.cond?.params ?? {})})`
    const parameters = c.cond?.params ?? {}
    const selection = Object.keys(parameters).length
      ? ds.dataClass(dataClass).run(text, { parameters }).selection
      : ds.dataClass(dataClass).query(text)
    // A window first (top-k on a fresh selection), then everything (the rest of the order).
    expect(keysOf(selection.window(c.skip, c.top)), `${where}.window(${c.skip}, ${c.top})`).toEqual(
      want.slice(c.skip, c.skip + c.top),
    )
    expect(keysOf(selection), where).toEqual(want)
  }
  if (c.cond) {
    // The query path of the indexed datastore counts what the selection holds.
    const run = datastores[1]!.ds
      .dataClass(dataClass)
      .run(text, { parameters: c.cond.params, queryPath: true })
    const path = run.queryPath as { steps: { recordsfounds: number }[] }
    expect(path.steps[0]!.recordsfounds, text).toBe(want.length)
    expect(run.explain()).toMatch(/^QUERY PLAN\n/)
  }
}

describe('query engine: indexed = unindexed = naive evaluator', () => {
  it('agrees on random data, filters, orders and windows', () => {
    fc.assert(
      fc.property(
        dbArb,
        fc.tuple(...INDEXINGS.map((i) => i.indexing)),
        fc.array(caseArb(PERSON_SPECS, PERSON_ORDER), { minLength: 4, maxLength: 4 }),
        fc.array(caseArb(CITY_SPECS, CITY_ORDER), { minLength: 2, maxLength: 2 }),
        (db, indexings, personCases, cityCases) => {
          const data = { City: db.cities, Person: db.persons }
          const datastores = INDEXINGS.map((i, n) => ({
            name: i.name,
            ds: createDatastore(model(indexings[n]!), { data }),
          }))
          for (const c of personCases) check(datastores, 'Person', db.persons, db, c)
          for (const c of cityCases) check(datastores, 'City', db.cities, db, c)
        },
      ),
      { numRuns: 250 },
    )
  })
})
