/**
 * @module The diagnostics session that the compiler's passes share (research language-models.md
 * §8.2, Peggy's `Session`): each pass reports what it finds here, with the file's line and column,
 * so that `entistore check` prints every problem of a file at once. A problem never stops the
 * compilation: what cannot run fails when it is reached, as in 4D's interpreter.
 */
import type { Loc, Position } from '../ast/loc.js'

/**
 * - `error`: the code fails when it is reached (a line that does not parse, a misplaced `break`);
 * - `warning`: it runs, but not as written may mean (a command whose name and token disagree);
 * - `info`: nothing wrong, worth knowing.
 */
export type Severity = 'error' | 'warning' | 'info'

/**
 * - `syntax`: a line that does not parse;
 * - `not-runnable`: a command, constant or construct that parses but cannot run here;
 * - `arguments`: a call with too few or too many arguments for the command;
 * - `command-name`: a tokenized command whose name is not the table's for its number;
 * - `declaration`: a variable or parameter declared twice, or with two types;
 * - `unknown-type`: a declared type 4D does not have;
 * - `placement`: a statement where it cannot be (`break` outside a loop, `Super` outside a class);
 * - `unknown-member`, `process-variable`, `qodlyscript`: what 4D's compiler would warn of in a
 *   project (project/project-warnings.ts).
 */
export type ProblemCode =
  | 'syntax'
  | 'not-runnable'
  | 'arguments'
  | 'command-name'
  | 'declaration'
  | 'unknown-type'
  | 'placement'
  | 'unknown-member'
  | 'process-variable'
  | 'qodlyscript'

export interface Problem {
  readonly severity: Severity
  readonly code: ProblemCode
  readonly message: string
  readonly line: number
  readonly column: number
  /** A not-runnable problem's command, constant, class or construct (`entistore check --json`). */
  readonly name?: string
}

export class Session {
  readonly #problems: Problem[] = []
  readonly #seen = new Set<string>()

  constructor(
    /** The file the problems are in, as `entistore check` names it. */
    readonly file: string,
  ) {}

  report(
    severity: Severity,
    code: ProblemCode,
    message: string,
    at: Loc | Position,
    name?: string,
  ): void {
    const { line, column } = 'start' in at ? at.start : at
    // A unit analysed twice (a class recompiled) reports once.
    const key = `${line}:${column}:${code}:${message}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.#problems.push({
      severity,
      code,
      message,
      line,
      column,
      ...(name === undefined ? {} : { name }),
    })
  }

  error(code: ProblemCode, message: string, at: Loc | Position, name?: string): void {
    this.report('error', code, message, at, name)
  }

  warning(code: ProblemCode, message: string, at: Loc | Position): void {
    this.report('warning', code, message, at)
  }

  /** The problems, in the order of the file. */
  get problems(): readonly Problem[] {
    return [...this.#problems].sort((a, b) => a.line - b.line || a.column - b.column)
  }

  get hasErrors(): boolean {
    return this.#problems.some((p) => p.severity === 'error')
  }
}
