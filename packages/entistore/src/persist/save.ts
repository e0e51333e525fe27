/**
 * @module The CLI's `--save <file>`: the served data written back as a data file that `serve --data`
 * loads, on demand (SIGUSR2) and on exit.
 *
 * The picture is a view of the datastore (the core's store-view.ts) opened when the save is asked
 * for: a consistent moment, even while requests keep arriving and while an earlier save is still
 * being written. Its rows are then turned into text a slice of a few milliseconds at a time, each
 * slice written (and awaited: the file takes it before the next is made) between requests, so a
 * save of millions of rows neither holds the event loop nor builds one string (V8 refuses one past
 * 512 MiB). The write is atomic: a temporary file in the same directory, flushed to disk (fsync),
 * then renamed over the target. A reader, or a crash half-way, sees the old file or the new one,
 * never a part of one.
 *
 * A file named `.jsonl` or `.ndjson` is written as JSON Lines (one row a line, `__entityModel`
 * first); any other as the JSON data file, one row a line.
 */
import { createHash, randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import {
  dumpRows,
  openStoreView,
  type Datastore,
  type DanglingReference,
  type DataFile,
  type DataRow,
  type StoreView,
} from '@entistore/core'
import { SLICE_MS, takeSlice } from './take-slice.js'

/** Characters one slice may gather before it is written, however fast they come. */
const SLICE_CHARS = 1024 * 1024

/** What was written: its size and SHA-256 (hex), by which `--watch` knows its own save. */
export interface Written {
  readonly bytes: number
  readonly digest: string
}

/** The SHA-256 of `bytes`, hex: what `Written.digest` is for a file holding them. */
export const digestOf = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex')

/**
 * Writes `content` to `file` through a temporary file in the same directory, fsync and rename.
 * `content` may be made as it is asked for: pieces are taken for a few milliseconds at a time,
 * then written (awaited) while the event loop serves others. `beforeRename` runs once everything
 * is on disk, just before the file takes it: a watcher of `file` (the CLI's `--watch`) learns
 * what it will read before it can see it.
 */
export async function writeFileAtomic(
  file: string,
  content: string | Iterable<string>,
  options: {
    readonly beforeRename?: (written: Written) => void
    /** @internal The slice's length in ms (tests set 0: a piece a slice). @default 5 */
    readonly sliceMs?: number
  } = {},
): Promise<Written> {
  const sliceMs = options.sliceMs ?? SLICE_MS
  // Same directory: a rename across file systems is not atomic (and fails with EXDEV).
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const hash = createHash('sha256')
  let bytes = 0
  const pieces = typeof content === 'string' ? [content] : content
  const iterator = pieces[Symbol.iterator]()
  try {
    const handle = await open(temp, 'wx')
    try {
      for (let done = false; !done;) {
        const slice = takeSlice(iterator, SLICE_CHARS, sliceMs)
        const chunk = Buffer.from(slice.pieces.join(''))
        hash.update(chunk)
        bytes += chunk.length
        await handle.write(chunk)
        done = slice.done
      }
      await handle.sync()
    } finally {
      await handle.close()
    }
    const written = { bytes, digest: hash.digest('hex') }
    options.beforeRename?.(written)
    await rename(temp, file)
    // The rename itself is durable once the directory is flushed; not every system can open one.
    const dir = await open(dirname(file), 'r').catch(() => undefined)
    if (dir)
      await dir
        .sync()
        .catch(() => {})
        .finally(() => dir.close())
    return written
  } catch (e) {
    iterator.return?.()
    await unlink(temp).catch(() => {})
    throw e
  }
}

/** The format a data file is written in, by its name (see the module). */
export type DataFormat = 'json' | 'jsonl'

export const dataFormatOf = (file: string): DataFormat =>
  /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'json'

/**
 * A data file's text, piece by piece, from its dataclasses' rows (which may be made as they are
 * asked for). JSON: one row a line, so that a saved fixture reads and diffs well and a large one
 * is not several times its size in indentation. JSON Lines: each row a line, `__entityModel` first.
 */
export function* dataFileChunks(
  classes: Iterable<readonly [string, Iterable<object>]>,
  format: DataFormat = 'json',
): Generator<string, void, undefined> {
  if (format === 'jsonl') {
    for (const [name, rows] of classes) {
      const head = `{"__entityModel":${JSON.stringify(name)}`
      for (const row of rows) {
        const text = JSON.stringify(row)
        yield text === '{}' ? `${head}}\n` : `${head},${text.slice(1)}\n`
      }
    }
    return
  }
  yield '{\n'
  let first = true
  for (const [name, rows] of classes) {
    yield `${first ? '' : ',\n'}  ${JSON.stringify(name)}: [`
    first = false
    let any = false
    for (const row of rows) {
      yield `${any ? ',' : ''}\n    ${JSON.stringify(row)}`
      any = true
    }
    yield any ? '\n  ]' : ']'
  }
  yield '\n}\n'
}

/** A data file as text (small ones: a large one is written with dataFileChunks). */
export function dataFileText(data: DataFile): string {
  return [...dataFileChunks(Object.entries(data))].join('')
}

/** What writeDataFile wrote. */
export interface WrittenData {
  /** The size and SHA-256 of what was written. */
  readonly written: Written
  readonly entities: number
  /** Foreign keys to deleted entities, written as null (dumpData's onDangling). */
  readonly dangling: readonly DanglingReference[]
}

/**
 * Writes the rows of `view` to `file` as a data file (its format by its name: dataFormatOf), a
 * slice at a time, atomically (writeFileAtomic, whose options it takes). The view stays the
 * caller's to release.
 */
export async function writeDataFile(
  file: string,
  view: StoreView,
  options: Parameters<typeof writeFileAtomic>[2] = {},
): Promise<WrittenData> {
  const dangling: DanglingReference[] = []
  let entities = 0
  const onDangling = (d: DanglingReference) => dangling.push(d)
  function* counted(name: string): Generator<DataRow> {
    for (const row of dumpRows(view, name, { onDangling })) {
      entities++
      yield row
    }
  }
  const classes = view.schema.dataClasses.map((dc) => [dc.name, counted(dc.name)] as const)
  const written = await writeFileAtomic(file, dataFileChunks(classes, dataFormatOf(file)), options)
  return { written, entities, dangling }
}

export interface SaveResult extends WrittenData {
  readonly file: string
}

/**
 * Saves `ds()` to `file`, as it is when `save` is called (a view opened then); writes never
 * overlap (a second one waits for the first), so the file always ends up holding the later
 * picture. `beforeReplace` is told what was written just before the file takes it
 * (writeFileAtomic's `beforeRename`).
 */
export function dataSaver(
  file: string,
  ds: () => Datastore,
  options: {
    readonly beforeReplace?: (written: Written) => void
    /** @internal As writeFileAtomic's. @default 5 */
    readonly sliceMs?: number
  } = {},
): { save(): Promise<SaveResult> } {
  let last: Promise<unknown> = Promise.resolve()
  return {
    save() {
      // The picture is taken now, when the save is asked for; only the writes wait their turn.
      const view = openStoreView(ds())
      const next = last.then(async () => {
        try {
          const done = await writeDataFile(file, view, {
            beforeRename: (w) => options.beforeReplace?.(w),
            sliceMs: options.sliceMs,
          })
          return { file, ...done }
        } finally {
          view.release()
        }
      })
      last = next.catch(() => {})
      return next
    },
  }
}
