/**
 * @module The files clients upload (`POST /rest/$upload`), kept under a random ID until a write
 * names them (`{"ID": "…"}` as the value of a picture or BLOB attribute) or their lifetime passes.
 *
 * Backed by lru-cache on the datastore's clock (`perf.now`, with `ttlResolution: 0` so that a clock
 * moved by a test is seen at once), as the entity sets are. Expiry is lazy: an upload past its
 * lifetime is gone the next time anyone looks for it, and the store sweeps before each new upload.
 *
 * Memory is bounded twice, by the number of uploads and by their bytes together. Past either, the
 * least recently used uploads are evicted rather than the new one refused: a refusal would let one
 * client that filled the store block every other client's uploads until its own expire, while
 * eviction recovers as soon as the flood stops.
 *
 * An ID may be used any number of times within its lifetime (the same picture for several entities,
 * or a write retried after a stamp conflict), and using it does not lengthen that lifetime: it
 * counts from the upload, as `$timeout` says.
 */
import { LRUCache } from 'lru-cache'
import { randomId, type Clock } from '@entistore/core'

/** One uploaded file. Its bytes are the store's own copy and are never changed. */
export interface Upload {
  readonly bytes: Uint8Array
  /** Its media type: the picture's (`image/png`), or the Content-Type a BLOB was sent with. */
  readonly type: string
  /** Sent as a picture (`$rawPict`), its format known; else a BLOB (`$binary`). */
  readonly picture: boolean
}

export interface UploadStoreOptions {
  /** Most bytes all uploads may hold together. @default 268_435_456 (256 MiB) */
  readonly maxBytes?: number
  /** Most uploads kept at once. @default 10_000 */
  readonly maxUploads?: number
  /** Lifetime of an upload made without `$timeout`, in seconds. @default 120 (4D's) */
  readonly defaultTimeout?: number
  /** Longest lifetime a `$timeout` may ask for, in seconds. @default 3600 */
  readonly maxTimeout?: number
}

export const DEFAULT_MAX_UPLOAD_STORE_BYTES = 256 * 1024 * 1024

export class UploadStore {
  readonly #cache: LRUCache<string, Upload>
  readonly #defaultTimeout: number
  readonly #maxTimeout: number
  /** Most bytes all uploads may hold together; one upload alone may hold them all. */
  readonly maxBytes: number

  constructor(clock: Clock, options: UploadStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_UPLOAD_STORE_BYTES
    if (!(this.maxBytes >= 1)) throw new RangeError(`maxUploadStoreBytes must be at least 1`)
    this.#defaultTimeout = 1000 * (options.defaultTimeout ?? 120)
    this.#maxTimeout = 1000 * (options.maxTimeout ?? 3600)
    this.#cache = new LRUCache<string, Upload>({
      max: options.maxUploads ?? 10_000,
      maxSize: this.maxBytes,
      // An empty file still takes a slot: it counts as one byte.
      sizeCalculation: (upload) => Math.max(1, upload.bytes.length),
      ttl: this.#defaultTimeout,
      perf: { now: () => clock.now() },
      ttlResolution: 0,
    })
  }

  /**
   * Keeps `upload` for `timeout` seconds (the default when undefined; at least 1, at most the
   * maximum) and returns its new ID: 32 uppercase hex digits, 128 random bits.
   */
  keep(upload: Upload, timeout?: number): string {
    this.#cache.purgeStale()
    const ttl =
      timeout === undefined
        ? this.#defaultTimeout
        : Math.min(this.#maxTimeout, Math.max(1000, Math.round(timeout * 1000)))
    const id = randomId()
    this.#cache.set(id, upload, { ttl })
    return id
  }

  /** The upload `id` (in any case), or undefined once it expired or was evicted, or if it never was. */
  get(id: string): Upload | undefined {
    return this.#cache.get(id.toUpperCase())
  }

  /** Uploads kept (expired ones swept first). */
  get size(): number {
    this.#cache.purgeStale()
    return this.#cache.size
  }

  /** Bytes kept in all uploads together (expired ones swept first). */
  get bytes(): number {
    this.#cache.purgeStale()
    return this.#cache.calculatedSize
  }
}
