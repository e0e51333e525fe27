/**
 * The quick lane of a filter an index answers (one-by-filter.ts) against the general path, on one
 * datastore: after any sequence of writes, restores and reads, every read answers the same status,
 * content type and body through a handler with the lane as through one without. The reads are
 * written as clients write them (quoted, form-encoded, `%24filter`, other parameters beside), on
 * attributes with a unique index, a key, an index of repeated values, none, and a relation's, as
 * equalities and ranges, with values that the index answers and values it does not (a wildcard, a
 * text for a number, null). Only the session cookie's value differs.
 */
import fc from 'fast-check'
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it, vi } from 'vitest'
import type { RestReply } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { ColumnWriter } from '../serialize/column-writer.js'
import { replyText, syncReply } from '../sync-reply.fixture.js'
import { JsonChunks } from '../serialize/json-chunks.js'
import {
  get,
  seen,
  SIDE_CLASSES,
  sideData,
  writer,
  writeSteps,
  type WriteStep,
} from './lanes.fixture.js'

const model: ModelJson = {
  __NAME: 'filters',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed: true },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string', unique: true, indexed: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'age', type: 'long', indexed: true },
        { name: 'note', type: 'string' },
        { name: 'secret', type: 'string', exposed: false, indexed: true },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
      ],
    },
    ...SIDE_CLASSES,
  ],
}

const CODES = ['A1', 'a1', 'B2', 'Zoé', 'ZOE', 'C@', 'D 4']
const data = {
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Zoé & Co' },
  ],
  Employee: [
    { ID: 1, code: 'A1', name: 'Ann', age: 30, note: 'x', secret: 's', employerID: 1 },
    { ID: 2, code: 'B2', name: 'Bob', age: 30, note: 'y', secret: 't', employerID: 2 },
    { ID: 3, code: 'Zoé', name: 'Ann', age: 41, note: 'é"\\', secret: 'u', employerID: 1 },
    { ID: 4, code: 'D 4', name: 'Dan', age: 52, note: null, secret: 'v', employerID: 2 },
  ],
  ...sideData(3),
} as unknown as DataFile

/** A value as a filter writes it. */
const value = fc.oneof(
  fc.constantFrom(...CODES).map((c) => `'${c}'`),
  fc.constantFrom('Ann', 'Bob', 'Acme', 'Zoé & Co').map((c) => `'${c}'`),
  fc.integer({ min: 0, max: 5 }).map(String),
  fc.constantFrom('30', '41', "'30'", 'null', 'true', '1.5', "'A1'", '"B2"'),
)

// Mostly what the lane takes (a unique code, the key), so that it answers many reads.
const attribute = fc.constantFrom(
  'code',
  'code',
  'code',
  'code',
  'ID',
  'ID',
  'name',
  'age',
  'note',
  'secret',
  'employer.name',
  'holderName',
  'nope',
)
const op = fc.constantFrom('=', '=', '=', '==', '===', '!=', '>', ' = ', '=  ')

/** A query string holding a filter, written in one of the ways clients write it. */
const search = fc
  .record({
    filter: fc.oneof(
      fc.tuple(attribute, op, value).map(([a, o, v]) => `${a}${o}${v}`),
      // Equalities an index answers with several rows (or one, after writes): the general path's.
      fc.constantFrom("name='Ann'", "name = 'ann'", 'age=30', 'age = 41', "name='Eve'"),
      // Ranges of one attribute: a sorted index's (the lane's), a unique code's, none (note), a
      // text for a number, bounds that hold nothing, a relation's.
      fc
        .tuple(
          fc.constantFrom('name', 'age', 'code', 'ID', 'note', 'employer.name', 'secret'),
          fc.constantFrom('>', '>='),
          fc.constantFrom("'A'", "'b'", "'Zo'", '30', "'30'", '0', 'null'),
          fc.constantFrom('<', '<='),
          fc.constantFrom("'B'", "'zz'", "'Ann'", '41', '99', "'é'"),
          fc.boolean(),
        )
        .map(([a, lo, x, hi, y, flip]) =>
          flip ? `${a}${hi}${y} AND ${a}${lo}${x}` : `${a}${lo}${x} and ${a} ${hi} ${y}`,
        ),
    ),
    name: fc.constantFrom('$filter', '%24filter', '$FILTER', '$Filter'),
    wrap: fc.constantFrom('quoted', 'encoded', 'bare', 'escaped'),
    more: fc.constantFrom('', '', '', '', '', '&$top=1', '&$skip=1', '&$attributes=code', '&'),
  })
  .map(({ filter, name, wrap, more }) => {
    const text =
      wrap === 'quoted'
        ? `"${filter}"`
        : wrap === 'encoded'
          ? encodeURIComponent(`"${filter}"`)
          : wrap === 'escaped'
            ? `"${filter.replace(/"/g, '\\u0022')}"`
            : filter
    return `${name}=${text}${more}`
  })

