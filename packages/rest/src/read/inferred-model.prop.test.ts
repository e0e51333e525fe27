import { fc, test } from '@fast-check/vitest'
import {
  createDatastore,
  inferModel,
  ManualClock,
  type DataFile,
  type Entity,
  type RelatedEntityAttributeJson,
} from '@entistore/core'
import { describe, expect } from 'vitest'
import type { RestBody, RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { replyText } from '../sync-reply.fixture.js'

// Issue 52, item 3: data served without a model. Whatever db.json-like data is given (several
// collections, every JSON type, nulls and missing fields, keys given or not, references between
// collections), the model inferred from it serves it as given: every row read back over REST has
// the values of the row given, of the same types (a field the row leaves out reads null, an added
// key reads as its number); and every reference whose values all resolve is a relation that leads
// to the row it names, with its inverse.

/** Collection names, each with the prefix a reference to it is named with (`postId` → posts). */
const COLLECTIONS: readonly (readonly [string, string])[] = [
  ['posts', 'post'],
  ['comments', 'comment'],
  ['users', 'user'],
  ['Employee', 'Employee'],
  ['Company', 'company'],
  ['categories', 'category'],
  ['people', 'person'],
  ['boxes', 'box'],
]

// Field names that name no key and no reference (those the test makes on purpose).
const fieldName = fc
  .stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,7}$/)
  .filter((n) => n.toLowerCase() !== 'id' && !/(?:ID|Id|_id|_ID|_Id)$/.test(n))

const KINDS = ['bool', 'int', 'int53', 'double', 'string', 'json', 'null'] as const
type Kind = (typeof KINDS)[number]

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  // Strings that look like something else stay strings.
  fc.constantFrom('', '12', '2024-01-05', '2024-01-05T10:00:00Z', 'true', 'null'),
  fc.uuid(),
)
const valueOf: Readonly<Record<Kind, fc.Arbitrary<unknown>>> = {
  bool: fc.boolean(),
  int: fc.integer(),
  int53: fc.oneof(
    fc.maxSafeInteger(),
    fc.integer({ min: -1, max: 1 }).map((s) => s * 2 ** 40),
  ),
  double: fc.double({ noNaN: true, noDefaultInfinity: true }),
  string: text,
  json: fc.oneof(
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  ),
  null: fc.constant(null),
}
/** A cell: missing (undefined), null, or a value of the column's kind. */
const cellOf = (kind: Kind) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: valueOf[kind] },
  )

/** How a collection's key is given: an id of integers or strings, one named after it, or none that is whole. */
const KEYS = ['int', 'int53', 'string', 'ownName', 'none', 'duplicate'] as const
type KeyKind = (typeof KEYS)[number]
/** The key kinds inference keeps as the key; it adds one to the others. */
const GIVEN: ReadonlySet<KeyKind> = new Set(['int', 'int53', 'string', 'ownName'])

const keysOf = (kind: KeyKind, n: number): fc.Arbitrary<unknown[]> => {
  const unique = (a: fc.Arbitrary<unknown>) =>
    fc.uniqueArray(a, { minLength: n, maxLength: n, comparator: 'SameValueZero' })
  switch (kind) {
    case 'int':
    case 'ownName':
      return unique(fc.integer({ min: -5, max: 1000 }))
    case 'int53':
      return unique(fc.maxSafeInteger())
    case 'string':
      return unique(fc.string({ unit: 'binary', maxLength: 4 }))
    case 'none':
      return fc.constant(Array.from({ length: n }, () => undefined))
    case 'duplicate':
      // The first value twice, and maybe a row without one: not a key, a plain attribute.
      return fc
        .array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }), {
          minLength: n - 1,
          maxLength: n - 1,
        })
        .chain((rest) => fc.integer({ min: 1, max: 3 }).map((v) => [v, v, ...rest.slice(1)]))
  }
}

interface Spec {
  readonly name: string
  readonly prefix: string
  readonly key: KeyKind
  /** The attribute holding the key given, if any. */
  readonly keyName: string | undefined
  readonly keys: readonly unknown[]
  readonly columns: readonly { readonly name: string; readonly cells: readonly unknown[] }[]
}

