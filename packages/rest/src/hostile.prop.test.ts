import { fc, test } from '@fast-check/vitest'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect } from 'vitest'
import type { RestReply, RestRequest } from './exchange.js'
import { createRestHandler } from './handler.js'
import { syncReply } from './sync-reply.fixture.js'

// Issue 11, "Proof": hostile input. Random `$filter` texts built from the filter grammar's own
// pieces (docs/filter-language.md) and from garbage, random URLs, random POST bodies and oversized
// inputs, through the in-process core (`respond`). For each: no 5xx but 501 for a feature not
// there (and nothing else reported to `onInternalError`), every error in the `__ERROR` shape, a reply read to its end within a budget of
// chunks (a reply that never ends is a hang, found without a clock), and afterwards the server
// still answers a normal request with the right entity.

const ds = createDatastore(
  {
    __NAME: 'hostile',
    dataClasses: [
      {
        name: 'Company',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'name', type: 'string', indexed: true },
          { name: 'revenue', type: 'number' },
          { name: 'founded', type: 'date' },
          { name: 'active', type: 'bool' },
          { name: 'extra', type: 'object' },
          { name: 'staff', kind: 'relatedEntities', path: 'employer' },
        ],
      },
      {
        name: 'Employee',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'lastName', type: 'string' },
          { name: 'salary', type: 'number', indexed: true },
          { name: 'employer', kind: 'relatedEntity', path: 'Company' },
          { name: 'employerName', kind: 'alias', path: 'employer.name' },
        ],
      },
      { name: 'Hidden', exposed: false, attributes: [{ name: 'ID', type: 'long' }] },
    ],
  },
  {
    data: {
      Company: [
        { ID: 1, name: 'Acme', revenue: 10.5, founded: '1990-01-02', active: true },
        { ID: 2, name: "O'Reilly", revenue: -3, extra: { tags: ['a', 'b'], city: 'Paris' } },
      ],
      Employee: [
        { ID: 1, lastName: 'Smith', salary: 100, employer: 1 },
        { ID: 2, lastName: 'Jones', salary: 200, employer: 2 },
        { ID: 3, lastName: 'Adams', salary: 300 },
      ],
    } as unknown as DataFile,
    clock: new ManualClock(),
  },
)
const internal: unknown[] = []
const rest = createRestHandler(ds, {
  maxBodyBytes: 64 * 1024,
  onInternalError: (error) => internal.push(error),
})

/** Chunks a reply may take before it counts as a hang (a small fixture answers in one or two). */
const CHUNK_BUDGET = 1_000
const decoder = new TextDecoder()

