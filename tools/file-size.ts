/**
 * @module No source file past MAX_LINES lines (issue 67): past that a file holds more than one job,
 * and a reader cannot hold it in one sitting. A file that grows past it is split along its seams
 * (a class's helpers, a family of functions, a second job), not trimmed to fit.
 *
 * Not counted: tests and fixtures (a long test file is a list of cases), generated code (peggy's
 * parsers), build output (dist/), and the tables of data listed in DATA_TABLES, which are read by
 * lookup, one entry a line, with nothing to split.
 *
 * Run by `npm run lint` (tools/lint.ts).
 */

/** The most lines a source file may have. */
export const MAX_LINES = 500

/** Tables of data: one entry a line, read by lookup. Each says what it is. */
export const DATA_TABLES: readonly string[] = [
  // The error table: one entry an error (its 4D code, category and message), docs/errors.md's source.
  'packages/core/src/errors/err-codes.ts',
]

/** Whether `path` (relative to the repository root) is a source file whose length counts. */
export function counted(path: string): boolean {
  if (!path.endsWith('.ts') || path.endsWith('.d.ts')) return false
  if (/\.(test|fixture)\.ts$/.test(path)) return false
  if (/(^|\/)(generated|dist|node_modules)\//.test(path)) return false
  return !DATA_TABLES.includes(path)
}

/** The number of lines of `text`, as `wc -l` counts them (a last line without `\n` counts too). */
export function lineCount(text: string): number {
  if (text === '') return 0
  const breaks = text.split('\n').length - 1
  return text.endsWith('\n') ? breaks : breaks + 1
}

/** The problem of one file, if it counts and is too long. */
export function fileSizeProblems(path: string, text: string): string[] {
  if (!counted(path)) return []
  const lines = lineCount(text)
  return lines > MAX_LINES
    ? [
        `${path}: ${lines} lines, more than ${MAX_LINES}: split it along its seams (tools/file-size.ts)`,
      ]
    : []
}
