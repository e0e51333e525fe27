import { DatastoreError } from '@entistore/core'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { claimsJson, readJsonBody, type JsonBodyOptions } from './read-json-body.js'

const JSON_TYPE = 'application/json'
const utf8 = (text: string) => new TextEncoder().encode(text)

/** The DatastoreError `run` throws; fails the test if it returns or throws anything else. */
function caught(run: () => unknown): DatastoreError {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  if (!DatastoreError.is(thrown)) throw new Error(`expected a DatastoreError, got ${thrown}`)
  return thrown
}

const refusal = (
  body: Uint8Array | string | undefined,
  type: string | string[] | undefined = JSON_TYPE,
  options?: JsonBodyOptions,
) => caught(() => readJsonBody(body, type, options))

/** Asserts a 400 BadRequestBody and returns its message. */
function badBody(
  body: Uint8Array | string,
  type: string | string[] | undefined = JSON_TYPE,
  options?: JsonBodyOptions,
): string {
  const e = refusal(body, type, options)
  expect([e.name, e.errCode, e.category]).toEqual(['BadRequestBody', 9030, 'badRequest'])
  return e.message
}

/** JSON whose objects and arrays nest depth levels: `[[[…]]]` or `{"a":{"a":…}}`. */
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const nestedObject = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1)

describe('readJsonBody: valid bodies', () => {
  it('reads an object and an array of objects, from bytes and from a string', () => {
    const one = { ID: 1, name: 'Smith', manager: { __KEY: '3' }, tags: ['a', null] }
    expect(readJsonBody(utf8(JSON.stringify(one)), JSON_TYPE)).toEqual(one)
    expect(readJsonBody(JSON.stringify([one, { ID: 2 }]), JSON_TYPE)).toEqual([one, { ID: 2 }])
  })

  it('reads any JSON value at the top, scalars included', () => {
    expect(readJsonBody('42', JSON_TYPE)).toBe(42)
    expect(readJsonBody(' "x" ', JSON_TYPE)).toBe('x')
    expect(readJsonBody('null', JSON_TYPE)).toBeNull()
    expect(readJsonBody('false', JSON_TYPE)).toBe(false)
  })

  it('drops a leading byte order mark, in bytes and in a string', () => {
    expect(readJsonBody(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]), JSON_TYPE)).toEqual(
      {
        a: 1,
      },
    )
    expect(readJsonBody('\uFEFF[1]', JSON_TYPE)).toEqual([1])
  })

  it('decodes multi-byte UTF-8', () => {
    expect(readJsonBody(utf8('{"name":"Zoë 日本 😀"}'), JSON_TYPE)).toEqual({ name: 'Zoë 日本 😀' })
  })

  it.each([
    undefined,
    [],
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; charset=utf8',
    'Application/Json ; Charset = UTF-8 ; q=1',
    'application/merge-patch+json',
    'application/vnd.api+json; charset=utf-8',
    'text/plain',
    'text/plain;charset=UTF-8',
    '',
    ['application/json'],
    ['application/json', 'Application/JSON'],
  ])('accepts the Content-Type %j', (type) => {
    expect(readJsonBody('{"a":[1]}', type)).toEqual({ a: [1] })
  })

  it('returns a 100 KB string value intact', () => {
    const big = 'x'.repeat(50_000) + 'é'.repeat(25_000) + '"\\\n'.repeat(1000)
    const value = readJsonBody(utf8(JSON.stringify({ comment: big })), JSON_TYPE)
    expect((value as { comment: string }).comment).toBe(big)
  })

  it('accepts nesting up to maxDepth, and 64 levels by default', () => {
    expect(readJsonBody(nestedArray(64), JSON_TYPE)).toBeInstanceOf(Array)
    expect(readJsonBody(nestedObject(3), JSON_TYPE, { maxDepth: 3 })).toEqual({ a: { a: {} } })
    expect(readJsonBody('7', JSON_TYPE, { maxDepth: 0 })).toBe(7)
  })

  it('accepts the forbidden names as values, and keys that only contain them', () => {
    const ok = {
      name: '__proto__',
      list: ['constructor', 'prototype'],
      __proto__x: 1,
      Prototype: 2,
    }
    expect(readJsonBody(JSON.stringify(ok), JSON_TYPE)).toEqual(ok)
  })
})

