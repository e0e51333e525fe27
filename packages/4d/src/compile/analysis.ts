/**
 * @module What the passes learn about one unit, for the code generator: its variables (slots,
 * each with its declared type), what every name, parameter and command in it refers to, and the
 * statements that make no code or fail when reached.
 */
import type { Loc } from '../ast/loc.js'
import type { Node } from '../ast/nodes.js'
import type { CommandEntry } from '../runtime/commands/table.js'
import type { DeclaredType } from '../runtime/convert/assign.js'
import type { Session } from './session.js'
import type { Unit } from './units.js'

/** A local variable or parameter of the unit: one `let` of the generated function. */
export interface Slot {
  /** Its number: the generated code names it `v<id>`, never by its 4D name. */
  readonly id: number
  /** How 4D code writes it (`$total`, `$1`), for messages. */
  readonly display: string
  /** Its declared type; undefined when never declared (a Variant that starts Undefined). */
  type: DeclaredType | undefined
  /** Where the type was declared, for the message of a second, different declaration. */
  typeLoc: Loc | undefined
  /** Its parameter number (from 1), if it is one. */
  param: number | undefined
  /** Whether the unit returns it. */
  isResult: boolean
}

export type Resolution =
  /** A local variable or parameter of the unit. */
  | { readonly kind: 'slot'; readonly slot: Slot }
  /** A local of the unit read inside a formula: the formula's copy, by position. */
  | { readonly kind: 'captured'; readonly slot: Slot }
  /** A parameter of a formula (`$1` inside `Formula($1+1)`). */
  | { readonly kind: 'formula-param'; readonly index: number }
  /** A name declared as a process variable in the unit (`var name : Text`). */
  | { readonly kind: 'process' }
  /** A bare name: a project method called without parameters, or a process variable. */
  | { readonly kind: 'name' }
  /** A command the table implements. */
  | { readonly kind: 'command'; readonly entry: CommandEntry }
  /** A command the compiler answers itself. */
  | {
      readonly kind: 'intrinsic'
      readonly name: 'count-parameters' | 'current-method-name' | 'copy-parameters' | 'declaration'
    }
  /**
   * A command, constant or construct (`construct`: an array element, a pointer…) that parses
   * and cannot run: an error when reached.
   */
  | { readonly kind: 'not-runnable'; readonly name: string; readonly construct?: boolean }
  /** A constant's value. */
  | { readonly kind: 'constant'; readonly value: number | string }

export class Analysis {
  readonly slots: Slot[] = []
  /** The slots by key: a local's name in lower case (4D's names ignore case), `#1` for `$1`. */
  readonly locals = new Map<string, Slot>()
  /** The slots of parameters by number: `params[0]` is `$1`. */
  readonly params: (Slot | undefined)[] = []
  result: Slot | undefined
  /** The type of the parameters past the declared ones (`... : Text`, `C_TEXT(${3})`). */
  variadicType: DeclaredType | undefined
  /** From which parameter number on the variadic type applies. */
  variadicFrom = Infinity
  readonly resolved = new Map<Node, Resolution>()
  /** Statements that make no code (`C_TEXT($x)`, `#DECLARE`). */
  readonly skip = new Set<Node>()
  /** Statements that fail when reached, with why (`break` outside a loop). */
  readonly invalid = new Map<Node, string>()
  /** The process variables a `var` statement types, by statement. */
  readonly processDeclarations = new Map<Node, { name: string; type: DeclaredType }[]>()
  /** Whether the unit has a `throw` statement (and so keeps deferred errors). */
  hasThrow = false
  /**
   * Whether the unit calls `ON ERR CALL`: its statements then go on after a failing one when an
   * error-handling method is installed (statements.ts).
   */
  trapsErrors = false

  constructor(
    readonly unit: Unit,
    readonly session: Session,
    /** The unit's 4D text, for the `source` of its formulas (empty when not known). */
    readonly text: string,
  ) {}

  newSlot(display: string): Slot {
    const slot: Slot = {
      id: this.slots.length,
      display,
      type: undefined,
      typeLoc: undefined,
      param: undefined,
      isResult: false,
    }
    this.slots.push(slot)
    return slot
  }
}
