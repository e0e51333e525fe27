/**
 * @module The state of the code generator for one unit: the writer, the generation options, and
 * the names it invents — never a 4D name (research §8.8): `v<n>` a slot, `t<n>` a temporary of
 * one statement, `l<n>` a temporary that lives through a loop or a `Try`, `c<n>` a constant made
 * once a call, `e<n>` a caught exception, `s<n>` a member read's site (made once a function, outside
 * it: member-sites.ts), and the function's parameters `rt` (the running
 * context), `th` (`This`), `ag` (the parameters), `cx` (the class of a class function, or a
 * formula's copied locals), `df` (deferred errors) and `ln` (the line, when tracked).
 */
import type { Slot } from '../analysis.js'
import type { Analysis } from '../analysis.js'
import { Writer } from './writer.js'

export interface EmitOptions {
  /** Decrement the budget at loop passes and calls (budget.ts). */
  readonly budget: boolean
  /** Keep the current 4D line in a variable, rather than reading it from the stack on error. */
  readonly lines: boolean
  /**
   * Generate the unit as a generator that stops (`yield`) at its budget's checks and goes into
   * the 4D functions it calls with `yield*` (runtime/ops/steps.ts): the form a caller runs in
   * slices, so that a long call holds no other client. Its `Use` blocks and `Try(…)` expressions
   * stop inside too; its formulas stay plain functions, with their steps beside when they call
   * something.
   */
  readonly steps?: boolean
}

export const DEFAULT_EMIT_OPTIONS: EmitOptions = { budget: true, lines: false }

/** The parameters of every generated function. */
export const PARAMETERS = ['rt', 'th', 'ag', 'cx'] as const

/** A formula being generated inside the unit: the locals it copies, its own temporaries. */
interface FormulaFrame {
  readonly captures: Slot[]
  temps: number
  maxTemps: number
  /** Generated as a generator (a formula's steps, made in a unit's generator): it may stop. */
  readonly yields: boolean
}

export class EmitContext {
  readonly w: Writer
  #temps = 0
  #maxTemps = 0
  #longTemps = 0
  readonly #pointerTemps = new Map<string, string>()
  #catches = 0
  #sites = 0
  // Which sites are calls' (`{ f: null }`, call-sites.ts) rather than member reads' (`{ r: null }`).
  readonly #callSites = new Set<number>()
  readonly #constants = new Map<string, string>()
  #frame: FormulaFrame | null = null
  /** How many `Try` blocks enclose the statement being generated. */
  tries = 0
  #frames: FormulaFrame[] = []

  constructor(
    readonly analysis: Analysis,
    readonly options: EmitOptions,
  ) {
    this.w = new Writer(analysis.unit.line)
  }

  get unit() {
    return this.analysis.unit
  }

  /** A temporary for the statement being generated. */
  temp(): string {
    const frame = this.#frame
    if (frame !== null) {
      const n = frame.temps++
      frame.maxTemps = Math.max(frame.maxTemps, frame.temps)
      return `t${n}`
    }
    const n = this.#temps++
    this.#maxTemps = Math.max(this.#maxTemps, this.#temps)
    return `t${n}`
  }

  /** A new statement: its temporaries may reuse the previous one's. */
  statement(): void {
    if (this.#frame === null) this.#temps = 0
  }

  /** A temporary that lives through a block (a loop's bounds, a `Try`'s mark). */
  longTemp(): string {
    return `l${this.#longTemps++}`
  }

  /**
   * The temporary of the call that keeps the pointer to the variable `read` reads (`v3`), the
   * same for each `->$x` of the call; none inside a formula, whose temporaries are its own.
   */
  pointerTemp(read: string): string | undefined {
    if (this.#frame !== null) return undefined
    let t = this.#pointerTemps.get(read)
    if (t === undefined) this.#pointerTemps.set(read, (t = this.longTemp()))
    return t
  }

  /** The name of a new caught exception. */
  catchName(): string {
    return `e${this.#catches++}`
  }

  /** A value made once a call (a date or time literal), outside formulas (made at each use). */
  constant(code: string): string {
    if (this.#frame !== null) return code
    let name = this.#constants.get(code)
    if (name === undefined) {
      name = `c${this.#constants.size}`
      this.#constants.set(code, name)
    }
    return name
  }

  /** A new site of a member read (`rt.getAt(s0, o, "name")`), made once with the function. */
  site(): string {
    return `s${this.#sites++}`
  }

  /** A new site of a member function's call (`rt.callAt(s0, o, "name", [])`), as `site()`. */
  callSite(): string {
    this.#callSites.add(this.#sites)
    return this.site()
  }

  /** The declarations of the sites, made once with the function (function.ts). */
  siteDeclarations(): string[] {
    return Array.from(
      { length: this.#sites },
      (_, i) => `s${i} = { ${this.#callSites.has(i) ? 'f' : 'r'}: null }`,
    )
  }

  /**
   * Whether the code being generated may stop (`yield`): a generator's own, or a formula's steps
   * made in it; not a formula's plain function.
   */
  get yields(): boolean {
    return this.options.steps === true && (this.#frame?.yields ?? true)
  }

  /**
   * The budget's check (budget.ts) at a loop's pass or a call's start; in a generator also a stop,
   * where its driver may end the slice.
   */
  tick(): string {
    if (!this.options.budget) return ''
    return this.yields
      ? 'if (--rt.ticks < 0) { rt.tick(); yield; } '
      : 'if (--rt.ticks < 0) rt.tick(); '
  }

  /** `call` (code calling a 4D function, `rt.call(…)`), in a generator its steps' form. */
  calling(sync: string, steps: string, args: string): string {
    if (!this.yields) return `rt.${sync}(${args})`
    const t = this.temp()
    return `((${t} = rt.${steps}(${args})) instanceof rt.Steps ? (yield* ${t}.g) : ${t})`
  }

  /** The formula being generated, if any. */
  get frame(): FormulaFrame | null {
    return this.#frame
  }

  /**
   * Generates `fn` as the body of a formula copying `captures`; its temporaries are its own. As
   * its steps (`yields`), its calls go into the steps of what they call.
   */
  inFormula<T>(captures: Slot[], fn: () => T, yields = false): { result: T; temps: number } {
    const frame: FormulaFrame = { captures, temps: 0, maxTemps: 0, yields }
    this.#frames.push(frame)
    this.#frame = frame
    try {
      return { result: fn(), temps: frame.maxTemps }
    } finally {
      this.#frames.pop()
      this.#frame = this.#frames.at(-1) ?? null
    }
  }

  /** The declarations of the function's own temporaries and constants. */
  declarations(): string[] {
    const out: string[] = []
    for (let i = 0; i < this.#maxTemps; i++) out.push(`t${i}`)
    for (let i = 0; i < this.#longTemps; i++) out.push(`l${i}`)
    for (const [code, name] of this.#constants) out.push(`${name} = ${code}`)
    return out
  }
}
