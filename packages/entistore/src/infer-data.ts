/**
 * @module A data file without a model (`serve --data db.json` alone, `entistore model --from`): the
 * file read whole, its model inferred by the core's inferModel (docs/infer-model.md), and the rows
 * loaded into the datastore made from it. Read whole, not as a stream, because the model must be
 * known before the first row is loaded; a data file too large for that is served with a model
 * (`entistore model --from` writes one), which streams it.
 */
import { basename, extname } from 'node:path'
import { DatastoreError, inferModel, type Datastore, type InferredModel } from '@entistore/core'
import { readDataStream, isJsonLines } from './data-stream.js'
import { FileError } from './file-error.js'
import { readJsonFile } from './read-json-file.js'

/** The data of `file`: a JSON data file parsed, or the rows of a JSON Lines file by dataclass. */
async function readData(file: string): Promise<unknown> {
  if (!isJsonLines(file)) return readJsonFile(file, 'data')
  const data: Record<string, unknown[]> = {}
  await readDataStream(file, (name, rows) => {
    const list = (data[name] ??= [])
    for (const row of rows as unknown[]) list.push(row)
  })
  return data
}

/**
 * The model inferred from data file `file`, named after it (`db.json` → `db`). With `draft`, a
 * model to edit (what cannot be inferred exactly is guessed, and noted). Throws a FileError naming
 * the file; where a draft would do, it says how to write one.
 */
export async function inferDataFile(
  file: string,
  options: { readonly draft?: boolean } = {},
): Promise<InferredModel> {
  const data = await readData(file)
  const name = basename(file, extname(file))
  try {
    return inferModel(data, { name, draft: options.draft === true })
  } catch (e) {
    if (!DatastoreError.is(e)) throw e
    let hint = ''
    if (options.draft !== true) {
      try {
        inferModel(data, { draft: true })
        hint = `; entistore model --from ${file} --out model.json writes a model to edit`
      } catch {
        // What a draft refuses too (a name no model may have) is the data's to change.
      }
    }
    throw new FileError(file, `${e.message}${hint}`, { cause: e })
  }
}

/** Rows added to a load at a time: small enough that a load in slices never holds the event loop long. */
const BATCH_ROWS = 4096

/**
 * Loads the rows inference read (`inferred.data`) into `ds`, made from its model; with `pause`, in
 * slices with `pause()` awaited between them (a reload by --watch). A refused row throws a
 * FileError naming `file`.
 */
export async function loadInferredData(
  ds: Datastore,
  inferred: InferredModel,
  file: string,
  pause?: () => Promise<void>,
): Promise<void> {
  try {
    const load = ds.beginLoad()
    for (const [name, rows] of Object.entries(inferred.data)) {
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        load.add(name, rows.slice(i, i + BATCH_ROWS))
        if (pause) await pause()
      }
    }
    if (pause) await load.commitInSlices(pause)
    else load.commit()
  } catch (e) {
    if (DatastoreError.is(e)) throw new FileError(file, e.message, { cause: e })
    throw e
  }
}
