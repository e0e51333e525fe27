// The Pictures theme's commands that need no conversion (pictures.ts), each as its page reads:
// read-picture-file.md, blob-to-picture.md, picture-to-blob.md, picture-properties.md,
// picture-size.md. A picture is core's binary value of an image type.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binaryValue, isBinaryValue } from '@entistore/core'
import { afterAll, describe, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import { imageSize } from './image-size.js'
import { run4d } from '../../compile/run4d.js'
import type { ImageTarget } from '../context/command-context.js'
import { FourDError } from '../errors/fourd-error.js'
import { run } from './run.fixture.js'

/** A PNG header (signature and IHDR) of `width` × `height`: what PICTURE PROPERTIES reads. */
function png(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33)
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  new DataView(b.buffer).setUint32(16, width)
  new DataView(b.buffer).setUint32(20, height)
  return b
}

const root = mkdtempSync(join(tmpdir(), 'entistore-4d-pictures-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
mkdirSync(join(root, 'Project'))
mkdirSync(join(root, 'Resources'))
writeFileSync(join(root, 'Resources/logo.png'), png(120, 40))
writeFileSync(join(root, 'Resources/notes.txt'), 'not a picture')
const options = { runtime: { files: projectFiles(root) } }

describe('pictures', () => {
  it('READ PICTURE FILE reads a picture of the project, OK 1; a file of no image type sets OK 0', () => {
    const [pict, ok, size] = run(
      `var $p : Picture
READ PICTURE FILE("/RESOURCES/logo.png"; $p)
$ok:=OK
READ PICTURE FILE(Get 4D folder(Current resources folder)+"notes.txt"; $p)
return [$p; $ok; Picture size($p); OK]`,
      options,
    ) as unknown[]
    expect(isBinaryValue(pict) && pict.type).toBe('image/png')
    expect([ok, size]).toEqual([1, 33])
    expect(run(`READ PICTURE FILE("/RESOURCES/notes.txt"; $p)\nreturn OK`, options)).toBe(0)
  })

  it('WRITE PICTURE FILE writes a picture of the project in its own type', () => {
    expect(
      run(
        `var $p : Picture
READ PICTURE FILE("/RESOURCES/logo.png"; $p)
WRITE PICTURE FILE("/RESOURCES/copy.png"; $p; ".png")
READ PICTURE FILE("/RESOURCES/copy.png"; $p)
return [OK; Picture size($p)]`,
        options,
      ),
    ).toEqual([1, 33])
  })

  it('PICTURE PROPERTIES gives the width and height; offsets and mode 0', () => {
    expect(
      run(
        `var $p : Picture
READ PICTURE FILE("/RESOURCES/logo.png"; $p)
var $w; $h; $x; $y; $m : Integer
PICTURE PROPERTIES($p; $w; $h; $x; $y; $m)
return [$w; $h; $x; $y; $m]`,
        options,
      ),
    ).toEqual([120, 40, 0, 0, 0])
  })

  it('BLOB TO PICTURE and PICTURE TO BLOB in the picture own type; another type is a conversion', () => {
    const back = run4d(
      `#DECLARE($b : Blob) : Collection
var $p : Picture
var $back : Blob
BLOB TO PICTURE($b; $p)
PICTURE TO BLOB($p; $back; ".png")
return [BLOB size($back); OK]`,
      [png(2, 3)],
    ) as { items: unknown[] }
    expect(back.items).toEqual([33, 1])
    let e: unknown
    try {
      run4d(`#DECLARE($p : Picture)\nvar $b : Blob\nPICTURE TO BLOB($p; $b; ".jpg")`, [
        binaryValue(png(1, 1), 'image/png'),
      ])
    } catch (error) {
      e = error
    }
    expect(FourDError.is(e) && [e.errCode, e.message]).toEqual([
      9409,
      expect.stringMatching(/image\/png to \.jpg \(an image conversion\)/),
    ])
  })

  it('CREATE THUMBNAIL asks the host for the size and mode (48 × 48, prop centered by default)', () => {
    const asked: ImageTarget[] = []
    const images = {
      convert: (bytes: Uint8Array, target: ImageTarget): Uint8Array => (asked.push(target), bytes),
    }
    const thumb = run4d(
      `#DECLARE($p : Picture) : Collection
var $t; $u; $v : Picture
CREATE THUMBNAIL($p; $t)
CREATE THUMBNAIL($p; $u; 132; 100; Scaled to fit:K6:2)
CREATE THUMBNAIL:C679($p; $v; 10; 20; Non tronquée:K6:5)
return [Picture size($t); Picture size($u)]`,
      [binaryValue(png(1, 1), 'image/svg+xml')],
      { runtime: { images } },
    ) as { items: unknown[] }
    expect(thumb.items).toEqual([33, 33])
    // An SVG's thumbnail is a PNG; a localized mode is found by its token.
    expect(asked).toEqual([
      { type: 'image/png', width: 48, height: 48, fit: 'contain' },
      { type: 'image/png', width: 132, height: 100, fit: 'fill' },
      { type: 'image/png', width: 10, height: 20, fit: 'contain-start' },
    ])
  })

  it('CONVERT PICTURE converts the picture itself, at the quality its compression asks', () => {
    const asked: ImageTarget[] = []
    const images = {
      convert: (_bytes: Uint8Array, target: ImageTarget): Uint8Array => (
        asked.push(target),
        png(2, 2)
      ),
    }
    const out = run4d(
      `#DECLARE($p : Picture) : Collection
var $q; $empty : Picture
$q:=$p
CONVERT PICTURE($p; ".jpg"; 0.6)
CONVERT PICTURE($q; ".png")
CONVERT PICTURE($empty; ".jpg")
return [Picture size($q); Picture size($empty)]`,
      [binaryValue(png(1, 1), 'image/png')],
      { runtime: { images } },
    ) as { items: unknown[] }
    // The PNG asked as a PNG is left; the empty one stays empty: one conversion only.
    expect(out.items).toEqual([png(1, 1).length, 0])
    expect(asked).toEqual([{ type: 'image/jpeg', quality: 60 }])
  })

  it('CREATE THUMBNAIL of an empty picture is empty, with no host; a picture needs one', () => {
    expect(
      run('var $p; $t : Picture\nCREATE THUMBNAIL($p; $t; 10; 10)\nreturn Picture size($t)'),
    ).toBe(0)
    let e: unknown
    try {
      run4d(`#DECLARE($p : Picture)\nvar $t : Picture\nCREATE THUMBNAIL($p; $t)`, [
        binaryValue(png(1, 1), 'image/png'),
      ])
    } catch (error) {
      e = error
    }
    expect(FourDError.is(e) && [e.errCode, e.message]).toEqual([
      9409,
      expect.stringMatching(/CREATE THUMBNAIL \(an image conversion\)/),
    ])
  })

  it('reads the size of GIF, BMP, JPEG and WebP headers', () => {
    const gif = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0])
    const bmp = new Uint8Array(26)
    bmp.set([0x42, 0x4d])
    new DataView(bmp.buffer).setInt32(18, 7, true)
    new DataView(bmp.buffer).setInt32(22, -9, true)
    const jpeg = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 50, 0, 80, 3, 0, 0,
    ])
    expect([imageSize(gif), imageSize(bmp), imageSize(jpeg)]).toEqual([
      { width: 10, height: 20 },
      { width: 7, height: 9 },
      { width: 80, height: 50 },
    ])
    expect(imageSize(Uint8Array.from([1, 2, 3]))).toBeUndefined()
  })
})
