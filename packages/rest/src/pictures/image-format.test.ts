import { describe, expect, it } from 'vitest'
import { pictureTypeOf, readImageFormat } from './image-format.js'

describe('readImageFormat', () => {
  it.each([
    [undefined, { kind: 'best' }],
    ['best', { kind: 'best' }],
    [' BEST ', { kind: 'best' }],
    ['.gif', { kind: 'convert', type: 'image/gif' }],
    ['image/png', { kind: 'convert', type: 'image/png' }],
    ['jpeg', { kind: 'convert', type: 'image/jpeg' }],
    ['.JPG', { kind: 'convert', type: 'image/jpeg' }],
    ['image/tiff', { kind: 'convert', type: 'image/tiff' }],
    ['tif', { kind: 'convert', type: 'image/tiff' }],
    ['.webp', { kind: 'unsupported' }],
    ['image/', { kind: 'unsupported' }],
    ['..png', { kind: 'unsupported' }],
    ['', { kind: 'unsupported' }],
  ])('reads %s', (text, format) => {
    expect(readImageFormat(text)).toEqual(format)
  })
})

describe('pictureTypeOf', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/JPG', 'image/jpeg'],
    ['image/tif', 'image/tiff'],
    ['image/webp', undefined],
    ['application/octet-stream', undefined],
    ['png', undefined],
  ])('reads %s as %s', (stored, type) => {
    expect(pictureTypeOf(stored)).toBe(type)
  })
})