const collection = (name: string, prefix: string): fc.Arbitrary<Spec> =>
  fc
    .record({
      key: fc.constantFrom(...KEYS),
      n: fc.integer({ min: 1, max: 6 }),
      columns: fc.uniqueArray(fc.record({ name: fieldName, kind: fc.constantFrom(...KINDS) }), {
        maxLength: 4,
        selector: (c) => c.name,
      }),
    })
    .chain(({ key, n: rows, columns }) => {
      const n = key === 'duplicate' ? Math.max(rows, 2) : rows
      return fc.record({
        name: fc.constant(name),
        prefix: fc.constant(prefix),
        key: fc.constant(key),
        keyName: fc.constant(key === 'none' ? undefined : key === 'ownName' ? `${prefix}ID` : 'id'),
        keys: keysOf(key, n),
        columns: fc.tuple(
          ...columns.map((c) =>
            fc.record({
              name: fc.constant(c.name),
              cells: fc.array(cellOf(c.kind), { minLength: n, maxLength: n }),
            }),
          ),
        ),
      })
    })

/**
 * A reference from one collection to one whose key is given (itself maybe): per row of the source,
 * null, missing, the index of a key of the target, or -1, a value that is no key of it.
 */
interface Reference {
  readonly from: number
  readonly to: number
  readonly suffix: string
  readonly picks: readonly (number | null | undefined)[]
}

const database = fc
  .uniqueArray(fc.constantFrom(...COLLECTIONS), {
    minLength: 1,
    maxLength: 4,
    selector: ([n]) => n,
  })
  .chain((chosen) => fc.tuple(...chosen.map(([name, prefix]) => collection(name, prefix))))
  .chain((specs) =>
    fc.record({
      specs: fc.constant(specs),
      references: fc
        .uniqueArray(
          fc.record({
            from: fc.nat(specs.length - 1),
            to: fc.nat(specs.length - 1),
            suffix: fc.constantFrom('Id', 'ID', '_id'),
            picks: fc.array(
              fc.oneof(
                { weight: 2, arbitrary: fc.constantFrom(null, undefined) },
                { weight: 1, arbitrary: fc.constant(-1) },
                { weight: 8, arbitrary: fc.nat(5) },
              ),
              { minLength: 6, maxLength: 6 },
            ),
          }),
          // One reference from a collection to another: two would want the same relation name.
          { maxLength: 4, selector: (r) => `${r.from}>${r.to}` },
        )
        .map((refs) => refs.filter((r) => GIVEN.has(specs[r.to]!.key))),
    }),
  )

/** A relation the references should make: `from.name` → `to`, through `column`. */
interface Expected {
  readonly from: string
  readonly column: string
  readonly name: string
  readonly to: string
}

/** The data file of the specs and references (through JSON, as a file gives it), and the relations they call for. */
function dataOf(specs: readonly Spec[], references: readonly Reference[]) {
  const rows = specs.map((s) =>
    s.keys.map((key, r) => {
      const row: Record<string, unknown> = {}
      if (s.keyName !== undefined && key !== null) row[s.keyName] = key
      for (const c of s.columns) if (c.cells[r] !== undefined) row[c.name] = c.cells[r]
      return row
    }),
  )
  const expected: Expected[] = []
  for (const ref of references) {
    const from = specs[ref.from]!
    const to = specs[ref.to]!
    const column = `${to.prefix}${ref.suffix}`
    if (column === from.keyName) continue
    const keys = new Set(to.keys)
    let stray = false
    let resolved = false
    rows[ref.from]!.forEach((row, r) => {
      const pick = ref.picks[r]
      if (pick === undefined) return
      if (pick === null) row[column] = null
      else if (pick >= 0) {
        row[column] = to.keys[pick % to.keys.length]
        resolved = true
      } else {
        let v: unknown = typeof to.keys[0] === 'string' ? 'stray' : 1001
        while (keys.has(v)) v = typeof v === 'string' ? `${v}!` : (v as number) + 1
        row[column] = v
        stray = true
      }
    })
    const nameTaken = from.columns.some((c) => c.name === to.prefix)
    if (resolved && !stray && !nameTaken)
      expected.push({ from: from.name, column, name: to.prefix, to: to.name })
  }
  const data = JSON.parse(
    JSON.stringify(Object.fromEntries(specs.map((s, i) => [s.name, rows[i]!]))),
  )
  return { data: data as Record<string, Record<string, unknown>[]>, expected }
}

