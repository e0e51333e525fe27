import { fc, test } from '@fast-check/vitest'
import { describe, expect, it, vi } from 'vitest'
import { createDatastore, DatastoreError, runQuery, type ModelJson } from '../../index.js'
import type { DataClass } from './data-class.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'nick', type: 'string' },
        { name: 'code', type: 'string', unique: true },
        { name: 'age', type: 'long', indexed: true, indexKind: 'hash' },
        { name: 'score', type: 'number', indexed: true, indexKind: 'sorted' },
        { name: 'active', type: 'bool', indexed: true },
        { name: 'born', type: 'date', indexed: true },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
      ],
    },
    {
      name: 'Tag',
      key: [{ name: 'label' }],
      attributes: [
        { name: 'label', type: 'string' },
        { name: 'weight', type: 'long' },
      ],
    },
  ],
}

const NAMES = ['Smith', 'smith', 'Élodie', 'elodie', 'O@k', 'Oak', '', 'a*b']
const people = Array.from({ length: 40 }, (_, i) => ({
  name: NAMES[i % NAMES.length],
  nick: NAMES[(i * 3) % NAMES.length],
  code: `c${i}`,
  age: 20 + (i % 7),
  score: i % 5 === 0 ? null : (i % 9) / 2,
  active: i % 3 === 0,
  born: `2000-01-${String(1 + (i % 5)).padStart(2, '0')}`,
  employer: i % 4 === 0 ? null : 1 + (i % 3),
}))

const data = {
  Company: [{ name: 'Acme' }, { name: 'Bolt' }, { name: 'acme' }],
  Person: people,
  Tag: [
    { label: 'Red', weight: 1 },
    { label: 'blue', weight: 2 },
  ],
}

const store = () => createDatastore(model, { data })

/** Row ids in order, or the error code: what a query answers. */
function outcome(run: () => { rowIds: Iterable<number> }): readonly number[] | string {
  try {
    return [...run().rowIds]
  } catch (e) {
    if (e instanceof DatastoreError) return `error ${e.errCode}`
    throw e
  }
}

/** The prepared query's answer and the general path's (runQuery never takes the index lookup). */
function both(dc: DataClass, text: string, params: unknown[]) {
  // findOne's entity as a one-row answer, to compare with the general path's first row.
  const one = (find: () => { rowId: number } | null) => () => {
    const e = find()
    return { rowIds: e === null ? [] : [e.rowId] }
  }
  return {
    prepared: outcome(() => dc.prepare(text).select(...params)),
    cached: outcome(() => dc.query(text, ...params)),
    general: outcome(() => runQuery(dc, text, { params }).selection),
    first: outcome(one(() => dc.prepare(text).first(...params))),
    findOne: outcome(one(() => dc.findOne(text, ...params))),
  }
}

const TEXTS: [dataClass: string, text: string][] = [
  ['Person', 'name = :1'],
  ['Person', 'name === :1'],
  ['Person', 'nick = :1'], // no index: always the general path
  ['Person', 'code = :1'],
  ['Person', 'age = :1'],
  ['Person', 'score = :1'],
  ['Person', 'active = :1'],
  ['Person', 'born = :1'],
  ['Person', 'ID = :1'],
  ['Person', 'employer = :1'],
  ['Person', 'employerName = :1'],
  ['Person', 'employer.name = :1'],
  ['Person', 'age = :1 order by name desc'],
  ['Person', 'name = :1 order by ID desc'],
  ['Person', 'name = :2'],
  ['Person', 'age in :1'],
  ['Person', 'name in :1'],
  ['Person', 'ID in :1'],
  ['Person', 'score in :1'],
  ['Person', 'nick in :1'], // no index: always the general path
  ['Person', 'age in :1 order by name desc'],
  ['Tag', 'label = :1'],
  ['Tag', 'label === :1'],
  // Ranges with both bounds (range-lookup.ts): a literal bound, a hash index only (age), none.
  ['Person', 'score >= :1 and score < 3'],
  ['Person', 'score <= 3.5 and score > :1'],
  ['Person', 'age > :1 and age <= 24'],
  ['Person', 'ID > :1 and ID < 30'],
  ['Tag', 'weight >= :1 and weight <= 2'],
]