const path = fc.constantFrom(
  '/rest/Employee',
  '/rest/Employee',
  '/rest/Employee',
  '/rest/Company',
  '/rest/Badge',
  '/rest/Tag',
  '/rest/Vault',
  '/rest/Nope',
  '/rest/employee',
  '/rest/Employee/',
  '/rest/Employee(1)',
  '/rest/Employee/code',
)

type Update = { readonly code: string; readonly name: string }
type Create = { readonly code: string }
type Step =
  | {
      readonly kind: 'read'
      readonly path: string
      readonly query: string
      readonly cookie: boolean
    }
  | WriteStep<Update, Create>

const write = writeSteps<Update, Create>(
  fc.record({ code: fc.constantFrom(...CODES, 'E5'), name: fc.constantFrom('Ann', 'Eve') }),
  fc.record({ code: fc.constantFrom(...CODES, 'F6') }),
  { update: 5, drop: 5 },
)
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      path,
      query: search,
      cookie: fc.boolean(),
    }),
  },
  { weight: 6, arbitrary: write },
)

// A code another row holds is refused (UniqueViolation, 9040): the step does nothing then.
const refusing = (write: () => void): void => {
  try {
    write()
  } catch (error) {
    if ((error as { errCode?: number }).errCode !== 9040) throw error
  }
}

