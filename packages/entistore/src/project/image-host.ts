/**
 * @module Image conversions for 4D code (`CREATE THUMBNAIL`, `PICTURE TO BLOB` to another codec),
 * synchronous as 4D's commands are, by sharp, whose calls are asynchronous: sharp runs in a worker
 * thread, and the call waits for its answer on a shared word (`Atomics.wait`), then takes it from
 * the port at once (`receiveMessageOnPort`), since the waiting thread runs no event loop. The
 * worker starts at the first conversion and does not keep the process alive. sharp is an optional
 * dependency: without it there is no host, and 4D code that converts an image raises, naming it.
 */
import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import type { ImageHost, ImageTarget } from '@entistore/4d'

/** How long one conversion may take before the call fails. */
const TIMEOUT_MS = 30_000

/**
 * The most pixels a picture may have to be converted: REST's `$imageformat` bound (its
 * `sharpConverter`'s default), so that a small file declaring a huge image takes no gigabytes
 * through 4D code either.
 */
const MAX_PIXELS = 40_000_000

// The worker, as text: it runs as a script of its own thread (no file to ship beside the build).
const WORKER = `
const { workerData } = require('node:worker_threads')
const sharp = require(workerData.sharp)
const { port, signal, maxPixels } = workerData
const FORMATS = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp', 'image/gif': 'gif',
  'image/tiff': 'tiff', 'image/avif': 'avif' }
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 }
port.on('message', async ({ bytes, target }) => {
  let reply
  try {
    const format = FORMATS[target.type]
    if (format === undefined) throw new Error('sharp writes no ' + target.type)
    let image = sharp(Buffer.from(bytes), { limitInputPixels: maxPixels, failOn: 'error' })
    if (target.width !== undefined || target.height !== undefined) {
      const fit = target.fit === 'fill' ? 'fill' : 'contain'
      const position = target.fit === 'contain-start' ? 'left top' : 'centre'
      image = image.resize({ width: target.width, height: target.height, fit, position, background: WHITE })
      if (fit === 'contain' && format === 'jpeg') image = image.flatten({ background: WHITE })
    }
    const out = await image.toFormat(format).toBuffer()
    reply = { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) }
  } catch (e) {
    reply = { error: String(e && e.message || e) }
  }
  port.postMessage(reply)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
})
`

interface Reply {
  readonly bytes?: Uint8Array
  readonly error?: string
}

class SharpHost implements ImageHost {
  #port: MessagePort | undefined
  readonly #signal = new Int32Array(new SharedArrayBuffer(4))

  constructor(private readonly sharpPath: string) {}

  convert(bytes: Uint8Array, target: ImageTarget): Uint8Array {
    const port = this.#start()
    Atomics.store(this.#signal, 0, 0)
    port.postMessage({ bytes, target: { ...target } })
    const waited = Atomics.wait(this.#signal, 0, 0, TIMEOUT_MS)
    const reply = receiveMessageOnPort(port)?.message as Reply | undefined
    if (waited === 'timed-out' || reply === undefined)
      throw new Error(`the conversion took more than ${TIMEOUT_MS / 1000} s`)
    if (reply.error !== undefined) throw new Error(reply.error)
    return reply.bytes!
  }

  #start(): MessagePort {
    if (this.#port !== undefined) return this.#port
    const { port1, port2 } = new MessageChannel()
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        sharp: this.sharpPath,
        port: port2,
        signal: this.#signal,
        maxPixels: MAX_PIXELS,
      },
      transferList: [port2],
    })
    worker.unref()
    // The port is read by receiveMessageOnPort only: it must not hold the process open either.
    port1.unref()
    this.#port = port1
    return port1
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
