/**
 * @module The Pictures theme's commands that need no image processing (docs/commands/): a picture
 * is core's binary value of an image type, its bytes as stored.
 * - `READ PICTURE FILE(fileName; picture)` reads a file of the project's folders (as `File` names
 *   one); an empty name, which opens a dialog in 4D, cannot run here. `WRITE PICTURE FILE(fileName;
 *   picture {; codec})` writes one, in the picture's own type.
 * - `BLOB TO PICTURE(blob; picture {; codec})` takes the bytes as a picture of the type they show
 *   (PNG, JPEG, GIF, WebP, BMP, TIFF, SVG); bytes of no image type leave the picture and set OK 0.
 * - `PICTURE TO BLOB(picture; blob; codec)` gives the bytes when the codec is the picture's own
 *   type, and converts them to another (`WRITE PICTURE FILE` alike). `CONVERT PICTURE(picture;
 *   codec {; compression})` converts the picture itself, a lossy codec at the compression's
 *   quality (0 to 1, convert-picture.md).
 * - `CREATE THUMBNAIL(source; dest {; width; height {; mode}})`: 48 × 48 and Scaled to fit prop
 *   centered by default; the three modes create-thumbnail.md lists, free space white.
 * - `PICTURE PROPERTIES(picture; width; height)` reads the size from the image's header.
 * - `Picture size` is the picture's size in bytes.
 * Conversions are the host's (`ImageHost`: entistore runs sharp in a worker thread and waits for
 * it, as 4D's commands wait); without one they raise when reached. An empty picture needs none:
 * its thumbnail and its BLOB are empty, as in 4D.
 */
import { binaryValue, isBinaryValue, sniffImageType, type BinaryValue } from '@entistore/core'
import { toText } from '../convert/conversions.js'
import { raise } from '../errors/fourd-error.js'
import type { CommandContext, ImageHost, ImageTarget } from '../context/command-context.js'
import { documentOf } from '../files/file-of.js'
import { invalid, numberArg, wrongType } from '../arguments/arguments.js'
import { isOutParameter, outArg } from '../arguments/out-parameter.js'
import { blobBytes } from '../values/blob-object.js'
import { imageSize } from './image-size.js'
import type { CommandSpec } from './table.js'

/** A picture argument: a picture (the variable's, given one); an empty one is Null here. */
function pictureArg(command: string, v: unknown): BinaryValue | null {
  const value = isOutParameter(v) ? v.get() : v
  if (value === null || value === undefined) return null
  return isBinaryValue(value) ? value : wrongType(command, 'picture', 'a picture', value)
}

const picture = (bytes: Uint8Array, type: string): BinaryValue => binaryValue(bytes, type)

/** The media type a codec names: `.png`, `png`, `image/png`. */
function codecType(codec: string): string {
  const c = codec.trim().toLowerCase().replace(/^\./, '')
  if (c.includes('/')) return c
  return `image/${c === 'jpg' ? 'jpeg' : c === 'svg' ? 'svg+xml' : c === 'tif' ? 'tiff' : c}`
}

/** `bytes` as the picture variable `target`, OK 1; bytes of no image type leave it, OK 0. */
function setPicture(rt: CommandContext, command: string, target: unknown, bytes: Uint8Array): void {
  const type = sniffImageType(bytes)
  if (type === undefined) return rt.pvSet('OK', 0)
  outArg(command, 'picture', target).set(picture(bytes, type))
  rt.pvSet('OK', 1)
}

/** The host's image conversions; none: the command raises, naming the conversion. */
function images(rt: CommandContext, conversion: string): ImageHost {
  return rt.images ?? raise('NotImplemented', { name: `${conversion} (an image conversion)` })
}

/** `p`'s bytes in the codec's type (none: its own), converted by the host when another. */
function inCodec(
  rt: CommandContext,
  command: string,
  p: BinaryValue,
  codec: unknown,
  quality?: number,
): Uint8Array {
  const bytes = new Uint8Array(p.bytes)
  if (codec === undefined || codecType(toText(codec)) === p.type) return bytes
  const type = codecType(toText(codec))
  const target = quality === undefined ? { type } : { type, quality }
  return converted(rt, command, `${command} from ${p.type} to ${toText(codec)}`, bytes, target)
}

function converted(
  rt: CommandContext,
  command: string,
  conversion: string,
  bytes: Uint8Array,
  target: ImageTarget,
): Uint8Array {
  const host = images(rt, conversion)
  try {
    return host.convert(bytes, target)
  } catch (e) {
    return invalid(command, 'picture', (e as Error).message)
  }
}

// The types a thumbnail keeps; another source (SVG, BMP) gives a PNG thumbnail.
const THUMBNAIL_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/tiff',
])

const THUMBNAIL_FITS: Readonly<Record<number, ImageTarget['fit']>> = {
  2: 'fill',
  5: 'contain-start',
  6: 'contain',
}

/** A thumbnail's side: a positive whole number of pixels. */
function side(name: string, v: unknown): number {
  if (v === undefined) return 48
  const n = Math.trunc(numberArg('CREATE THUMBNAIL', name, v))
  return n >= 1 && n <= 16384
    ? n
    : invalid('CREATE THUMBNAIL', name, `${n} is not 1 to 16384 pixels`)
}

