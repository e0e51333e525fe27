/**
 * @module Converting a picture from one format to another, behind an interface: the REST interface
 * needs `convert(bytes, type)` and nothing else, so a test or an embedder can give its own, and the
 * default, sharp (libvips), is loaded only when the first conversion is asked. A server that never
 * converts never loads it, and a platform where its native binary cannot load still serves every
 * picture as stored, answering conversions with a clear error that says why.
 */
import { fail } from '@entistore/core'
import type { PictureType } from './image-format.js'

export interface PictureConverter {
  /**
   * The picture `input` encoded as `type`. Rejects when `input` is not a picture it can read (a
   * corrupt or unknown format): the request is then answered `{}`, as the real server answers an
   * unreadable picture. Rejects with a DatastoreError when it cannot convert at all (the error is
   * the reply).
   */
  convert(input: Uint8Array, type: PictureType): Promise<Uint8Array>
}

export interface SharpConverterOptions {
  /**
   * Most pixels (width × height) of a picture decoded: a larger one is not converted, 400
   * PictureTooLarge (9112), read from its header before anything is decoded. A small PNG can
   * declare 50,000 × 50,000 pixels, 10 GB once decoded; sharp's own default (268 million) is still
   * a gigabyte per request. @default 40_000_000 (a 40-megapixel photo)
   */
  readonly maxPixels?: number
  /** Loads sharp (tests give a loader that fails). @default `import('sharp')` */
  readonly load?: () => Promise<unknown>
}

/** The part of sharp's API a conversion uses. */
type Sharp = (
  input: Uint8Array,
  options: { limitInputPixels: number | false; failOn: 'error' },
) => SharpPipeline
interface SharpPipeline {
  metadata(): Promise<{ width?: number; height?: number; pageHeight?: number }>
  toFormat(format: string): SharpPipeline
  toBuffer(): Promise<Uint8Array>
}

const FORMAT: Readonly<Record<PictureType, string>> = {
  'image/gif': 'gif',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/tiff': 'tiff',
}

/**
 * sharp, by a name no bundler follows: a bundle for a page (or a worker, or an edge runtime) must
 * not take in a native module's loader, which imports Node's own (`node:os`, `fs`…) and stopped
 * esbuild; there the import fails on the first conversion, answered with the error below.
 */
const SHARP = 'sharp'
const loadSharp = (): Promise<unknown> => import(/* @vite-ignore */ SHARP)

/** The converter made with sharp, loaded on the first call (once: a failure is kept, not retried). */
export function sharpConverter(options: SharpConverterOptions = {}): PictureConverter {
  const maxPixels = options.maxPixels ?? 40_000_000
  const load = options.load ?? loadSharp
  let loaded: Promise<Sharp | Error> | undefined
  const sharp = (): Promise<Sharp | Error> =>
    (loaded ??= load().then(
      (module) => {
        const fn = (module as { default?: unknown }).default ?? module
        return typeof fn === 'function' ? (fn as Sharp) : new Error('it exports no function')
      },
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ))
  return {
    async convert(input, type) {
      const s = await sharp()
      if (s instanceof Error) fail('PictureConversionUnavailable', [firstLine(s.message)])
      // The header says the size: a picture past the limit is refused by name, not as unreadable
      // (sharp's own check, kept below for a format whose header does not say, gives no size).
      // One page of a many-page picture (a GIF's frames) is what is converted.
      const {
        width = 0,
        height = 0,
        pageHeight,
      } = await s(input, {
        limitInputPixels: false,
        failOn: 'error',
      }).metadata()
      if (width * (pageHeight ?? height) > maxPixels)
        fail('PictureTooLarge', [width, pageHeight ?? height, maxPixels])
      return s(input, { limitInputPixels: maxPixels, failOn: 'error' })
        .toFormat(FORMAT[type])
        .toBuffer()
    },
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim()
  return line.length > 200 ? line.slice(0, 199) + '…' : line
}
