import { DatastoreError } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { formDecode, parseQueryString, unquote } from './query-string.js'

describe('formDecode', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a+b', 'a b'],
    ['a%2Bb', 'a+b'],
    ['%24top', '$top'],
    ['%C3%A9t%C3%A9', 'été'],
    ['%F0%9F%98%80', '😀'],
    ['%22x%22', '"x"'],
    ['100%', '100%'],
    ['%zz', '%zz'],
    ['pct>5%&', 'pct>5%&'],
    ['%%41', '%A'],
    ['%4', '%4'],
    ['%41%', 'A%'],
    ['\\u0022', '\\u0022'],
    ['%00', '\u0000'],
  ])('decodes %j as %j', (text, decoded) => {
    expect(formDecode(text, text)).toBe(decoded)
  })

  it.each(['%C3%28', '%E0%A4', '%FF', '%C3', '%ED%A0%80'])(
    'refuses the broken UTF-8 sequence %s with 1806 naming the whole URL',
    (text) => {
      let error: unknown
      try {
        formDecode(text, `whole?x=${text}`)
      } catch (e) {
        error = e
      }
      expect(DatastoreError.is(error)).toBe(true)
      const e = error as DatastoreError
      expect([e.name, e.errCode]).toEqual(['UrlMalformed', 1806])
      expect(e.message).toBe(
        `The URL "whole?x=${text}" is malformed: "${text}" is not valid percent-encoded UTF-8`,
      )
    },
  )
})

describe('parseQueryString', () => {
  it.each<[string, { name: string; value: string }[]]>([
    ['', []],
    ['&', []],
    ['&&$top=1&&', [{ name: '$top', value: '1' }]],
    [
      '$top=10&$skip=2',
      [
        { name: '$top', value: '10' },
        { name: '$skip', value: '2' },
      ],
    ],
    ['$asArray', [{ name: '$asArray', value: '' }]],
    ['$top=', [{ name: '$top', value: '' }]],
    ['=1', [{ name: '', value: '1' }]],
    ['%24top=%222%22', [{ name: '$top', value: '"2"' }]],
    ['$filter=a=b', [{ name: '$filter', value: 'a=b' }]],
    ['$filter="name=\'A@\'"', [{ name: '$filter', value: '"name=\'A@\'"' }]],
    ['$filter=a%26b', [{ name: '$filter', value: 'a&b' }]],
    ['$filter=x+y', [{ name: '$filter', value: 'x y' }]],
    ['$filter="pct>5%"', [{ name: '$filter', value: '"pct>5%"' }]],
    ['a+b=c+d', [{ name: 'a b', value: 'c d' }]],
    [
      '$top=1&$top=2',
      [
        { name: '$top', value: '1' },
        { name: '$top', value: '2' },
      ],
    ],
    ['__proto__=1', [{ name: '__proto__', value: '1' }]],
  ])('reads %j', (search, params) => {
    expect(parseQueryString(search)).toEqual(params)
  })

  it('refuses broken UTF-8 in a name or a value, naming the query string', () => {
    expect(() => parseQueryString('$top=1&%C3%28=1')).toThrow(
      'The URL "$top=1&%C3%28=1" is malformed: "%C3%28" is not valid percent-encoded UTF-8',
    )
    expect(() => parseQueryString('$top=%E0%A4')).toThrow(/"%E0%A4" is not valid/)
  })
})

describe('unquote', () => {
  it.each([
    ['"x"', 'x'],
    ["'x'", 'x'],
    ['""', ''],
    ["''", ''],
    ['  "x"  ', 'x'],
    [' x ', 'x'],
    ['"x', '"x'],
    ['x"', 'x"'],
    ['"', '"'],
    ['"x\'', '"x\''],
    ['""x""', '"x"'],
    ['"lastName=\'A@\'"', "lastName='A@'"],
    ['\'["john",20000]\'', '["john",20000]'],
    ['', ''],
  ])('turns %j into %j', (value, result) => {
    expect(unquote(value)).toBe(result)
  })
})
