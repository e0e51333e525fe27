import { DatastoreError } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { readParams } from './params.js'
import { parseQueryString } from './query-string.js'

const read = (search: string, maxTop = 100_000) => readParams(parseQueryString(search), { maxTop })

function readError(search: string): DatastoreError {
  try {
    read(search)
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error(`expected ${search} to be refused`)
}

describe('readParams', () => {
  it('gives the defaults for an empty query', () => {
    expect(read('')).toMatchObject({
      top: undefined,
      skip: 0,
      asArray: false,
      sessionId: undefined,
    })
  })

  it.each([
    ['$top=5', { top: 5 }],
    ['$limit=5', { top: 5 }],
    ['$limit=7&$top=5', { top: 5 }],
    ['$top=+5', { top: 5 }],
    ['$top=%2B5', { top: 5 }],
    ['$top=007', { top: 7 }],
    ['$TOP=5&$Skip=2', { top: 5, skip: 2 }],
    ["$skip='3'", { skip: 3 }],
    ['$asArray', { asArray: true }],
    ['$asarray=False', { asArray: false }],
    ['$4DSID=ABC', { sessionId: 'ABC' }],
    ['$4dsid=%22ABC%22', { sessionId: 'ABC' }],
    ['$4DSID=A&$4DSID=B', { sessionId: 'B' }],
    ['_=170000&foo=bar&%24top=1', { top: 1 }],
    ['$lock=true', { lock: true }],
    ['$LOCK=false', { lock: false }],
    ['$lock', { lock: true }],
    ['$top=1', { lock: undefined }],
  ])('reads %s', (search, expected) => {
    expect(read(search)).toMatchObject(expected)
  })

  it.each([
    ['$rawPict=true', 'true'],
    ['$RAWPICT', 'true'],
    ['$rawPict=image/PNG', 'image/png'],
    ['$rawPict=%22image/jpeg%22', 'image/jpeg'],
    ['$rawPict=false', undefined],
    ['$top=1', undefined],
  ])('reads %s as rawPict %s', (search, rawPict) => {
    expect(read(search).rawPict).toBe(rawPict)
  })

  it.each(['$rawPict=text/html', '$rawPict=yes', '$rawPict=image/'])(
    'refuses %s with 1806: true or a picture media type',
    (search) => {
      const e = readError(search)
      expect([e.name, e.errCode]).toEqual(['InvalidParameter', 1806])
      expect(e.message).toContain('image/png')
    },
  )

  it.each(['$nope', '$', '$catalog', '$info', '$entityset', '$upload', '$__proto__', '$toString'])(
    'refuses %s, which is no query keyword, with 1811',
    (name) => {
      const e = readError(`${name}=1`)
      expect([e.name, e.errCode, e.message]).toEqual([
        'UnknownQueryKeyword',
        1811,
        `Unknown REST query keyword "${name}"`,
      ])
    },
  )

  it('checks $top against maxTop and names the parameter that was used', () => {
    expect(read('$top=10', 10).top).toBe(10)
    const e = (() => {
      try {
        read('$limit=11', 10)
      } catch (x) {
        return x as DatastoreError
      }
      throw new Error('expected a refusal')
    })()
    expect([e.name, e.errCode, e.message]).toEqual([
      'LimitExceeded',
      9011,
      '$limit=11 exceeds the limit of 10',
    ])
    expect(e.details).toEqual({ parameter: '$limit' })
  })

  it('does not limit $skip', () => {
    expect(read('$skip=1000', 10).skip).toBe(1000)
  })
})

describe('readParams: $params, read as a request body is', () => {
  const params = (value: string, maxDepth?: number) =>
    readParams(parseQueryString(`$params=${encodeURIComponent(value)}`), {
      maxTop: Infinity,
      ...(maxDepth === undefined ? {} : { maxDepth }),
    }).params
  const refusal = (value: string, maxDepth?: number): string => {
    try {
      params(value, maxDepth)
    } catch (e) {
      if (!DatastoreError.is(e)) throw e
      expect([e.name, e.errCode, e.category]).toEqual(['InvalidParameter', 1806, 'badRequest'])
      return e.message
    }
    throw new Error(`expected $params=${value} to be refused`)
  }
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

  it('reads a JSON array, with or without single quotes', () => {
    expect(params('["john",20000]')).toEqual(['john', 20000])
    expect(params(`'[{"a":[1,2]}]'`)).toEqual([{ a: [1, 2] }])
  })

  it('refuses the keys a body may not carry, at any depth, naming where', () => {
    expect(refusal('[{"__proto__":{"admin":true}}]')).toBe(
      'Invalid value "[{"__proto__":{"admin":true}}]" for $params: expected a JSON array, but it has the key "__proto__" (at $[0].__proto__)',
    )
    expect(refusal('[1,{"a":{"constructor":{}}}]')).toMatch(
      /key "constructor" \(at \$\[1\]\.a\.constructor\)$/,
    )
    expect(refusal('[{"prototype":1}]')).toMatch(/key "prototype"/)
  })

  it('refuses nesting deeper than the body limit: 64 levels by default, or maxDepth', () => {
    expect(params(nested(64))).toHaveLength(1)
    expect(refusal(nested(65))).toMatch(/deeper than 64 levels \(at \$\[0\]\[0\]\[0\].*…/)
    expect(refusal(nested(1500))).toMatch(/deeper than 64 levels/)
    expect(params(nested(3), 3)).toHaveLength(1)
    expect(refusal(nested(3), 2)).toMatch(/deeper than 2 levels/)
  })

  it('says where a syntax error is, and that another value is no array', () => {
    expect(refusal('[1 2]')).toMatch(/but it is not JSON \(.*\) at line 1, column 4$/)
    expect(refusal('{"a":1}')).toBe('Invalid value "{"a":1}" for $params: expected a JSON array')
  })
})