describe('readJsonBody: empty bodies', () => {
  it.each<[string, Uint8Array | string | undefined]>([
    ['absent', undefined],
    ['zero bytes', new Uint8Array(0)],
    ['an empty string', ''],
    ['whitespace bytes', utf8(' \r\n\t \n')],
    ['a whitespace string', '   \n'],
    ['only a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf])],
    ['a byte order mark and spaces', '\uFEFF  '],
  ])('is undefined when the body is %s', (_, body) => {
    expect(readJsonBody(body, JSON_TYPE)).toBeUndefined()
  })

  it('is undefined for an absent or zero-byte body whatever its Content-Type', () => {
    expect(readJsonBody(undefined, 'multipart/form-data; boundary=x')).toBeUndefined()
    expect(readJsonBody(new Uint8Array(0), 'application/x-www-form-urlencoded')).toBeUndefined()
  })
})

describe('readJsonBody: Content-Type', () => {
  // Types that do not claim JSON: a body under them is read if it is JSON, else refused 415.
  const FOREIGN = [
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=UTF-8',
    'multipart/form-data; boundary=----x',
    'application/octet-stream',
    'text/html',
    'application/xml',
    'application/jsonx',
    'application/+json',
    'text/json',
    'application/json, text/plain',
    'json',
  ]

  it.each(FOREIGN)('reads a JSON body declared %j as JSON', (type) => {
    expect(readJsonBody('{"a":[1]}', type)).toEqual({ a: [1] })
    expect(readJsonBody(utf8('[{"ID":1}]'), type)).toEqual([{ ID: 1 }])
  })

  it.each(FOREIGN)('refuses a body declared %j that is not JSON with 415', (type) => {
    const e = refusal('a=1&b=2', type)
    expect([e.name, e.errCode, e.category]).toEqual([
      'UnsupportedMediaType',
      9036,
      'unsupportedMediaType',
    ])
    expect(e.message).toContain(type.split(';')[0]!)
    // Only the type is refused: no parser's complaint about text that was never meant as JSON.
    expect(e.cause).toBeUndefined()
  })

  it('refuses bytes that are not UTF-8 under a type that does not claim JSON with 415', () => {
    // A file sent as it is: not a JSON mistake, a body of a kind this server does not read.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(refusal(png, 'application/octet-stream').errCode).toBe(9036)
  })

  it.each([JSON_TYPE, 'text/plain', 'application/vnd.api+json', undefined, ''])(
    'refuses a body declared %j that is not JSON with 400, saying where',
    (type) => {
      const e = refusal('a=1&b=2', type)
      expect([e.name, e.errCode]).toEqual(['BadRequestBody', 9030])
      expect(e.message).toMatch(/it is not JSON/)
    },
  )

  it('checks JSON declared as a form like any JSON: forbidden keys and depth are 400', () => {
    const form = 'application/x-www-form-urlencoded'
    expect(badBody('{"__proto__": {"polluted": 1}}', form)).toMatch(/"__proto__"/)
    expect(badBody(nestedArray(3), form, { maxDepth: 2 })).toMatch(/deeper than 2 levels/)
  })

  it('reads a whitespace body of any type as empty', () => {
    expect(readJsonBody(' \n', 'multipart/form-data; boundary=x')).toBeUndefined()
  })

  it('refuses a body of any type in another charset, JSON or not', () => {
    expect(badBody('{"a":1}', 'application/json; charset=iso-8859-1')).toMatch(
      /charset "iso-8859-1" is not UTF-8/,
    )
    expect(badBody('{"a":1}', 'text/plain; charset=UTF-16')).toMatch(/charset "UTF-16"/)
    const latinForm = 'application/x-www-form-urlencoded; charset=iso-8859-1'
    expect(badBody('{"a":1}', latinForm)).toMatch(/charset "iso-8859-1"/)
    expect(badBody('a=1', latinForm)).toMatch(/charset "iso-8859-1"/)
  })

  it('refuses different Content-Type values sent together', () => {
    expect(badBody('{"a":1}', ['application/json', 'text/html'])).toMatch(/Content-Type/)
  })

  it('echoes at most about 100 characters of a long type or charset', () => {
    const longType = 'application/' + 'x'.repeat(100_000)
    expect(refusal('a=1', longType).message.length).toBeLessThan(250)
    expect(badBody('{}', 'application/json; charset=' + 'y'.repeat(100_000)).length).toBeLessThan(
      250,
    )
  })
})

describe('claimsJson', () => {
  it.each([JSON_TYPE, 'text/plain; charset=utf-8', 'application/merge-patch+json', undefined, ''])(
    'is true for %j',
    (type) => {
      expect(claimsJson(type)).toBe(true)
    },
  )

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/html'])(
    'is false for %j',
    (type) => {
      expect(claimsJson(type)).toBe(false)
    },
  )

  it('does not throw for a header readJsonBody refuses', () => {
    expect(claimsJson(['application/json', 'text/html'])).toBe(true)
    expect(claimsJson('application/x-www-form-urlencoded; charset=latin1')).toBe(true)
  })
})

