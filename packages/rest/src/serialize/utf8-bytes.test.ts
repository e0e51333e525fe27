import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countUtf8Bytes, utf8Bytes } from './utf8-bytes.js'

describe('utf8Bytes', () => {
  it('counts as Buffer does without it: ASCII, Latin-1, CJK, emoji, lone surrogates', () => {
    for (const text of [
      '',
      'abc',
      'Zoé',
      '東京',
      '😀',
      'a😀b',
      '\ud800',
      '\udc00x',
      'x\ud800\ud800',
    ])
      expect(countUtf8Bytes(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, 'utf8'))
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(countUtf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'))
      }),
      { numRuns: 2000 },
    )
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
          maxLength: 40,
        }),
        (text) => {
          expect(countUtf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'))
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('is the native count where there is one', () => {
    expect(utf8Bytes('Zoé 😀')).toBe(Buffer.byteLength('Zoé 😀'))
  })
})
