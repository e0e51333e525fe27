/**
 * @module The heap the data needs (issue 30): before `serve` loads a data file or a `--persist`
 * folder that is large for Node's heap limit, one line on stderr says what to start it with.
 *
 * Node fixes its heap's old-space limit, the one the data meets (heap-limit.ts), when the process
 * starts (about a quarter of the machine's memory, at most 4 GB on 64-bit Node 20, 22 and 24):
 * `v8.setFlagsFromString('--max-old-space-size=…')` afterwards leaves `heap_size_limit` as it was
 * (measured on Node 20: 4,144 MB before and after, and the process still dies at 4 GB). Only a flag given at start-up raises it: `NODE_OPTIONS=--max-old-space-size=N` or
 * `node --max-old-space-size=N`. Starting a second process with the flag would cost every start
 * that process (≈0.1 s, 40 MB) and an orphan holding the port when the first one is killed with
 * SIGKILL, so the CLI says what to pass instead (docs/cli.md, "The heap the data needs").
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Bytes of heap a load needs per byte of data text, measured with every index built
 * (`--eager-indexes`): 1,000,000 short rows (a 112 MB file) load with a heap of 160 MB (1.4×),
 * and 10,000,000 (1.1 GB) serve on Node's default 4 GB, 0.7 GB of heap used while the indexes
 * are built. A load's texts are bytes outside the heap (base-rows.ts); before they were, it took
 * 330 MB (3×).
 */
export const HEAP_PER_DATA_BYTE = 2
/**
 * How much more than the load the advice leaves room for: the data grows with writes, and a
 * snapshot or `--save` makes garbage of its own while the store is whole.
 */
const ROOM = 2
/** The line is printed once the load's need passes this share of the heap's limit. */
const WARN_SHARE = 0.75
/** The advice never asks for more than this share of the machine's memory. */
const MACHINE_SHARE = 0.75

const MB = 2 ** 20
const GB = 2 ** 30

export interface HeapFacts {
  /** Bytes of data to load: the data file, or the `--persist` folder's files. */
  readonly dataBytes: number
  /** What it is, for the line: `data.json`, `the folder ./store`. */
  readonly what: string
  /** The limit the data meets: the old space's (heap-limit.ts). */
  readonly heapLimit: number
  /** The machine's memory (`os.totalmem()`). */
  readonly totalMemory: number
}

/** `1.1 GB`, or `48 MB` below a GB. */
const gb = (bytes: number): string =>
  bytes < GB ? `${Math.round(bytes / MB)} MB` : `${(bytes / GB).toFixed(1)} GB`

/**
 * The line to print before loading, or undefined when the data fits the heap with room to spare:
 * `NODE_OPTIONS=--max-old-space-size=N` with N = twice the estimated need (rounded up to a GB),
 * at most three quarters of the machine's memory; past that, that the machine is too small.
 */
export function heapAdvice(f: HeapFacts): string | undefined {
  const need = f.dataBytes * HEAP_PER_DATA_BYTE
  if (need <= WARN_SHARE * f.heapLimit) return undefined
  const most = MACHINE_SHARE * f.totalMemory
  const about =
    `entistore: ${f.what} (${gb(f.dataBytes)}) needs about ${gb(need)} of heap, ` +
    `and Node's limit here is ${gb(f.heapLimit)}`
  if (need > most)
    return `${about}: this machine's ${gb(f.totalMemory)} of memory is too little to hold it`
  const wanted = Math.min(need * ROOM, most)
  // Whole GB, rounded up, unless that passes the machine's share.
  let limit = Math.ceil(wanted / GB) * 1024
  if (limit * MB > most) limit = Math.floor(wanted / MB)
  return `${about}: start it with NODE_OPTIONS=--max-old-space-size=${limit}`
}

/**
 * Bytes of the data a `serve` will load: with `--persist`, the folder's files when it has any (a
 * folder with data wins over `--data`), else the data file; 0 when neither can be read (the load
 * then says why).
 */
export function dataBytesOf(
  data: string | undefined,
  persist: string | undefined,
): { bytes: number; what: string } {
  if (persist !== undefined) {
    let bytes = 0
    try {
      for (const name of readdirSync(persist)) bytes += statSync(join(persist, name)).size
    } catch {
      // No folder yet: the data file is what is loaded into it.
    }
    if (bytes > 0) return { bytes, what: `the folder ${persist}` }
  }
  if (data === undefined) return { bytes: 0, what: '' }
  try {
    return { bytes: statSync(data).size, what: data }
  } catch {
    return { bytes: 0, what: data }
  }
}
