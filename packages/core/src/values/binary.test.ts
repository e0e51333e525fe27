import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { binaryValue, decodeBase64, encodeBase64, isBinaryValue, sniffImageType } from './binary.js'

const bytes = (...b: number[]) => new Uint8Array(b)

describe('base64', () => {
  it('decodes standard padded base64', () => {
    expect(decodeBase64('aGVsbG8=')).toEqual(new TextEncoder().encode('hello'))
    expect(decodeBase64('aGk=')).toEqual(new TextEncoder().encode('hi'))
    expect(decodeBase64('')).toEqual(new Uint8Array(0))
  })

  it('ignores whitespace, as line-wrapped base64 has', () => {
    expect(decodeBase64(' aGVs\nbG8=\r\n')).toEqual(new TextEncoder().encode('hello'))
  })

  it.each([
    ['aGVsbG8', 'missing padding'],
    ['aGVsbG8*', 'a character outside the alphabet'],
    ['aGVs-G8=', 'the URL-safe alphabet'],
    ['a===', 'three padding characters'],
    ['aG=k', 'padding in the middle'],
  ])('refuses %j (%s)', (text) => {
    expect(decodeBase64(text)).toBeUndefined()
  })

  it('round-trips every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    expect(decodeBase64(encodeBase64(all))).toEqual(all)
  })

  it('encodes and decodes as Node does, at every length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        const text = encodeBase64(bytes)
        expect(text).toBe(Buffer.from(bytes).toString('base64'))
        expect(decodeBase64(text)).toEqual(bytes)
      }),
    )
    const big = Uint8Array.from({ length: 0x8000 * 2 + 7 }, (_, i) => (i * 31) % 256)
    expect(encodeBase64(big)).toBe(Buffer.from(big).toString('base64'))
  })

  it('refuses what atob refused, character by character', () => {
    // Every one-character change of a valid text: refused exactly when the old decoder refused.
    const old = (text: string): boolean =>
      text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text)
    const valid = 'aGVsbG8hIQ=='
    for (let i = 0; i < valid.length; i++)
      for (const c of ['A', '/', '+', '=', '-', '_', '*', 'é', '\0'])
        expect(decodeBase64(valid.slice(0, i) + c + valid.slice(i + 1)) !== undefined).toBe(
          old(valid.slice(0, i) + c + valid.slice(i + 1)),
        )
  })
})

describe('binary values', () => {
  it('are frozen and recognised by their kind', () => {
    const v = binaryValue(bytes(1, 2), 'application/pdf')
    expect(v).toEqual({ kind: 'binary', bytes: bytes(1, 2), type: 'application/pdf', version: 1 })
    expect(Object.isFrozen(v)).toBe(true)
    expect(isBinaryValue(v)).toBe(true)
    expect(binaryValue(bytes(), 'x', 4).version).toBe(4)
  })

  it('are told apart from other values', () => {
    expect(isBinaryValue(null)).toBe(false)
    expect(isBinaryValue(bytes(1))).toBe(false)
    expect(isBinaryValue({ $base64: '' })).toBe(false)
    expect(isBinaryValue('binary')).toBe(false)
    expect(isBinaryValue({ kind: 'binary', type: 'image/png', version: 1 })).toBe(false)
  })
})

describe('sniffImageType', () => {
  it.each([
    ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0]],
    ['image/gif', [...new TextEncoder().encode('GIF89a')]],
    ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
    ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
    ['image/bmp', [0x42, 0x4d, 0, 0]],
    ['image/webp', [...new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')]],
  ])('recognises %s', (type, signature) => {
    expect(sniffImageType(Uint8Array.from(signature))).toBe(type)
  })

  it('gives undefined for unknown formats and for too few bytes', () => {
    expect(sniffImageType(new TextEncoder().encode('%PDF-1.7'))).toBeUndefined()
    expect(sniffImageType(bytes(0x89, 0x50))).toBeUndefined()
    expect(sniffImageType(bytes())).toBeUndefined()
  })
})
