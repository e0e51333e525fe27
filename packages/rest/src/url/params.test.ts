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
