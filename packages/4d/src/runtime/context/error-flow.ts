/**
 * @module Errors as they pass through compiled code (research language-models.md §8.10): each
 * compiled function's `catch` places the error it sees at its method, file and line unless a
 * deeper function placed it first; an exception of the host becomes a 4D error (HostError) so
 * that `Try`/`Catch` and the caller see a 4D error object.
 *
 * The line is the one the compiled code tracks when asked to (`ln`), else the one the JavaScript
 * stack gives: generated code keeps each 4D line on the same line of its source, compiled under
 * the 4D file's name, so the innermost frame of that file is the 4D line.
 */
import { ERRORS } from '../errors/error-codes.js'
import { fourDError, FourDError } from '../errors/fourd-error.js'

/** The error as a 4D error: itself, or a HostError holding the host's as its cause. */
export function toFourDError(e: unknown): FourDError {
  if (FourDError.is(e)) return e
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
  return fourDError('HostError', { detail }, { cause: e })
}

/** The line of the innermost frame of `file` in the error's JavaScript stack (0 if none). */
export function lineFromStack(e: unknown, file: string): number {
  let stack: string | undefined
  try {
    stack = e instanceof Error ? e.stack : undefined
  } catch {
    // Formatting a stack can itself fail, at the depth where the call stack overflowed.
    return 0
  }
  if (stack === undefined) return 0
  const mark = `${file}:`
  for (const frame of stack.split('\n')) {
    let at = frame.indexOf(mark)
    while (at >= 0) {
      const before = at === 0 ? ' ' : frame[at - 1]
      const line = /^(\d+)/.exec(frame.slice(at + mark.length))
      if ((before === ' ' || before === '(') && line) return Number(line[1])
      at = frame.indexOf(mark, at + 1)
    }
  }
  return 0
}

/**
 * The error placed at `method` of `file`, `line` (0: read the line from the stack). When the
 * stack does not show the line, the error is left for the function that called this one, whose
 * line it may show.
 */
export function placeError(e: unknown, method: string, file: string, line: number): FourDError {
  const err = toFourDError(e)
  if (err.method === undefined) {
    const cause = err.cause === undefined || FourDError.is(e) ? e : err.cause
    const at = line > 0 ? line : lineFromStack(cause, file)
    if (at > 0) err.at(method, at, file)
  }
  return err
}

/** Whether 4D code may catch the error (a spent budget it may not: the code must stop). */
export const catchable = (err: FourDError): boolean =>
  !(
    err.errCode === ERRORS.BudgetExceeded.errCode &&
    err.componentSignature === ERRORS.BudgetExceeded.componentSignature
  )
