/**
 * @module What `entistore check --project` says of a project's code, and `serve --project` in one
 * line at start-up: per file, the code that would fail when reached — its syntax errors (a line
 * that does not parse, a call with a wrong number of arguments, a misplaced statement: what 4D's
 * syntax check reports) and what parses but cannot run here (a command, constant or construct not
 * implemented, named) — and the warnings, which run.
 */
import type { Problem } from '../compile/session.js'
import type { FileProblems } from './compile-project.js'

export interface CheckPlace {
  readonly line: number
  readonly column: number
}

/** One file, in `--json`'s shape. */
export interface FileCheck {
  readonly file: string
  readonly syntaxErrors: readonly (CheckPlace & { readonly message: string })[]
  /** What cannot run, by name, with the line `check` prints (which says why: a user interface, a process). */
  readonly notRunnable: readonly (CheckPlace & {
    readonly name: string
    readonly message: string
  })[]
}

export interface CheckReport {
  readonly files: readonly FileCheck[]
}

const isNotRunnable = (p: Problem): boolean => p.code === 'not-runnable'

/** The report of `files`, each named by `name` (the path a developer opens). */
export function checkReport(
  files: readonly FileProblems[],
  name: (file: string) => string = (f) => f,
): CheckReport {
  return {
    files: files.map(({ file, problems }) => ({
      file: name(file),
      syntaxErrors: problems
        .filter((p) => p.severity === 'error' && !isNotRunnable(p))
        .map(({ line, column, message }) => ({ line, column, message })),
      notRunnable: problems.filter(isNotRunnable).map(({ line, column, message, name }) => ({
        line,
        column,
        name: name ?? message,
        message,
      })),
    })),
  }
}

/** Whether some code of the report would fail when it runs. */
export const wouldFail = (report: CheckReport): boolean =>
  report.files.some((f) => f.syntaxErrors.length > 0 || f.notRunnable.length > 0)

/**
 * The lines `entistore check` prints: one a problem, `file:line:column: message`, in the order of
 * each file (warnings too, said so), from `files` and their problems (the messages of the
 * not-runnable ones name what cannot run).
 */
export function problemLines(
  files: readonly FileProblems[],
  name: (file: string) => string = (f) => f,
): string[] {
  return files.flatMap(({ file, problems }) =>
    problems
      .filter((p) => p.severity !== 'info')
      .map(
        (p) =>
          `${name(file)}:${p.line}:${p.column}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`,
      ),
  )
}

/**
 * `3 files of 4D code: 1 syntax error in 1 file, 2 names that cannot run here (SET WINDOW TITLE,
 * DIALOG)`, or `… no problem`: the summary `check` ends with and `serve` says at start-up.
 */
export function checkSummary(report: CheckReport): string {
  const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
  const syntax = report.files.flatMap((f) => f.syntaxErrors)
  const names = report.files.flatMap((f) => f.notRunnable.map((p) => p.name))
  const failing = report.files.filter((f) => f.syntaxErrors.length + f.notRunnable.length > 0)
  const parts: string[] = []
  if (syntax.length > 0) parts.push(count(syntax.length, 'syntax error'))
  if (names.length > 0)
    parts.push(
      `${count(names.length, 'use', 'uses')} of what cannot run here (${[...new Set(names)].join(', ')})`,
    )
  const head = `${count(report.files.length, 'file')} of 4D code`
  if (parts.length === 0) return `${head}: no problem`
  return `${head}: ${parts.join(', ')}, in ${count(failing.length, 'file')}: that code fails when it is reached`
}