describe('readJsonBody: bytes and syntax', () => {
  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a truncated sequence', [0x22, 0xe6, 0x97, 0x22]],
    ['an overlong encoding', [0x22, 0xc0, 0xaf, 0x22]],
    ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ['Latin-1 text', [0x22, 0x5a, 0x6f, 0xeb, 0x22]],
  ])('refuses invalid UTF-8: %s', (_, bytes) => {
    expect(badBody(new Uint8Array(bytes))).toMatch(/not valid UTF-8/)
  })

  it('says the line and column of a syntax error in a multi-line body', () => {
    const body = '[\n  {"ID": 1},\n  {"ID": 2,}\n]'
    const e = refusal(utf8(body))
    expect(e.name).toBe('BadRequestBody')
    // The parser stops at the `}` after the trailing comma: line 3, column 12.
    expect(e.details).toEqual({ line: 3, column: 12 })
    expect(e.message).toMatch(
      /^The request body is not valid: it is not JSON \(.+\) at line 3, column 12$/,
    )
  })

  it('counts CR LF and lone CR as line ends', () => {
    expect(refusal('{\r\n"a": 1,\r\n"b" 2}').details).toEqual({ line: 3, column: 5 })
    expect(refusal('{\r"a" 2}').details).toEqual({ line: 2, column: 5 })
  })

  it('places text after the value where it starts', () => {
    const e = refusal('{"a": 1}\n  x' + 'y'.repeat(100_000))
    expect(e.details).toEqual({ line: 2, column: 3 })
    expect(e.message.length).toBeLessThan(250)
  })

  it('places an unexpected end at the end of the text', () => {
    const e = refusal('{"a":\n  [1, 2')
    expect(e.details).toEqual({ line: 2, column: 8 })
    expect(e.message).toMatch(/line 2, column 8/)
  })

  it('says so when the parser gives no position', () => {
    // V8 gives no position for a bad first token: `Unexpected token 'x', "xyz" is not valid JSON`.
    const e = refusal('xyz')
    expect(e.message).toMatch(/it is not JSON \(.*\bno position\b.*\)/)
    expect(e.details).toBeUndefined()
  })

  describe('with a parser message of another shape', () => {
    afterEach(() => {
      vi.restoreAllMocks()
    })
    it('says there is no position and does not crash', () => {
      vi.spyOn(JSON, 'parse').mockImplementation(() => {
        throw new SyntaxError('something else went wrong')
      })
      const e = refusal('{"a":1}')
      expect(e.message).toBe(
        'The request body is not valid: it is not JSON (something else went wrong; the parser gave no position)',
      )
      expect(e.details).toBeUndefined()
    })
  })

  it('echoes at most about 100 characters of the body in a syntax error', () => {
    const e = refusal('"' + 'z'.repeat(100_000) + '" tail')
    expect(e.message.length).toBeLessThan(250)
    const first = refusal('q'.repeat(100_000))
    expect(first.message.length).toBeLessThan(250)
  })
})

