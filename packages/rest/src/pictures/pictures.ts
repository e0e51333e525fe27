/**
 * @module The pictures a REST handler serves: each stored value's entity tag, and its conversions
 * kept in a cache bounded in bytes, so that a page of thumbnails asked in PNG decodes and encodes
 * each picture once, not on every request.
 *
 * Stored values are immutable (a write makes a new one), so a value's identity is its content: a
 * tag is a serial number given to each value on first use, with this handler's own random prefix
 * (a restarted server never gives an old tag to a new picture), and a conversion is cached under
 * the serial and the format. No hashing of the bytes, no collision to craft: two uploads with the
 * same bytes are two serials, which costs one conversion more, never a wrong picture.
 *
 * Conversions not in the cache take turns (conversion-queue.ts): a few run at once, a bounded
 * number wait, the rest are refused 503 with `Retry-After`, whatever the converter.
 */
import { DatastoreError, fail, type BinaryValue } from '@entistore/core'
import { LRUCache } from 'lru-cache'
import { ConversionQueue, type ConversionLimits } from './conversion-queue.js'
import { sharpConverter, type PictureConverter } from './converter.js'
import { extensionOf, type PictureType } from './image-format.js'

export interface PictureOptions extends ConversionLimits {
  /** What converts pictures for `$imageformat`. @default sharp, loaded on first use */
  readonly converter?: PictureConverter
  /** Most bytes of converted pictures kept; 0 keeps none. @default 64 MiB */
  readonly cacheBytes?: number
}

/**
 * Seconds a client refused for want of a turn is told to wait (`Retry-After`): a large conversion
 * takes a second or more, so sooner would find the queue as full.
 */
const BUSY_RETRY_AFTER_S = 2

/** A conversion: its bytes, or undefined when the stored picture could not be read. */
export type Converted = Uint8Array | undefined

export class Pictures {
  readonly #converter: PictureConverter
  readonly #cache: LRUCache<string, Uint8Array> | undefined
  /** Conversions under way: a second request for one waits for it instead of starting another. */
  readonly #pending = new Map<string, Promise<Converted>>()
  readonly #queue: ConversionQueue
  readonly #serials = new WeakMap<BinaryValue, number>()
  readonly #prefix: string
  #next = 0

  constructor(options: PictureOptions = {}) {
    this.#converter = options.converter ?? sharpConverter()
    this.#queue = new ConversionQueue(options)
    const bytes = options.cacheBytes ?? 64 * 1024 * 1024
    if (!(bytes >= 0)) throw new RangeError(`cacheBytes must be a number >= 0, not ${bytes}`)
    // An empty conversion (none is) still takes one unit: lru-cache refuses a size of 0.
    this.#cache =
      bytes > 0
        ? new LRUCache({ maxSize: bytes, sizeCalculation: (b) => Math.max(1, b.length) })
        : undefined
    const random = crypto.getRandomValues(new Uint32Array(2))
    this.#prefix = [...random].map((n) => n.toString(36)).join('')
  }

  /** The entity tag of `value` as stored, or of its conversion to `type`: quoted, as ETag writes it. */
  tag(value: BinaryValue, type?: PictureType): string {
    const base = `${this.#prefix}.${this.#serial(value).toString(36)}`
    return type === undefined ? `"${base}"` : `"${base}.${extensionOf(type)}"`
  }

  /**
   * `value` converted to `type`: at once from the cache, else a Promise of it. Undefined when the
   * picture cannot be read (then nothing is cached: the value never changes, but a picture the
   * converter fails on is rare and costs little to fail on again). Throws PictureConversionsBusy
   * (503) when the conversion can neither run nor wait; a second request for a conversion under
   * way or waiting shares it, and takes no turn.
   */
  convert(value: BinaryValue, type: PictureType): Converted | Promise<Converted> {
    const key = `${this.#serial(value)}.${type}`
    const hit = this.#cache?.get(key)
    if (hit !== undefined) return hit
    const pending = this.#pending.get(key)
    if (pending) return pending
    const queue = this.#queue
    const turn = queue.run(() => this.#converter.convert(value.bytes, type))
    if (turn === undefined)
      fail('PictureConversionsBusy', [queue.running, queue.waiting], {
        details: { retryAfter: BUSY_RETRY_AFTER_S },
      })
    const made = turn.then(
      (bytes) => {
        this.#cache?.set(key, bytes)
        return bytes
      },
      (error: unknown) => {
        // A converter that cannot work at all says so with a DatastoreError: that is the reply.
        if (error instanceof DatastoreError) throw error
        return undefined
      },
    )
    const settled = made.finally(() => this.#pending.delete(key))
    this.#pending.set(key, settled)
    return settled
  }

  #serial(value: BinaryValue): number {
    let n = this.#serials.get(value)
    if (n === undefined) this.#serials.set(value, (n = ++this.#next))
    return n
  }
}
