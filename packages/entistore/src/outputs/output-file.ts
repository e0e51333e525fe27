/**
 * @module What `entistore types`, `model` and `openapi` do with what they make: print it, or write
 * it to `--out` and say so in one line, a file that cannot be written named as the file's error.
 */
import { writeFile } from 'node:fs/promises'
import { FileError } from '../files/file-error.js'

export interface OutputOptions {
  /** The file to write; without one the text is printed. */
  readonly out: string | undefined
  /** What the text is, for the error line: `the types`, `the description`. */
  readonly what: string
  /** The line said once the file is written. */
  readonly written: string
  /** Keep a file that exists (EEXIST is then `exists(out)`). @default false: replace it */
  readonly keep?: { readonly exists: (file: string) => Error }
}

/** Prints `text`, or writes it to `o.out` and says `o.written`. */
export async function writeOutput(
  text: string,
  o: OutputOptions,
  io: { out(line: string): void },
): Promise<void> {
  if (o.out === undefined) {
    io.out(text.trimEnd())
    return
  }
  try {
    await writeFile(o.out, text, { flag: o.keep ? 'wx' : 'w' })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EEXIST' && o.keep) throw o.keep.exists(o.out)
    throw new FileError(o.out, `cannot write ${o.what} (${code ?? String(e)})`, { cause: e })
  }
  io.out(o.written)
}