describe('readJsonBody: forbidden keys', () => {
  it.each([
    ['__proto__ at the top', '{"__proto__": {"polluted": true}}', '$.__proto__'],
    [
      'constructor at the top',
      '{"a": 1, "constructor": {"prototype": {"polluted": true}}}',
      '$.constructor',
    ],
    ['prototype at the top', '{"prototype": 1}', '$.prototype'],
    [
      '__proto__ in an object',
      '{"a": {"b": {"__proto__": {"polluted": true}}}}',
      '$.a.b.__proto__',
    ],
    ['constructor in an object', '{"a": {"constructor": 1}}', '$.a.constructor'],
    ['prototype in an object', '{"x y": {"prototype": 1}}', '$["x y"].prototype'],
    [
      '__proto__ in an array',
      '[{"ID": 1}, {"ID": 2, "extra": {"__proto__": {"polluted": 1}}}]',
      '$[1].extra.__proto__',
    ],
    ['constructor in an array', '[[], [0, {"constructor": null}]]', '$[1][1].constructor'],
    ['prototype in an array', '[{"prototype": []}]', '$[0].prototype'],
  ])('refuses %s', (_, body, path) => {
    const key = path.slice(path.lastIndexOf('.') + 1)
    const message = badBody(body)
    expect(message).toBe(`The request body is not valid: it has the key "${key}" (at ${path})`)
    // Nothing leaked onto the shared prototype, whatever the body held.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES)
    expect(Object.getPrototypeOf({})).toBe(Object.prototype)
  })

  it('refuses them in bytes as in a string', () => {
    expect(badBody(utf8('[{"__proto__": 1}]'))).toMatch(/"__proto__" \(at \$\[0\]\.__proto__\)/)
  })

  it('keeps a message short when the path holds a 100 KB key', () => {
    const name = 'n'.repeat(100_000)
    const message = badBody(`{"${name}": {"__proto__": 1}}`)
    expect(message.length).toBeLessThan(400)
    // The key is shown clipped, not dropped: the start of it says which attribute was sent.
    expect(message).toMatch(/\(at \$\["n{20,60}…"\]\.__proto__\)$/)
  })

  it('keeps a depth message short when the deepest step is a 100 KB key', () => {
    const message = badBody(`{"${'k'.repeat(100_000)}": []}`, JSON_TYPE, { maxDepth: 1 })
    expect(message.length).toBeLessThan(400)
    expect(message).toMatch(/\(at \$\["k{20,60}…"\]\)$/)
  })

  it('keeps a message short when the path is many keys long', () => {
    const body = '{"abcdefghij":'.repeat(60) + '{"constructor":1}' + '}'.repeat(60)
    const message = badBody(body, JSON_TYPE, { maxDepth: 100 })
    expect(message.length).toBeLessThan(400)
    expect(message).toMatch(/^.*\(at \$\.abcdefghij.*….*\.abcdefghij\.constructor\)$/)
  })
})

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort()

