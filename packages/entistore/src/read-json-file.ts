/**
 * @module A JSON file read whole (a model, a roles file, a data file, HTTP settings), with errors
 * that name the file and place a syntax error at its line and column. Apart from load-files.ts,
 * which re-exports it, so that the data inference it loads lazily can read a file too.
 */
import { readFile } from 'node:fs/promises'
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'
import { FileError, unreadableFile } from './file-error.js'

/** Reads and parses a JSON file, naming the file (and the JSON error) on failure. */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string
  try {
    // Bytes first, then one decode: readFile(file, 'utf8') decodes chunk by chunk through a
    // string decoder, a quarter of a second more on a 70 MB data file.
    text = (await readFile(file)).toString('utf8')
  } catch (e) {
    throw unreadableFile(file, what, e)
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
