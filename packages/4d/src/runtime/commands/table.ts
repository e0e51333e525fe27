/**
 * @module The table of 4D's commands as the compiler and the runtime share it: one entry a
 * command, keyed by its number (docs/Concepts/commands.md, "Name (Number)"), so that a tokenized
 * call (`Length:C16`) and a written one (`Length`) reach the same entry.
 *
 * An entry says how the command runs here: `impl` when it does; `notRunnable` (why: 'UI', a
 * dialog or a form; 'not yet') when it parses but cannot run, and raises "not implemented" when
 * reached; neither when nobody wrote it yet (the same error). Implementations live one file a
 * theme (strings.ts, objects.ts…), each exporting its entries; index.ts assembles the table, so
 * that a theme is one file and one line there.
 *
 * Compiled code calls `rt.k[number](rt, arg1, arg2…)`: the implementation receives the running
 * context first (for the clock, `Last errors`, the session…) and the 4D values of its arguments,
 * a bare `*`, `>` or `<` as the SYMBOLS below.
 */
import type { CommandImpl, CommandSteps } from '../context/command-context.js'
import { plainOf } from '../values/work.js'
import { parseSignature, type Signature } from '../arguments/signature.js'

export { SYMBOLS } from '../arguments/symbols.js'
// The context a command runs on is the context's to say (it implements it): named here too, with
// the entries that hold the commands.
export type { CommandContext, CommandImpl, CommandSteps } from '../context/command-context.js'

export interface CommandSpec {
  readonly number: number
  /** As 4D's documentation spells it (`Length`, `New object`, `ALERT`). */
  readonly name: string
  /** Other names 4D gave the command (`Get localized string` for `Localized string`, 991). */
  readonly aliases?: readonly string[]
  /**
   * Parameters and result as 4D's documentation gives them, in a short form:
   * `(text: Text): Integer`, `(value?: any; format?: Text): Text`, `(...items: any): Collection`
   * (`?` optional, `...` repeated, `any` for a parameter of several types). The compiler checks
   * the number of arguments against it and knows the type of the result.
   */
  readonly signature?: string
  readonly impl?: CommandImpl
  /**
   * The same work as steps (values/work.ts), for a command that may run long on a large value: a
   * call in slices goes into them and may end its slice at any stop. With no `impl`, the command's
   * plain form runs them to their end.
   */
  readonly steps?: CommandSteps
  /**
   * The positions (from 0) of the parameters that are variables the command writes
   * (arguments/out-parameter.ts): where the call gives a variable, the compiler passes an OutParameter.
   */
  readonly writes?: readonly number[]
  /** Why the command cannot run here ('UI' for dialogs and forms, 'not yet'…). */
  readonly notRunnable?: string
}

/** A command of the table, its signature read once. */
export interface CommandEntry extends CommandSpec {
  readonly parsed: Signature | undefined
}

export interface CommandTable {
  /** The entry of a command number, if the table has it. */
  byNumber(number: number): CommandEntry | undefined
  /** The entry of a command name, compared without case. */
  byName(name: string): CommandEntry | undefined
  /** Every entry, in the order the themes list them (for documentation and `check`). */
  readonly entries: readonly CommandEntry[]
  /** The implementations by number, as compiled code reaches them (`rt.k[16]`). */
  readonly impls: readonly (CommandImpl | undefined)[]
  /** The steps by number, as a generator of compiled code reaches them (`rt.ks[16]`). */
  readonly steps: readonly (CommandSteps | undefined)[]
}

/** Builds the table from the themes' entries; a number or a name given twice is a mistake. */
export function buildCommandTable(themes: readonly (readonly CommandSpec[])[]): CommandTable {
  const numbers = new Map<number, CommandEntry>()
  const names = new Map<string, CommandEntry>()
  const impls: (CommandImpl | undefined)[] = []
  const steps: (CommandSteps | undefined)[] = []
  for (const spec of themes.flat()) {
    const keys = [spec.name, ...(spec.aliases ?? [])].map((n) => n.toLowerCase())
    if (numbers.has(spec.number) || keys.some((k) => names.has(k)))
      throw new Error(`command table: ${spec.name} (${spec.number}) is listed twice`)
    const parsed = spec.signature === undefined ? undefined : parseSignature(spec.signature)
    // A command written as steps alone has their plain form as its `impl`: implemented either way.
    const impl = spec.impl ?? (spec.steps && plainOf(spec.steps))
    const entry: CommandEntry = Object.freeze({ ...spec, impl, parsed })
    numbers.set(spec.number, entry)
    for (const key of keys) names.set(key, entry)
    if (impl !== undefined) impls[spec.number] = impl
    if (spec.steps !== undefined) steps[spec.number] = spec.steps
  }
  return {
    entries: Object.freeze([...numbers.values()]),
    byNumber: (number) => numbers.get(number),
    byName: (name) => names.get(name.toLowerCase()),
    // Dense (every number up to the last, undefined where none): numbers go past 1,800 for ~100
    // commands, and an array assigned that sparsely is a dictionary to V8, a hash lookup at each
    // `rt.k[16](…)` (≈12 ns a call: `Length($e.lastName)` in a For each over 10k entities).
    impls: dense(impls),
    steps: dense(steps),
  }
}

// Not frozen (readonly by its type only): V8's optimized code read a frozen array's element at
// each `rt.k[16](…)` the slow way (measured: the 4d-language bench's For each, two `Length` a
// pass, ≈9 % of its instructions).
const dense = <T>(sparse: readonly T[]): readonly T[] =>
  Array.from({ length: sparse.length }, (_, n) => sparse[n]!)