function bodyText(reply: RestReply): string {
  const body = reply.body
  if (body === null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return decoder.decode(body)
  let text = ''
  let chunks = 0
  for (const chunk of body as Iterable<string>) {
    if (++chunks > CHUNK_BUDGET) throw new Error(`a reply past ${CHUNK_BUDGET} chunks: a hang`)
    text += chunk
  }
  return text
}

/** One request through the core; its body read to the end. */
function send(request: Partial<RestRequest> & { path: string }): { status: number; text: string } {
  const reply = syncReply(rest.respond({ method: 'GET', query: '', headers: {}, ...request }))
  return { status: reply.status, text: bodyText(reply) }
}

/** The checks every hostile request gets, then a normal request to see the server still answers. */
function expectSound(reply: { status: number; text: string }, what: string): void {
  // A feature this version does not have is answered 501 (9010), by design, and not reported as a
  // bug; anything reported is one.
  const bugs = internal.splice(0).map((e) => (e instanceof Error ? e.stack : String(e)))
  expect(bugs, what).toEqual([])
  if (reply.status === 501) expect(reply.text, what).toContain('"errCode":9010')
  else expect(reply.status, what).toBeLessThan(500)
  if (reply.status >= 400) {
    const body = JSON.parse(reply.text) as { __ERROR?: unknown[] }
    expect(Array.isArray(body.__ERROR), what).toBe(true)
    expect(body.__ERROR!.length, what).toBeGreaterThan(0)
    for (const e of body.__ERROR!) {
      const { message, componentSignature, errCode } = e as Record<string, unknown>
      expect(typeof message, what).toBe('string')
      expect(typeof componentSignature, what).toBe('string')
      expect(Number.isInteger(errCode), what).toBe(true)
    }
  }
  const normal = send({ path: '/rest/Employee(2)' })
  expect(normal.status).toBe(200)
  expect((JSON.parse(normal.text) as { lastName: string }).lastName).toBe('Jones')
}

// ---- $filter: fragments of the grammar, glued at random

const attribute = fc.constantFrom(
  'ID',
  'lastName',
  'salary',
  'employer',
  'employer.name',
  'employer.staff.salary',
  'employerName',
  'employer.extra.city',
  'employer.extra.tags[]',
  'employer.extra.tags[a]',
  'nope',
  'Hidden.ID',
  '__KEY',
  '__proto__',
  'constructor.name',
  'salary.x',
  '',
)
const operator = fc.constantFrom(
  '=',
  '==',
  '===',
  '!=',
  '!==',
  '#',
  '<',
  '<=',
  '>',
  '>=',
  ' begin ',
  ' IN ',
  ' in ',
  ' % ',
  ' IS ',
  ' IS NOT ',
  ' LIKE ',
  '=<',
  '',
)
const value = fc.oneof(
  fc.constantFrom(
    "'Smith'",
    '"Smith"',
    "'S@'",
    'Smith',
    "O'Reilly",
    "'O\\'Reilly'",
    '"\\u0027"',
    '"\\uZZZZ"',
    "'",
    '"',
    "'unclosed",
    '100',
    '-3.5',
    '1e3',
    '1e308',
    '1e999',
    '-1e999',
    '99999999999999999999999999999',
    '0x10',
    'NaN',
    'Infinity',
    'true',
    'false',
    'True',
    'null',
    '2024-01-31',
    '2024-02-30',
    '9999-99-99',
    ':1',
    ':2',
    ':0',
    ':99999999999',
    ':name',
    "['Smith','Jones']",
    '[1,2,3]',
    '[]',
    '[',
    "['a',",
    '()',
  ),
  fc.string({ maxLength: 8 }),
  fc.integer().map(String),
  fc.double().map(String),
)
const comparison = fc.tuple(attribute, operator, value).map(([a, o, v]) => `${a}${o}${v}`)
const glue = fc.constantFrom(
  ' AND ',
  ' and ',
  ' & ',
  ' && ',
  ' OR ',
  ' | ',
  ' || ',
  ' EXCEPT ',
  ' NOT ',
  ' ',
  '',
)

const filterText: fc.Arbitrary<string> = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(tie('filter'), glue, tie('filter')).map(([a, g, b]) => `${a}${g}${b}`),
    tie('filter').map((f) => `(${f})`),
    tie('filter').map((f) => `NOT(${f})`),
    tie('filter').map((f) => `not (${f}`),
    tie('filter').map((f) => `${f})`),
    fc.constantFrom('(', ')', "'", '"', '\\', '&', '|', '[', ']', '.', ':', '@', '%', '\u0000'),
  ),
})).filter

/** Deep nesting, around and past the parser's limit of 256 levels. */
const deepFilter = fc
  .tuple(
    fc.integer({ min: 1, max: 2_000 }),
    fc.constantFrom('(', 'NOT(', 'not ('),
    fc.boolean(),
    comparison,
  )
  .map(
    ([depth, open, closed, inner]) =>
      open.repeat(depth) + inner + (closed ? ')'.repeat(depth) : ''),
  )

/** Long filters: many terms, a long IN list, a huge value. */
const longFilter = fc.oneof(
  fc
    .integer({ min: 1, max: 5_000 })
    .map((n) => Array.from({ length: n }, (_, i) => `salary=${i}`).join(' OR ')),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((n) => `ID IN [${Array.from({ length: n }, (_, i) => i).join(',')}]`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => `lastName='${'x'.repeat(n)}'`),
  fc.integer({ min: 1, max: 200_000 }).map((n) => `lastName=${'@'.repeat(n)}`),
)

