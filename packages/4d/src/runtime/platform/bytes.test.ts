import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hexOf, plainBase64Of, plainBytesOfBase64, randomBytes, randomUuid } from './bytes.js'

// What a page runs (no Buffer) against what Node's Buffer answers, which 4D code met until now.
describe('bytes as text without Buffer', () => {
  it('writes Base64 and Base64URL as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, url) => {
        expect(plainBase64Of(bytes, url)).toBe(
          Buffer.from(bytes).toString(url ? 'base64url' : 'base64'),
        )
      }),
    )
  })

  it('reads Base64 as Buffer does: either alphabet, with or without padding, noise skipped', () => {
    const text = fc.oneof(
      fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b).toString('base64')),
      fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b).toString('base64url')),
      fc.string({ unit: fc.constantFrom(...'AZaz09+/-_= \n\r.é€'.split('')), maxLength: 40 }),
      fc.string({ maxLength: 20 }),
    )
    fc.assert(
      fc.property(text, (t) => {
        expect(plainBytesOfBase64(t)).toEqual(new Uint8Array(Buffer.from(t, 'base64')))
      }),
    )
  })

  it('says bytes in hexadecimal capitals, and draws random bytes and UUIDs from Web Crypto', () => {
    expect(hexOf(new Uint8Array([0, 15, 171, 255]))).toBe('000FABFF')
    expect(randomBytes(16)).toHaveLength(16)
    expect(randomUuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })
})