describe('the quick lane of a filter an index answers', () => {
  it('answers as the general path does, across writes, restores and every spelling', () => {
    // Reads the lane answered (a whole text at once, where the general path makes chunks): the
    // property must meet many (about 120 a run, among some 1,900 reads).
    let laned = 0
    const chunks = vi.spyOn(JsonChunks.prototype, 'sliceBy')
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), fc.boolean(), (steps, built) => {
        const clock = new ManualClock(Date.UTC(2024, 0, 1))
        const ds = createDatastore(model, { data, clock })
        // Built or not: an index not built yet is the general path's (it waits for the build).
        if (built) ds.buildIndexes()
        const quick = createRestHandler(ds)
        const general = createRestHandler(ds, { quickReads: false })
        const cookieOf = (reply: RestReply) =>
          (reply.headers['set-cookie'] as string).split(';')[0]!
        const cookies = [quick, general].map((h) =>
          cookieOf(syncReply(h.respond(get('/rest/$catalog', '')))),
        )
        const apply = writer<Update, Create>(
          ds,
          (d, s) =>
            refusing(() =>
              d.dataClass('Employee').get(s.id)?.edit({ code: s.code, name: s.name }).saveOrFail(),
            ),
          (d, s) =>
            refusing(() =>
              d.dataClass('Employee').create({ code: s.code, name: 'New', age: 30, employerID: 1 }),
            ),
        )
        for (const s of steps) {
          clock.advance(1)
          if (s.kind === 'read') {
            const before = chunks.mock.calls.length
            const a = syncReply(
              quick.respond(get(s.path, s.query, s.cookie ? cookies[0] : undefined)),
            )
            if (a.status === 200 && chunks.mock.calls.length === before) laned++
            const b = syncReply(
              general.respond(get(s.path, s.query, s.cookie ? cookies[1] : undefined)),
            )
            expect(seen(a)).toEqual(seen(b))
            expect(a.headers['set-cookie'] === undefined).toBe(
              b.headers['set-cookie'] === undefined,
            )
          } else apply(s)
        }
      }),
      { numRuns: 200 },
    )
    chunks.mockRestore()
    expect(laned).toBeGreaterThanOrEqual(40)
  })

  it('leaves every read to the general path where rights are checked: what a session may not read stays out', () => {
    const ds = createDatastore(model, { data })
    ds.buildIndexes()
    const h = createRestHandler(ds, {
      authorize: (_session, _action, on) => on.attribute !== 'note',
    })
    const chunks = vi.spyOn(JsonChunks.prototype, 'sliceBy')
    const reply = syncReply(h.respond(get('/rest/Employee', `$filter="code='A1'"`)))
    expect(chunks).toHaveBeenCalledTimes(1)
    chunks.mockRestore()
    const [entity] = JSON.parse(replyText(reply.body)).__ENTITIES
    expect(entity.code).toBe('A1')
    expect(entity).not.toHaveProperty('note')
    // Without the check, the lane answers, and writes the note.
    const open = createRestHandler(ds)
    const plain = JSON.parse(
      replyText(syncReply(open.respond(get('/rest/Employee', `$filter="code='A1'"`))).body),
    )
    expect(plain.__ENTITIES[0].note).toBe('x')
  })

  /** A datastore, a handler with the lane and one without, the chunks' spy, a filtered read. */
  const bothPaths = () => {
    const ds = createDatastore(model, { data })
    const quick = createRestHandler(ds)
    const general = createRestHandler(ds, { quickReads: false })
    const chunks = vi.spyOn(JsonChunks.prototype, 'sliceBy')
    const read = (h: typeof quick, filter: string) =>
      syncReply(h.respond(get('/rest/Employee', `$filter="${filter}"`)))
    return { ds, quick, general, chunks, read }
  }

  it('answers an equality of repeated values at once, up to the rows a page holds', () => {
    const { ds, quick, general, chunks, read } = bothPaths()
    for (const filter of ["name='ann'", 'age=30', "name='Nobody'"]) {
      const laned = read(quick, filter)
      expect(chunks, filter).not.toHaveBeenCalled()
      expect(seen(laned), filter).toEqual(seen(read(general, filter)))
      chunks.mockClear()
    }
    // 150 Anns more than a page (100): counted in the index, left to the general path, paged.
    ds.loadData({
      Employee: Array.from({ length: 150 }, (_, i) => ({ code: `N${i}`, name: 'Ann', age: 1 })),
    })
    const paged = read(quick, "name='ann'")
    expect(chunks).toHaveBeenCalledTimes(1)
    chunks.mockRestore()
    expect(JSON.parse(replyText(paged.body)).__SENT).toBe(100)
    expect(seen(paged)).toEqual(seen(read(general, "name='ann'")))
  })

  it('answers a range of a sorted index at once, up to the rows a page holds', () => {
    const { ds, quick, general, chunks, read } = bothPaths()
    // Ann twice (ID 1 and 3) and Bob, folded, by key as the general path orders an answer.
    const range = "name>='ann' AND name<'C'"
    const laned = read(quick, range)
    expect(chunks).not.toHaveBeenCalled()
    expect(JSON.parse(replyText(laned.body)).__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual([
      1, 2, 3,
    ])
    expect(seen(laned)).toEqual(seen(read(general, range)))
    // A range of more rows than a page sends is paged: the general path's.
    // The model's default top is 100: 150 Anns more.
    ds.loadData({
      Employee: Array.from({ length: 150 }, (_, i) => ({ code: `N${i}`, name: 'Ann', age: 1 })),
    })
    const before = chunks.mock.calls.length
    const paged = read(quick, range)
    expect(chunks).toHaveBeenCalledTimes(before + 1)
    chunks.mockRestore()
    const body = JSON.parse(replyText(paged.body))
    expect([body.__COUNT, body.__SENT]).toEqual([153, 100])
    expect(seen(paged)).toEqual(seen(read(general, range)))
  })

  it('answers a unique code written folded, its envelope in the real server order', () => {
    const ds = createDatastore(model, { data })
    const h = createRestHandler(ds)
    // The lane answers, from the load's columns (the general path renders no row from them).
    const renders = vi.spyOn(ColumnWriter.prototype, 'text')
    const reply = syncReply(h.respond(get('/rest/Employee', `$filter="code='zoe'"`)))
    expect(renders).toHaveBeenCalledTimes(1)
    renders.mockRestore()
    expect(reply.status).toBe(200)
    const body = JSON.parse(replyText(reply.body))
    expect(body.__COUNT).toBe(1)
    expect(body.__ENTITIES[0].code).toBe('Zoé')
    expect(Object.keys(body)).toEqual([
      '__DATACLASS',
      '__entityModel',
      '__GlobalStamp',
      '__COUNT',
      '__FIRST',
      '__ENTITIES',
      '__SENT',
    ])
  })
})
