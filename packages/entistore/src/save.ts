/**
 * @module The CLI's `--save <file>`: the served data written back as a data file that `serve --data`
 * loads, on demand (SIGUSR2) and on exit.
 *
 * The write is atomic: the text goes to a temporary file in the same directory, is flushed to disk
 * (fsync), then renamed over the target. A reader, or a crash half-way, sees the old file or the new
 * one, never a part of one. The rows are taken from the datastore in one synchronous step, so a save
 * is a consistent picture of one moment even while requests keep arriving.
 */
import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { dumpData, type Datastore, type DanglingReference, type DataFile } from '@entistore/core'

/**
 * Writes `text` to `file` through a temporary file in the same directory, fsync and rename.
 * `beforeRename` runs once the text is on disk, just before the file takes it: a watcher of `file`
 * (the CLI's `--watch`) learns what it will read before it can see it.
 */
export async function writeFileAtomic(
  file: string,
  text: string,
  options: { readonly beforeRename?: () => void } = {},
): Promise<void> {
  // Same directory: a rename across file systems is not atomic (and fails with EXDEV).
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    options.beforeRename?.()
    await rename(temp, file)
  } catch (e) {
    await unlink(temp).catch(() => {})
    throw e
  }
  // The rename itself is durable once the directory is flushed; not every system can open one.
  const dir = await open(dirname(file), 'r').catch(() => undefined)
  if (dir)
    await dir
      .sync()
      .catch(() => {})
      .finally(() => dir.close())
}

/**
 * A data file as text: one row a line, so that a saved fixture reads and diffs well and a large one
 * is not several times its size in indentation.
 */
export function dataFileText(data: DataFile): string {
  const classes = Object.entries(data).map(([name, rows]) => {
    const body = rows.map((row) => `    ${JSON.stringify(row)}`).join(',\n')
    return `  ${JSON.stringify(name)}: [${rows.length === 0 ? '' : `\n${body}\n  `}]`
  })
  return `{\n${classes.join(',\n')}\n}\n`
}

export interface SaveResult {
  readonly file: string
  /** The text written. */
  readonly text: string
  readonly entities: number
  readonly dangling: readonly DanglingReference[]
}

/**
 * Saves `ds()` to `file`, as it is when `save` is called; writes never overlap (a second one waits
 * for the first), so the file always ends up holding the later picture. `beforeReplace` is told the
 * text just before the file takes it (writeFileAtomic's `beforeRename`).
 */
export function dataSaver(
  file: string,
  ds: () => Datastore,
  options: { readonly beforeReplace?: (text: string) => void } = {},
): { save(): Promise<SaveResult> } {
  let last: Promise<unknown> = Promise.resolve()
  return {
    save() {
      // The picture is taken now, when the save is asked for; only the writes wait their turn.
      const dangling: DanglingReference[] = []
      const data = dumpData(ds(), { onDangling: (d) => dangling.push(d) })
      const text = dataFileText(data)
      const entities = Object.values(data).reduce((n, rows) => n + rows.length, 0)
      const next = last.then(async () => {
        await writeFileAtomic(file, text, {
          beforeRename: () => options.beforeReplace?.(text),
        })
        return { file, text, entities, dangling }
      })
      last = next.catch(() => {})
      return next
    },
  }
}