const params = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('[1]', '["Smith"]', '[[1,2]]', '[null]', '[', '{}', '"x"', '[1e999]', '[{}]'),
  fc.json({ maxDepth: 3 }),
)

const filterQuery = fc
  .tuple(fc.oneof(filterText, deepFilter, longFilter), params, fc.boolean(), fc.boolean())
  .map(([filter, p, encode, plan]) => {
    const f = encode ? encodeURIComponent(filter) : filter.replace(/[&#%]/g, encodeURIComponent)
    let q = `$filter=${f}`
    if (p !== undefined) q += `&$params=${encodeURIComponent(p)}`
    if (plan) q += '&$queryplan=true&$querypath=true'
    return q
  })

// ---- URLs: segments, brackets, percent-encoding, unknown parameters

const segment = fc.oneof(
  fc.constantFrom(
    'Employee',
    'Company',
    'Hidden',
    '$catalog',
    '$all',
    '$info',
    '$entityset',
    '$directory',
    'staff',
    'employer',
    'lastName',
    'extra.city',
    'Employee(1)',
    'Employee[2]',
    'Employee(',
    'Employee)',
    'Employee(1)(2)',
    'Employee:lastName(Smith)',
    'Employee:(x)',
    'Company(1)',
    '%',
    '%zz',
    '%2F',
    '%00',
    '%E0%A4%A',
    '..',
    '.',
    '',
    '(',
    ')',
    '[',
    ']',
    '[[',
    '))',
    '名',
    '😀',
  ),
  fc.string({ maxLength: 6 }).map(encodeURIComponent),
  fc.string({ maxLength: 6 }),
)
const paramName = fc.oneof(
  fc.constantFrom(
    '$top',
    '$skip',
    '$limit',
    '$filter',
    '$orderby',
    '$attributes',
    '$expand',
    '$compute',
    '$distinct',
    '$format',
    '$asArray',
    '$method',
    '$timeout',
    '$savedfilter',
    '$savedorderby',
    '$logicOperator',
    '$otherCollection',
    '$lock',
    '$binary',
    '$imageformat',
    '$queryplan',
    '$params',
    '$atomic',
    '$4DSID',
    '$nope',
    '$',
    '$__proto__',
  ),
  fc.string({ maxLength: 6 }),
)
const paramValue = fc.oneof(
  fc.constantFrom(
    'true',
    'false',
    '1',
    '-1',
    '0',
    '1e999',
    '99999999999999999999',
    'entityset',
    'release',
    'subentityset',
    'delete',
    'update',
    'looker',
    'sum',
    '$all',
    'lastName desc',
    'employer',
    'staff.*',
    '*',
    'AND',
    'INTERSECT',
    '%',
    '%zz',
    "'",
  ),
  fc.string({ maxLength: 8 }).map(encodeURIComponent),
  fc.string({ maxLength: 8 }),
)
const query = fc
  .array(
    fc.tuple(paramName, paramValue).map(([n, v]) => `${n}=${v}`),
    { maxLength: 5 },
  )
  .map((ps) => ps.join('&'))
const url = fc
  .tuple(
    fc.constantFrom('/rest/', '/rest', '/', '//', '/rest//', '/REST/'),
    fc.array(segment, { maxLength: 4 }),
    fc.oneof(query, filterQuery),
  )
  .map(([start, segments, q]) => ({ path: start + segments.join('/'), query: q }))

// ---- POST bodies: random JSON, deep, huge keys

const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 5_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth))
const body = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ __KEY: '1', lastName: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify([{ __KEY: '2', __STAMP: 1, salary: v }])),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ ID: 99, employer: v })),
  fc
    .dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 })
    .map((o) => JSON.stringify({ __KEY: '3', ...o })),
  deepJson,
  fc.integer({ min: 1, max: 50_000 }).map((n) => JSON.stringify({ ['k'.repeat(n)]: 1 })),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((n) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ __KEY: String(i) })))),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', '{', '[', '{"__KEY":', 'null', '"x"', '1', '\u0000', '{"__proto__":{"x":1}}'),
)
const postPath = fc.constantFrom(
  '/rest/Employee',
  '/rest/Company',
  '/rest/Hidden',
  '/rest/Employee(1)',
  '/rest/$catalog',
)
const postQuery = fc.constantFrom(
  '$method=update',
  '$method=insert',
  '$method=delete',
  '$method=update&$atomic=true',
  '$atomic=true',
  '$method=entityset',
  '',
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  undefined,
)

// Writes change the fixture: every run starts from the same data, so a failure reproduces alone.
const EMPLOYEES = [
  { ID: 1, lastName: 'Smith', salary: 100, employer: 1 },
  { ID: 2, lastName: 'Jones', salary: 200, employer: 2 },
  { ID: 3, lastName: 'Adams', salary: 300, employer: null },
]
function restoreData(): void {
  for (const name of ['Employee', 'Company']) {
    for (const e of ds.dataClass(name).all().toArray())
      if (Number(e.getKey()) > (name === 'Employee' ? 3 : 2)) e.dropOrFail({ force: true })
  }
  const companies = ds.dataClass('Company')
  if (!companies.get(1)) companies.create({ ID: 1, name: 'Acme' })
  if (!companies.get(2)) companies.create({ ID: 2, name: "O'Reilly" })
  const employees = ds.dataClass('Employee')
  for (const values of EMPLOYEES) {
    const e = employees.get(values.ID)
    if (!e) employees.create(values)
    else if (e.get('lastName') !== values.lastName || e.get('salary') !== values.salary)
      employees.update(values.ID, values)
  }
}

describe('hostile input', () => {
  test.prop(
    [filterQuery, fc.constantFrom('/rest/Employee', '/rest/Company(1)/staff', '/rest/Company')],
    {
      numRuns: 400,
    },
  )('a random $filter answers below 500, promptly, and leaves the server sound', (q, path) => {
    expectSound(send({ path, query: q }), `${path}?${q.slice(0, 300)}`)
  })

  test.prop([url], { numRuns: 500 })(
    'a random URL answers below 500 and leaves the server sound',
    ({ path, query: q }) => {
      expectSound(send({ path, query: q }), `${path}?${q.slice(0, 300)}`)
    },
  )

  test.prop([postPath, postQuery, body, contentType], { numRuns: 400 })(
    'a random POST body answers below 500 and leaves the server sound',
    (path, q, text, type) => {
      const headers = type === undefined ? {} : { 'content-type': type }
      const reply = send({ method: 'POST', path, query: q, headers, body: text })
      restoreData()
      expectSound(reply, `POST ${path}?${q} ${text.slice(0, 200)}`)
    },
  )

  test.prop(
    [
      fc.constantFrom('path', 'query', 'header', 'cookie', 'body'),
      fc.integer({ min: 10_000, max: 2_000_000 }),
    ],
    { numRuns: 30 },
  )('an oversized path, query, header, cookie or body answers below 500', (where, size) => {
    const big = 'a'.repeat(size)
    const request: Partial<RestRequest> & { path: string } =
      where === 'path'
        ? { path: `/rest/Employee/${big}` }
        : where === 'query'
          ? { path: '/rest/Employee', query: `$orderby=${big}` }
          : where === 'header'
            ? { path: '/rest/Employee', headers: { 'x-big': big, 'user-agent': big } }
            : where === 'cookie'
              ? { path: '/rest/Employee', headers: { cookie: `4DSID_hostile=${big}; x=${big}` } }
              : {
                  method: 'POST',
                  path: '/rest/Employee',
                  query: '$method=update',
                  headers: { 'content-type': 'application/json' },
                  body: `{"__KEY":"1","lastName":"${big}"}`,
                }
    const reply = send(request)
    restoreData()
    expectSound(reply, `${where} of ${size}`)
  })

  test.prop([fc.oneof(filterQuery, query)], { numRuns: 100 })(
    'the fetch transport answers the same hostile requests below 500',
    async (q) => {
      const res = await rest.request(`/rest/Employee?${q}`)
      const text = await res.text()
      expectSound({ status: res.status, text }, q.slice(0, 300))
    },
  )
})