/** Ranges with both bounds in placeholders, run with two values. */
const RANGES: [dataClass: string, text: string][] = [
  ['Person', 'score > :1 and score < :2'],
  ['Person', 'score >= :1 and score <= :2'],
  ['Person', 'score < :2 and score >= :1'],
  ['Person', 'score > :1 and score < :1'],
  ['Person', 'score > :2 and score < :1 order by name'],
  ['Person', 'age >= :1 and age < :2'],
  ['Person', 'name >= :1 and name < :2'], // texts: folded as `<` compares them
  ['Person', 'name > :1 and name <= :2 order by score'],
  ['Person', 'nick >= :1 and nick < :2'], // no index: always the general path
  ['Person', 'score > :1 and score < :2 and age > 0'],
]

const anyValue = fc.oneof(
  fc.constantFrom(
    ...NAMES,
    'SMITH',
    'Elodie',
    'O@K',
    // Wildcards after a non-ASCII character, in and past Latin-1.
    'Élo@',
    'él*die',
    'Ő@k',
    'ŐAK',
    'acme',
    'ACME',
    'red',
    'c7',
    'C7',
    '2000-01-03',
  ),
  fc.constantFrom(0, -0, 1, 2, 3, 21, 22.5, 2.5, NaN, Infinity, 1e300),
  fc.constantFrom('21', ' 22 ', '2', 'true', 'false', true, false, null, undefined),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -2, max: 45 }),
  fc.constantFrom([1], { a: 1 }, new Date('2000-01-02T00:00:00Z')),
  // IN's lists: values of the attribute's type, repeated, or mixed with others.
  fc.array(
    fc.oneof(
      fc.constantFrom(...NAMES, 'SMITH', 'c7', null, '21', true),
      fc.integer({ min: -1, max: 45 }),
      fc.constantFrom(2.5, -0, NaN),
    ),
    { maxLength: 6 },
  ),
)

