import { fc, test } from '@fast-check/vitest'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect } from 'vitest'
import { createRestHandler } from './handler.js'

// Whatever the URL, the handler answers JSON, and a client's mistake is a 4xx `__ERROR`, never a 5xx.
// The fragments hold no attribute name of the model and no unimplemented keyword ($compute…): those
// are documented to answer 501 (see handler.test.ts), the one 5xx a GET may get.

const ds = createDatastore(
  {
    __NAME: 'prop',
    dataClasses: [
      {
        name: 'Company',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'title', type: 'string' },
          { name: 'staff', kind: 'relatedEntities', path: 'employer' },
        ],
      },
      {
        name: 'Employee',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'surname', type: 'string' },
          { name: 'born', type: 'date' },
          { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        ],
      },
      {
        name: 'Tag',
        attributes: [{ name: 'code', type: 'string' }],
        key: [{ name: 'code' }],
      },
      { name: 'Hidden', exposed: false, attributes: [{ name: 'ID', type: 'long' }] },
    ],
  },
  {
    data: {
      Company: [{ ID: 1, title: 'Acme' }],
      Employee: [
        { ID: 1, surname: 'Smith', born: '1970-01-02', employer: 1 },
        { ID: 2, surname: 'abc', employer: 1 },
      ],
      Tag: [{ code: 'abc' }, { code: '1' }],
    } as unknown as DataFile,
    clock: new ManualClock(),
  },
)
const rest = createRestHandler(ds)

const fragments: string[] = [
  '/rest/',
  '/rest',
  '/',
  'Employee',
  'Company',
  'Tag',
  'Hidden',
  '(',
  ')',
  '[',
  ']',
  ':',
  ',',
  '.',
  '?',
  '&',
  '=',
  '#',
  '+',
  ' ',
  '$top=',
  '$skip=',
  '$limit=',
  '$asArray=',
  '$4DSID=',
  '$catalog',
  '/$all',
  '$entityset',
  '$',
  '1',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  'abc',
  '%',
  '%zz',
  '%24',
  '%22',
  '%28',
  '%E0%A4',
  '%C3%A9',
  '%00',
  '"',
  "'",
  '__proto__',
  'constructor',
  'toString',
  'é',
  '名',
  '😀',
  '\u202e',
]

const soup = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...fragments), { maxLength }).map((a) => a.join(''))

// Fragments glued at random, and the same fragments in the shape of a REST URL, which gets past
// the path parser to the parameters, keys and routes far more often.
const anyText = fc
  .tuple(fc.constantFrom('/rest/', '/rest', '/', '//'), soup(10))
  .map(([start, tail]) => start + tail)

const dataClass = fc.oneof(
  fc.constantFrom('Employee', 'Company', 'Tag', 'Hidden', '$catalog'),
  soup(3),
)
const key = fc.oneof(
  fc.constant(''),
  soup(3).map((k) => `(${k})`),
  soup(3).map((k) => `[${k}]`),
  fc.tuple(soup(2), soup(2)).map(([a, v]) => `:${a}(${v})`),
)
const tail = fc.oneof(
  fc.constant(''),
  soup(3).map((t) => `/${t}`),
)
const paramName = fc.oneof(
  fc.constantFrom('$top', '$skip', '$limit', '$asArray', '$4DSID', '%24top', '$TOP', '_'),
  fc.constantFrom('$catalog', '$entityset', '$all', '$', '$__proto__', '$constructor'),
  soup(2),
)
const query = fc
  .array(
    fc.tuple(paramName, soup(3)).map(([n, v]) => `${n}=${v}`),
    { maxLength: 4 },
  )
  .map((ps) => (ps.length === 0 ? '' : `?${ps.join('&')}`))
const restUrl = fc
  .tuple(fc.constantFrom('/rest/', '/rest/$catalog/'), dataClass, key, tail, query)
  .map((parts) => parts.join(''))

const path = fc.oneof(anyText, restUrl)

describe('the handler on any URL', () => {
  test.prop([path], { numRuns: 600 })(
    'answers valid JSON below 500, every error in the __ERROR shape',
    async (p) => {
      const res = await rest.request(p)
      const text = await res.text()
      const body = JSON.parse(text) as unknown
      expect(res.status).toBeLessThan(500)
      if (res.status >= 400) {
        expect(Object.keys(body as object)).toEqual(['__ERROR'])
        const errors = (body as { __ERROR: unknown[] }).__ERROR
        expect(errors.length).toBeGreaterThan(0)
        for (const e of errors) {
          expect(Object.keys(e as object)).toEqual(['message', 'componentSignature', 'errCode'])
          const { message, componentSignature, errCode } = e as Record<string, unknown>
          expect(typeof message).toBe('string')
          expect(['dbmg', 'enti']).toContain(componentSignature)
          expect(Number.isInteger(errCode)).toBe(true)
        }
      } else {
        expect(res.status).toBe(200)
      }
    },
  )
})
