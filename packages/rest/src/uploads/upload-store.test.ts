import { ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { UploadStore, type Upload } from './upload-store.js'

const file = (size: number): Upload => ({
  bytes: new Uint8Array(size),
  type: 'application/octet-stream',
  picture: false,
})

describe('UploadStore', () => {
  it('keeps a file under a new ID of 32 uppercase hex digits, found in any case', () => {
    const store = new UploadStore(new ManualClock())
    const upload = file(3)
    const id = store.keep(upload)
    expect(id).toMatch(/^[0-9A-F]{32}$/)
    expect(store.keep(upload)).not.toBe(id)
    expect(store.get(id)).toBe(upload)
    expect(store.get(id.toLowerCase())).toBe(upload)
    expect(store.get('0'.repeat(32))).toBeUndefined()
  })

  /** Moves the clock to `ms` after the uploads and says which of `ids` are still kept. */
  const keptAt = (clock: ManualClock, store: UploadStore, ids: string[]) => {
    const start = clock.now()
    return (ms: number) => {
      clock.set(start + ms)
      return ids.map((id) => store.get(id) !== undefined)
    }
  }

  it('drops a file after 120 s, or its own $timeout, on the clock; using it does not lengthen it', () => {
    const clock = new ManualClock()
    const store = new UploadStore(clock)
    const at = keptAt(clock, store, [store.keep(file(1)), store.keep(file(1), 600)])
    // Kept for the whole lifetime, gone the millisecond after (lru-cache's `age > ttl`).
    expect(at(120_000)).toEqual([true, true])
    expect(at(120_001)).toEqual([false, true])
    expect(at(600_000)).toEqual([false, true])
    expect(at(600_001)).toEqual([false, false])
    expect(store.size).toBe(0)
  })

  it('caps $timeout at maxTimeout (an hour) and raises 0 to one second', () => {
    const clock = new ManualClock()
    const store = new UploadStore(clock)
    const at = keptAt(clock, store, [store.keep(file(1), 0), store.keep(file(1), 1_000_000)])
    expect(at(1000)).toEqual([true, true])
    expect(at(1001)).toEqual([false, true])
    expect(at(3_600_000)).toEqual([false, true])
    expect(at(3_600_001)).toEqual([false, false])
  })

  it('evicts the least recently used files past maxBytes or maxUploads', () => {
    const store = new UploadStore(new ManualClock(), { maxBytes: 100, maxUploads: 3 })
    const a = store.keep(file(40))
    const b = store.keep(file(40))
    expect(store.get(a)).toBeDefined() // now b is the least recently used
    const c = store.keep(file(40))
    expect([store.get(a), store.get(b), store.get(c)].map(Boolean)).toEqual([true, false, true])
    expect(store.bytes).toBe(80)
    // Empty files count as a byte each; the count is bounded too.
    const d = store.keep(file(0))
    const e = store.keep(file(0))
    expect(store.size).toBe(3)
    expect([store.get(a), store.get(d), store.get(e)].map(Boolean)).toEqual([false, true, true])
  })
})