describe('readJsonBody: depth', () => {
  it.each([
    ['array', nestedArray],
    ['object', nestedObject],
  ])('refuses a 10,000-deep %s without overflowing the stack', (_, nested) => {
    const message = badBody(nested(10_000))
    expect(message).toMatch(/deeper than 64 levels \(at \$(\[0\]|\.a)+…(\[0\]|\.a)+\)$/)
    expect(message.length).toBeLessThan(400)
  })

  it('names the limit and the path where it was passed', () => {
    expect(badBody('{"a": [1, {"b": [[]]}]}', JSON_TYPE, { maxDepth: 3 })).toBe(
      'The request body is not valid: it nests objects and arrays deeper than 3 levels (at $.a[1].b)',
    )
    expect(badBody('[[1]]', JSON_TYPE, { maxDepth: 1 })).toMatch(
      /deeper than 1 levels \(at \$\[0\]\)/,
    )
    expect(badBody('{}', JSON_TYPE, { maxDepth: 0 })).toMatch(/\(at \$\)$/)
  })

  it('checks the depth of every branch, not only the first', () => {
    expect(badBody('[[], [], [[[]]]]', JSON_TYPE, { maxDepth: 3 })).toMatch(
      /\(at \$\[2\]\[0\]\[0\]\)/,
    )
  })

  it('refuses a 10,000-deep body with a higher limit too, without recursion', () => {
    expect(readJsonBody(nestedArray(10_000), JSON_TYPE, { maxDepth: 10_000 })).toBeInstanceOf(Array)
    expect(badBody(nestedObject(10_000), JSON_TYPE, { maxDepth: 9_999 })).toMatch(/9999 levels/)
  })

  it('throws a RangeError for a maxDepth that is no number of levels', () => {
    expect(() => readJsonBody('1', JSON_TYPE, { maxDepth: NaN })).toThrow(RangeError)
    expect(() => readJsonBody('1', JSON_TYPE, { maxDepth: -1 })).toThrow(RangeError)
  })
})

describe('readJsonBody: any JSON value', () => {
  const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

  /** The nesting of objects and arrays in `v` (0 for a scalar), and whether a key is forbidden. */
  function shape(v: unknown): { depth: number; forbidden: boolean } {
    if (typeof v !== 'object' || v === null) return { depth: 0, forbidden: false }
    let depth = 0
    let forbidden = false
    for (const [k, child] of Object.entries(v)) {
      if (!Array.isArray(v) && FORBIDDEN.has(k)) forbidden = true
      const s = shape(child)
      depth = Math.max(depth, s.depth)
      forbidden ||= s.forbidden
    }
    return { depth: depth + 1, forbidden }
  }

  const values = fc
    .jsonValue({ maxDepth: 8, stringUnit: 'grapheme' })
    .filter((v) => !shape(v).forbidden)

  it('reads what JSON.stringify wrote, from a string or bytes, at any limit it fits', () => {
    fc.assert(
      fc.property(values, fc.boolean(), (v, asBytes) => {
        const text = JSON.stringify(v)
        const body = asBytes ? utf8(text) : text
        const { depth } = shape(v)
        const expected = JSON.parse(text) as unknown
        expect(readJsonBody(body, JSON_TYPE)).toStrictEqual(expected)
        expect(readJsonBody(body, JSON_TYPE, { maxDepth: depth })).toStrictEqual(expected)
        if (depth > 0) expect(badBody(body, JSON_TYPE, { maxDepth: depth - 1 })).toMatch(/deeper/)
      }),
    )
  })

  it('refuses any value holding a forbidden key', () => {
    const withForbidden = fc
      .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(...FORBIDDEN), fc.nat(5))
      .map(([v, key, wrap]) => {
        let text = `{"${key}": ${JSON.stringify(v)}}`
        for (let i = 0; i < wrap; i++) text = i % 2 === 0 ? `[0, ${text}]` : `{"k": ${text}}`
        return text
      })
    fc.assert(
      fc.property(withForbidden, (text) => {
        expect(badBody(text)).toMatch(/it has the key "(__proto__|constructor|prototype)"/)
      }),
    )
  })
})
