/**
 * @module The process's memory as the health endpoint reports it (`/$health`'s `memory`).
 */
import { getHeapStatistics } from 'node:v8'
import { oldSpaceLimitNow } from '../load/heap-limit.js'

/** The memory part of the detailed health reply, in bytes. */
export interface HealthMemory {
  /** The JavaScript heap in use (V8's `used_heap_size`: live objects and garbage not collected yet). */
  readonly heapUsed: number
  /**
   * What the old space, where kept data lives, may grow to before the process dies out of memory
   * (heap-limit.ts: `--max-old-space-size`, else about a quarter of the machine's memory, 4 GB at
   * most). `heapUsed` also counts the young generation, so it may pass this by a few MB.
   */
  readonly heapLimit: number
  /** The resident set size: heap, Buffers, code and the rest, as the operating system counts it. */
  readonly rss: number
}

/**
 * The process's memory now. Cheap enough for every health probe (a few microseconds, measured:
 * docs/cli.md): V8's heap statistics and one read of the RSS, no walk of the heap.
 */
export function memoryNow(): HealthMemory {
  return {
    heapUsed: getHeapStatistics().used_heap_size,
    heapLimit: oldSpaceLimitNow(),
    rss: process.memoryUsage.rss(),
  }
}
