/**
 * @module Model and data files on disk: read, parse and load them, with errors that name the file
 * and say what is wrong with it.
 */
import { readFile } from 'node:fs/promises'
import {
  createDatastore,
  DatastoreError,
  type Clock,
  type DatastoreWith,
  type ModelJson,
} from '@entistore/core'
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'

/**
 * A problem with a file given to Entistore: the message names the file, as `file: message`, or
 * `file:line:column: message` (1-based, the form editors and terminals link to) when the place is known.
 */
export class FileError extends Error {
  override readonly name = 'FileError'
  readonly line: number | undefined
  readonly column: number | undefined
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown; line?: number; column?: number },
  ) {
    const at = options?.line === undefined ? '' : `:${options.line}:${options.column ?? 1}`
    super(`${file}${at}: ${message}`, { cause: options?.cause })
    this.line = options?.line
    this.column = options?.line === undefined ? undefined : (options.column ?? 1)
  }
}

/** Reads and parses a JSON file, naming the file (and the JSON error) on failure. */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string
  try {
    // Bytes first, then one decode: readFile(file, 'utf8') decodes chunk by chunk through a
    // string decoder, a quarter of a second more on a 70 MB data file.
    text = (await readFile(file)).toString('utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FileError(
      file,
      code === 'ENOENT'
        ? `the ${what} file does not exist`
        : code === 'EISDIR'
          ? `the ${what} path is a directory, not a file`
          : `cannot read the ${what} file (${code ?? String(e)})`,
      { cause: e },
    )
  }
  // The BOM is cut off, so V8's positions count from the character after it, as an editor does.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  try {
    return JSON.parse(text)
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const { reason, position } = readJsonSyntaxError(e.message, text.length)
    // Some of V8's messages (`Unexpected token 'x', "…" is not valid JSON`) give no position.
    const at = position === undefined ? {} : lineAndColumn(text, position)
    throw new FileError(file, `the ${what} file is not valid JSON: ${reason}`, { cause: e, ...at })
  }
}

export interface LoadFilesOptions {
  readonly model: string
  readonly data?: string
  readonly clock?: Clock
}

/** A datastore built from a model file and an optional data file. */
export async function loadDatastoreFiles(
  options: LoadFilesOptions,
): Promise<DatastoreWith<string>> {
  const model = await readJsonFile(options.model, 'model')
  const data = options.data === undefined ? undefined : await readJsonFile(options.data, 'data')
  let ds: DatastoreWith<string>
  try {
    ds = createDatastore(model as ModelJson, options.clock ? { clock: options.clock } : {})
  } catch (e) {
    if (DatastoreError.is(e)) throw new FileError(options.model, e.message, { cause: e })
    throw e
  }
  if (data !== undefined) {
    try {
      ds.loadData(data as never)
    } catch (e) {
      if (DatastoreError.is(e)) throw new FileError(options.data!, e.message, { cause: e })
      throw e
    }
  }
  return ds
}