export const PICTURE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 678,
    name: 'READ PICTURE FILE',
    signature: '(fileName: any; picture: any; star?: any)',
    writes: [1],
    impl: (rt, name, target) => {
      const file = documentOf(rt, 'READ PICTURE FILE', name)
      setPicture(rt, 'READ PICTURE FILE', target, file.host.readBytes(file.at))
    },
  },
  {
    number: 680,
    name: 'WRITE PICTURE FILE',
    signature: '(fileName: any; picture: any; codec?: any)',
    impl: (rt, name, pict, codec) => {
      const file = documentOf(rt, 'WRITE PICTURE FILE', name)
      const p = pictureArg('WRITE PICTURE FILE', pict)
      if (p === null) return rt.pvSet('OK', 0)
      file.host.writeBytes(file.at, inCodec(rt, 'WRITE PICTURE FILE', p, codec))
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 682,
    name: 'BLOB TO PICTURE',
    signature: '(blob: any; picture: any; codec?: any)',
    writes: [1],
    impl: (rt, blob, target) => {
      const value = isOutParameter(blob) ? blob.get() : blob
      const bytes = blobBytes(value) ?? wrongType('BLOB TO PICTURE', 'blob', 'a BLOB', value)
      setPicture(rt, 'BLOB TO PICTURE', target, bytes)
    },
  },
  {
    number: 692,
    name: 'PICTURE TO BLOB',
    signature: '(picture: any; blob: any; codec: any)',
    writes: [1],
    impl: (rt, pict, blob, codec) => {
      const p = pictureArg('PICTURE TO BLOB', pict)
      const out = outArg('PICTURE TO BLOB', 'blob', blob)
      if (p === null) {
        out.set(new Uint8Array(0))
        rt.pvSet('OK', 0)
        return
      }
      out.set(inCodec(rt, 'PICTURE TO BLOB', p, codec))
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 1002,
    name: 'CONVERT PICTURE',
    signature: '(picture: any; codec: any; compression?: any)',
    writes: [0],
    impl: (rt, pict, codec, compression) => {
      const p = pictureArg('CONVERT PICTURE', pict)
      // An empty picture stays empty; one already in the codec is left as it is.
      if (p === null || codecType(toText(codec)) === p.type) return
      const quality =
        compression === undefined
          ? undefined
          : Math.min(
              100,
              Math.max(
                1,
                Math.round(numberArg('CONVERT PICTURE', 'compression', compression) * 100),
              ),
            )
      const bytes = inCodec(rt, 'CONVERT PICTURE', p, codec, quality)
      outArg('CONVERT PICTURE', 'picture', pict).set(picture(bytes, codecType(toText(codec))))
    },
  },
  {
    number: 679,
    name: 'CREATE THUMBNAIL',
    signature: '(source: any; dest: any; width?: any; height?: any; mode?: any; depth?: any)',
    writes: [1],
    impl: (rt, source, dest, width, height, mode) => {
      const p = pictureArg('CREATE THUMBNAIL', source)
      const out = outArg('CREATE THUMBNAIL', 'dest', dest)
      const w = side('width', width)
      const h = side('height', height)
      const m = mode === undefined ? 6 : Math.trunc(numberArg('CREATE THUMBNAIL', 'mode', mode))
      const fit =
        THUMBNAIL_FITS[m] ??
        invalid(
          'CREATE THUMBNAIL',
          'mode',
          `${m} is not Scaled to fit (2), proportional (5) or prop centered (6)`,
        )
      // An empty picture's thumbnail is empty: no image to convert.
      if (p === null || p.bytes.byteLength === 0) return out.set(null)
      const type = THUMBNAIL_TYPES.has(p.type) ? p.type : 'image/png'
      const bytes = converted(rt, 'CREATE THUMBNAIL', 'CREATE THUMBNAIL', new Uint8Array(p.bytes), {
        type,
        width: w,
        height: h,
        fit,
      })
      out.set(picture(bytes, type))
    },
  },
  {
    number: 457,
    name: 'PICTURE PROPERTIES',
    signature: '(picture: any; width: any; height: any; hOffset?: any; vOffset?: any; mode?: any)',
    writes: [1, 2, 3, 4, 5],
    impl: (_rt, pict, width, height, hOffset, vOffset, mode) => {
      const p = pictureArg('PICTURE PROPERTIES', pict)
      const size = p === null ? { width: 0, height: 0 } : imageSize(p.bytes)
      if (size === undefined)
        return invalid('PICTURE PROPERTIES', 'picture', `its ${p!.type} header cannot be read`)
      outArg('PICTURE PROPERTIES', 'width', width).set(size.width)
      outArg('PICTURE PROPERTIES', 'height', height).set(size.height)
      // A picture variable's offsets and display mode: a picture of a field has none (0).
      for (const [name, v] of [
        ['hOffset', hOffset],
        ['vOffset', vOffset],
        ['mode', mode],
      ] as const)
        if (v !== undefined) outArg('PICTURE PROPERTIES', name, v).set(0)
    },
  },
  {
    number: 356,
    name: 'Picture size',
    signature: '(picture: any): Integer',
    impl: (_rt, pict) => pictureArg('Picture size', pict)?.bytes.length ?? 0,
  },
]
