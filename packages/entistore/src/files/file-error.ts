/** @module The error of a file given to Entistore: its message names the file. */

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

/** A file that cannot be read, `what` naming its role ("data", "model"): the reason in words. */
export function unreadableFile(file: string, what: string, e: unknown): FileError {
  return unreadable(file, `the ${what} file`, e, `the ${what} path is a directory, not a file`)
}

/** A folder that cannot be read, `what` naming its role ("CSV"): the reason in words. */
export function unreadableFolder(folder: string, what: string, e: unknown): FileError {
  return unreadable(folder, `the ${what} folder`, e, `the ${what} folder is a file, not a folder`)
}

function unreadable(path: string, thing: string, e: unknown, wrongKind: string): FileError {
  const code = (e as NodeJS.ErrnoException).code
  return new FileError(
    path,
    code === 'ENOENT'
      ? `${thing} does not exist`
      : code === 'EISDIR' || code === 'ENOTDIR'
        ? wrongKind
        : `cannot read ${thing} (${code ?? String(e)})`,
    { cause: e },
  )
}
