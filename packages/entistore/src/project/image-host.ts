/**
 * @module Image conversions for 4D code (`CREATE THUMBNAIL`, `PICTURE TO BLOB` to another codec),
 * synchronous as 4D's commands are, by sharp, whose calls are asynchronous: sharp runs in a worker
 * thread the call waits for (sync-worker.ts). sharp is an optional dependency: without it there is
 * no host, and 4D code that converts an image raises, naming it.
 */
import { createRequire } from 'node:module'
import type { ImageHost, ImageTarget } from '@entistore/4d'
import { SyncWorker } from './sync-worker.js'

/** How long one conversion may take before the call fails. */
const TIMEOUT_MS = 30_000

/**
 * The most pixels a picture may have to be converted: REST's `$imageformat` bound (its
 * `sharpConverter`'s default), so that a small file declaring a huge image takes no gigabytes
 * through 4D code either.
 */
const MAX_PIXELS = 40_000_000

// The worker's handler (sync-worker.ts): sharp's conversion of one picture.
const SCRIPT = `
const { maxPixels, sharp: sharpPath } = require('node:worker_threads').workerData.data
const sharp = require(sharpPath)
const FORMATS = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp', 'image/gif': 'gif',
  'image/tiff': 'tiff', 'image/avif': 'avif' }
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 }
async function handle({ bytes, target }) {
  const format = FORMATS[target.type]
  if (format === undefined) throw new Error('sharp writes no ' + target.type)
  let image = sharp(Buffer.from(bytes), { limitInputPixels: maxPixels, failOn: 'error' })
  if (target.width !== undefined || target.height !== undefined) {
    const fit = target.fit === 'fill' ? 'fill' : 'contain'
    const position = target.fit === 'contain-start' ? 'left top' : 'centre'
    image = image.resize({ width: target.width, height: target.height, fit, position, background: WHITE })
    if (fit === 'contain' && format === 'jpeg') image = image.flatten({ background: WHITE })
  }
  const out = await image.toFormat(format, target.quality === undefined ? {} : { quality: target.quality }).toBuffer()
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
}
`

class SharpHost implements ImageHost {
  readonly #worker: SyncWorker<{ bytes: Uint8Array; target: ImageTarget }, Uint8Array>

  constructor(sharpPath: string) {
    this.#worker = new SyncWorker(SCRIPT, { sharp: sharpPath, maxPixels: MAX_PIXELS }, TIMEOUT_MS)
  }

  convert(bytes: Uint8Array, target: ImageTarget): Uint8Array {
    return this.#worker.call({ bytes, target: { ...target } })
  }
}

let host: ImageHost | undefined | null = null

/** The image host over sharp, one a process; undefined when sharp is not installed. */
export function imageHost(): ImageHost | undefined {
  if (host !== null) return host
  try {
    host = new SharpHost(createRequire(import.meta.url).resolve('sharp'))
  } catch {
    host = undefined
  }
  return host
}