const get = (path: string, query = ''): RestRequest => ({ method: 'GET', path, query, headers: {} })
const body = (b: unknown): string => replyText(b as RestBody)

describe('serving the model inferred from data', () => {
  test.prop([database])(
    'reads every row back as given, and follows every reference that resolves both ways',
    async ({ specs, references }) => {
      const { data, expected } = dataOf(specs, references)
      const { model, data: rows, generatedKeys } = inferModel(data)
      const ds = createDatastore(model, { data: rows as DataFile, clock: new ManualClock() })
      const rest = createRestHandler(ds)
      for (const spec of specs) {
        const dc = model.dataClasses.find((d) => d.name === spec.name)!
        const key = dc.key![0]!.name
        // The key given is the key; a collection without one gets one added.
        if (GIVEN.has(spec.key)) expect(key).toBe(spec.keyName)
        else expect(generatedKeys[spec.name]).toBe(key)
        const stored = dc.attributes
          .filter((a) => (a.kind ?? 'storage') === 'storage' && a.name !== generatedKeys[spec.name])
          .map((a) => a.name)
        const reply = await rest.respond(get(`/rest/${spec.name}`, '$asArray=true&$top=100'))
        expect(reply.status).toBe(200)
        const read = new Map(
          (JSON.parse(body(reply.body)) as Record<string, unknown>[]).map((r) => [
            String(r.__KEY),
            r,
          ]),
        )
        const given = data[spec.name]!
        expect(read.size).toBe(given.length)
        given.forEach((row, i) => {
          const generated = generatedKeys[spec.name]
          const keyText = String(generated === undefined ? row[key] : i + 1)
          const { __KEY, __STAMP, ...values } = read.get(keyText) ?? {}
          // `$asArray` writes the key in its own JSON type.
          expect(__KEY, `${spec.name} ${keyText}`).toBe(generated === undefined ? row[key] : i + 1)
          if (generated !== undefined) {
            expect(values[generated]).toBe(i + 1)
            delete values[generated]
          }
          // Every field the row gives, with its value and type; those it leaves out, null.
          expect(Object.keys(row).every((f) => stored.includes(f))).toBe(true)
          expect(values).toEqual(Object.fromEntries(stored.map((f) => [f, row[f] ?? null])))
        })
      }
      // The relations, exactly those expected, lead to the rows their values name, and back.
      const made = model.dataClasses.flatMap((dc) =>
        dc.attributes
          .filter((a): a is RelatedEntityAttributeJson => a.kind === 'relatedEntity')
          .map((a) => ({ from: dc.name, column: a.foreignKey!, name: a.name, to: a.type! })),
      )
      const order = (l: readonly Expected[]) =>
        [...l].sort((a, b) => (a.from + a.name < b.from + b.name ? -1 : 1))
      expect(order(made)).toEqual(order(expected))
      for (const r of expected) {
        const inverse = model.dataClasses
          .find((d) => d.name === r.to)!
          .attributes.find(
            (a) =>
              a.kind === 'relatedEntities' && a.path === r.name && a.type === `${r.from}Selection`,
          )
        expect(inverse, `the inverse of ${r.from}.${r.name}`).toBeDefined()
        const pointing = new Map<unknown, number>()
        for (const e of ds.dataClass(r.from).all().toArray() as Entity[]) {
          const v = e.get(r.column) as unknown
          const related = e.get(r.name) as Entity | null
          expect(related?.getKey() ?? null).toBe(v ?? null)
          if (v !== null) pointing.set(v, (pointing.get(v) ?? 0) + 1)
        }
        for (const e of ds.dataClass(r.to).all().toArray() as Entity[])
          expect((e.get(inverse!.name) as { length: number }).length).toBe(
            pointing.get(e.getKey()) ?? 0,
          )
      }
    },
  )
})