describe('PreparedQuery', () => {
  test.prop([fc.constantFrom(...TEXTS), anyValue], { numRuns: 600 })(
    'answers as the general query path does, rows and errors alike',
    ([dataClass, text], value) => {
      const ds = store()
      const r = both(ds.dataClass(dataClass), text, [value])
      expect(r.prepared).toEqual(r.general)
      expect(r.cached).toEqual(r.general)
      const firstRow = typeof r.general === 'string' ? r.general : r.general.slice(0, 1)
      expect(r.first).toEqual(firstRow)
      expect(r.findOne).toEqual(firstRow)
    },
  )

  test.prop([fc.constantFrom(...RANGES), anyValue, anyValue], { numRuns: 400 })(
    'answers a range with both bounds as the general query path does',
    ([dataClass, text], low, high) => {
      const ds = store()
      const r = both(ds.dataClass(dataClass), text, [low, high])
      expect(r.prepared).toEqual(r.general)
      expect(r.cached).toEqual(r.general)
    },
  )

  test.prop(
    [
      fc.array(
        fc.oneof(
          fc.record({
            op: fc.constant('load' as const),
            name: fc.constantFrom(...NAMES),
            age: fc.integer({ min: 18, max: 30 }),
          }),
          fc.record({
            op: fc.constantFrom('index' as const, 'drop' as const),
            attr: fc.constantFrom('name', 'nick', 'age', 'code'),
          }),
          fc.record({
            op: fc.constant('query' as const),
            text: fc.constantFrom(...TEXTS.filter(([dc]) => dc === 'Person').map(([, t]) => t)),
            value: anyValue,
          }),
        ),
        { maxLength: 25 },
      ),
    ],
    { numRuns: 150 },
  )('keeps answering as the general path through writes and index changes', (steps) => {
    const ds = store()
    const Person = ds.dataClass('Person')
    // The same prepared objects all along: what they cached must follow the changes.
    const prepared = new Map(
      TEXTS.filter(([dc]) => dc === 'Person').map(
        ([, text]) => [text, Person.prepare(text)] as const,
      ),
    )
    let n = 0
    for (const step of steps) {
      if (step.op === 'load')
        ds.loadData({
          Person: [{ name: step.name, nick: step.name, code: `n${n++}`, age: step.age }],
        })
      else if (step.op === 'index') Person.createIndex(step.attr)
      else if (step.op === 'drop') Person.dropIndex(step.attr)
      else if (step.op === 'query') {
        const general = outcome(
          () => runQuery(Person, step.text, { params: [step.value] }).selection,
        )
        expect(
          outcome(() => prepared.get(step.text)!.select(step.value)),
          step.text,
        ).toEqual(general)
        expect(
          outcome(() => Person.query(step.text, step.value)),
          step.text,
        ).toEqual(general)
      }
    }
  })

  it('looks up an indexed equality directly, and only that', () => {
    const Person = store().dataClass('Person')
    const direct = (text: string) => Person.prepare(text).direct
    expect(direct('name = :1')).toBe(true)
    expect(direct('ID = :1')).toBe(true)
    expect(direct('employer = :1')).toBe(true)
    expect(direct("code === 'c1'")).toBe(true)
    expect(direct('nick = :1')).toBe(false) // no index on the attribute... (checked per call)
    expect(direct('born = :1')).toBe(false) // dates are coerced: the general path
    expect(direct('employer.name = :1')).toBe(false) // a join
    expect(direct('name = :1 and age = :2')).toBe(false)
    expect(direct('age > :1')).toBe(false)
    expect(direct('score >= :1 and score < :2')).toBe(true)
    expect(direct('score < 4 and score > :1')).toBe(true)
    expect(direct('age >= :1 and age < :2')).toBe(false) // a hash index only
    expect(direct('name >= :1 and name < :2')).toBe(true) // texts, folded
    expect(direct('nick >= :1 and nick < :2')).toBe(false) // no index
    expect(direct('score > :1 and score > :2')).toBe(false)
    expect(direct('score > :1 and score < :2 and age > 0')).toBe(false)
    expect(direct('name in :1')).toBe(true)
    expect(direct('age in :1')).toBe(true)
    expect(direct('nick in :1')).toBe(false)
    expect(direct("name in ['a', 'b']")).toBe(false) // a literal list: the general path
  })

  it('gives the lookup’s selection alone when asked, never the general path’s', () => {
    const Person = store().dataClass('Person')
    const rows = (text: string, params: unknown[], most: number) =>
      Person.prepare(text).lookupSelect(params, most)?.rowIds
    const general = (text: string, params: unknown[]) => [
      ...runQuery(Person, text, { params }).selection.rowIds,
    ]
    // 'o' ≤ name < 'p', folded: O@k and Oak, five rows each.
    const range = "name >= :1 and name < 'p'"
    expect(general(range, ['O'])).toHaveLength(10)
    const found = rows(range, ['O'], 10)
    expect(found && [...found]).toEqual(general(range, ['O']))
    // More rows than asked for, a value to coerce, no index, or no lookup: undefined.
    expect(rows(range, ['O'], 9)).toBeUndefined()
    // An equality's bucket is counted before it is read: Oak five times.
    expect([...(rows('name = :1', ['oak'], 5) ?? [])]).toEqual(general('name = :1', ['oak']))
    expect(general('name = :1', ['oak'])).toHaveLength(5)
    expect(rows('name = :1', ['oak'], 4)).toBeUndefined()
    // Oak five times, Smith and smith five each, folded alike.
    expect(rows('name in :1', [['oak', 'smith']], 14)).toBeUndefined()
    expect(rows('name in :1', [['oak', 'smith']], 15)?.length).toBe(15)
    expect(rows('score >= :1 and score < 9', ['1'], 100)).toBeUndefined()
    expect(rows('nick >= :1 and nick < :2', ['a', 'z'], 100)).toBeUndefined()
    expect(rows('nick = :1', ['Oak'], 100)).toBeUndefined()
    expect(rows('score > :1', [1], 100)).toBeUndefined()
  })

  it('findOne reads a one-row answer without a selection, and a longer one in its order', () => {
    const Person = store().dataClass('Person')
    const c7 = Person.query('code = :1', 'c7').at(0)
    const oldest = Person.query('age = :1 order by ID desc', 21).at(0)
    expect(c7).toBeDefined()
    const select = vi.spyOn(Person, 'select')
    expect(Person.findOne('code = :1', 'C7')).toBe(c7)
    expect(Person.findOne('code = :1', 'none')).toBeNull()
    expect(select).not.toHaveBeenCalled()
    // Several rows: the first in the query's order, through a selection.
    expect(Person.findOne('age = :1 order by ID desc', 21)).toBe(oldest)
    expect(select).toHaveBeenCalledTimes(1)
  })

  it('finds the same rows after the index it used is dropped, and after one is created', () => {
    const ds = store()
    const Person = ds.dataClass('Person')
    const byName = Person.prepare('name = :1')
    const byNick = Person.prepare('nick = :1')
    const smith = byName.select('smith').rowIds
    expect(smith.length).toBeGreaterThan(0)
    Person.dropIndex('name')
    expect(byName.select('smith').rowIds).toEqual(smith)
    Person.createIndex('nick', 'hash')
    expect(byNick.select('SMITH').rowIds).toEqual(
      runQuery(Person, 'nick = :1', { params: ['SMITH'] }).selection.rowIds,
    )
  })

  it('sees entities written after it was prepared', () => {
    const ds = store()
    const byCode = ds.dataClass('Person').prepare('code = :1')
    expect(byCode.first('new')).toBeNull()
    ds.loadData({ Person: [{ name: 'New', code: 'new' }] })
    expect(byCode.first('NEW')?.get('name')).toBe('New')
    expect(byCode.count('new')).toBe(1)
  })

  it('orders a several-row answer by the query order, else by primary key', () => {
    const Person = store().dataClass('Person')
    const keys = (s: Iterable<{ getKey(): unknown } | null>) => [...s].map((e) => e?.getKey())
    const smiths = keys(Person.query('name = :1', 'smith'))
    expect(smiths.length).toBeGreaterThan(2)
    expect(smiths).toEqual([...smiths].sort((a, b) => (a as number) - (b as number)))
    expect(keys(Person.query('name = :1 order by ID desc', 'smith'))).toEqual([...smiths].reverse())
  })

  it('throws path and syntax errors when prepared, value errors when run', () => {
    const Person = store().dataClass('Person')
    expect(() => Person.prepare('nope = :1')).toThrow(expect.objectContaining({ errCode: 1500 }))
    expect(() => Person.prepare('name = = 1')).toThrow(expect.objectContaining({ errCode: 9001 }))
    expect(() => Person.prepare('name = :1 order by nope')).toThrow(DatastoreError)
    const byAge = Person.prepare('age = :1')
    expect(() => byAge.select('old')).toThrow(expect.objectContaining({ errCode: 9003 }))
    expect(() => byAge.select()).toThrow(expect.objectContaining({ errCode: 9002 }))
  })

  it('hides what is not exposed when asked, as the REST interface does', () => {
    const Person = store().dataClass('Person')
    // The implicit foreign-key slot of `employer` is stored but not an attribute of the model.
    expect(() => Person.prepare('employer = 1', { exposedOnly: true })).not.toThrow()
    expect(Person.prepare('employer = :1', { exposedOnly: true }).count(2)).toBe(
      Person.query('employer = :1', 2).length,
    )
  })
})
