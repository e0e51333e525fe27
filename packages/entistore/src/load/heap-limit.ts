/**
 * @module The heap limit the data meets: V8's old space's, which kept rows fill and whose limit
 * is what kills the process ("Reached heap limit"). `v8.getHeapStatistics().heap_size_limit` is
 * that limit plus the young generation's reservation (3 × the largest semi-space), and the young
 * generation grew in V8 13, so `heap_size_limit` says more than the data can have by 48 MB on Node
 * 20 and 22 and by 192 MB on Node 24: with `--max-old-space-size=64` the process dies at 64 MB of
 * old space while `heap_size_limit` says 256 MB, and a guard comparing with it never fires.
 *
 * Measured on Linux (24 GB machine), `heap_size_limit` in MB:
 *
 * | flags                                             | Node 20 (V8 11.3) | 22 (V8 12.4) | 24 (V8 13.6) |
 * | ------------------------------------------------- | ----------------- | ------------ | ------------ |
 * | none                                              | 4,144             | 4,144        | 4,288        |
 * | `--max-old-space-size=64`                         | 112               | 112          | 256          |
 * | `--max-old-space-size=128`                        | 176               | 176          | 320          |
 * | `--max-semi-space-size=1`                         | 4,099             | 4,099        | 4,099        |
 * | `--max-semi-space-size=8 --max-old-space-size=64` | 88                | 88           | 88           |
 *
 * So the semi-space is 16 MB before V8 13 and 64 MB from it unless `--max-semi-space-size` says.
 * Options on the command line are applied after NODE_OPTIONS (measured: `NODE_OPTIONS=
 * --max-old-space-size=100 node --max-old-space-size=200` has 200), and of one flag given twice
 * the last counts; V8 takes `-` or `_` between the words and only the `=N` form.
 */

import { getHeapStatistics } from 'node:v8'

const MB = 2 ** 20

/** What a process knows of its heap's configuration. */
export interface HeapConfig {
  /** V8's `heap_size_limit`, in bytes. */
  readonly heapSizeLimit: number
  /** `process.execArgv`: the flags given to `node` itself. */
  readonly execArgv: readonly string[]
  /** `process.env.NODE_OPTIONS`. */
  readonly nodeOptions: string | undefined
  /** `process.versions.v8`, e.g. `13.6.233.17-node.53`. */
  readonly v8Version: string
}

/**
 * The old space's limit in bytes: `--max-old-space-size` when given, else `heap_size_limit` less
 * the young generation's largest reservation. Without flags V8 sizes the young generation from the
 * machine's memory (a quarter of it is the heap), at its largest from a heap of about 1.5 GB up
 * (measured with `--max-heap-size`, which V8 splits the same way: Node 20's semi-space is 8 MB at
 * 1 GB, 16 MB at 1.5 GB). On a smaller machine it is smaller and this figure lower than the true
 * limit by up to 48 MB (192 MB on Node 24): a guard then stops early, never late.
 */
export function oldSpaceLimit(c: HeapConfig): number {
  // NODE_OPTIONS first: Node applies the command line's flags after it. Node's own quoting of a
  // NODE_OPTIONS value (`"--flag=1"`) is undone; these flags never hold a space.
  const flags = [
    ...(c.nodeOptions ?? '')
      .split(/\s+/)
      .filter((f) => f !== '')
      .map((f) => f.replace(/^"(.*)"$/, '$1')),
    ...c.execArgv,
  ]
  const old = lastFlagMb(flags, 'max-old-space-size')
  if (old !== undefined) return old * MB
  const semi = lastFlagMb(flags, 'max-semi-space-size') ?? (v8Major(c.v8Version) >= 13 ? 64 : 16)
  return c.heapSizeLimit - 3 * semi * MB
}

/** The value in MB of V8's flag `name` the last time `flags` gives it (`-` or `_` in its name). */
function lastFlagMb(flags: readonly string[], name: string): number | undefined {
  const flag = new RegExp(`^--${name.replaceAll('-', '[-_]')}=(\\d+)$`)
  let mb: number | undefined
  for (const f of flags) {
    const m = flag.exec(f)
    if (m) mb = Number(m[1])
  }
  return mb
}

const v8Major = (version: string): number => Number.parseInt(version, 10)

let atStart: number | undefined

/**
 * This process's old-space limit, in bytes (see oldSpaceLimit). Read once: it is fixed when the
 * process starts, and NODE_OPTIONS changed since says nothing of it (a health probe reads it too).
 */
export function oldSpaceLimitNow(): number {
  atStart ??= oldSpaceLimit({
    heapSizeLimit: getHeapStatistics().heap_size_limit,
    execArgv: process.execArgv,
    nodeOptions: process.env['NODE_OPTIONS'],
    v8Version: process.versions.v8,
  })
  return atStart
}
