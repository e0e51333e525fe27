/**
 * @module What the host gives the commands through their context (table.ts's CommandContext):
 * its compiler of 4D code given as text (formulas.ts) and the web server it runs (web-server.ts).
 * Below the table and the commands both, so that neither names the other to type them.
 */
import type { FunctionImpl } from '../classes/function-object.js'

/** A text as a formula's expression (`Formula from string`), or as one line of code (`EXECUTE FORMULA`). */
export type FormulaKind = 'expression' | 'statement'

/**
 * The host's compiler of 4D code given as text: the function the text makes (called with `This`
 * and the formula's parameters), or the 4D error of a text that does not compile, thrown.
 */
export type FormulaCompiler = (text: string, kind: FormulaKind) => FunctionImpl

/** What the host tells of the web server it runs, under 4D's names. */
export interface WebServerHost {
  readonly name: string
  readonly HTTPPort: number
  readonly IPAddressToListen: string
  readonly maxRequestSize: number
  readonly sessionCookieName: string
  readonly sessionCookieSameSite: string
  /**
   * The quotas in force, each undefined when not enforced; a write the server refuses throws
   * (a RangeError) and keeps the old value.
   */
  readonly quotas: Record<string, number | undefined>
  /** The HTTP rules in force (HTTPRules.json, or the rules option), as given; none when absent. */
  readonly rules?: readonly unknown[]
}
