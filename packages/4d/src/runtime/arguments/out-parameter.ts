/**
 * @module The variables a command writes (`Position`'s `lengthFound`, `Match regex`'s
 * `pos_found` and `length_found`, the object `OB SET` creates in a variable that holds none):
 * the interface between the command table and the compiler. An entry lists in `writes` the
 * positions of such parameters; the compiler passes there, for a variable, an OutParameter that
 * reads and assigns it. A command given a plain value there cannot write it: it raises 9415
 * (`outArg`) rather than leave the variable as it was (a loop over `$start+$lengthFound` would
 * never end on a silent 0).
 */
import { raise } from '../errors/fourd-error.js'

const OUT: unique symbol = Symbol.for('@entistore/4d:outParameter') as never

export interface OutParameter {
  readonly [OUT]: true
  /** The variable's value now. */
  get(): unknown
  /** Assigns the variable (as `:=` would, its declared type applied). */
  set(value: unknown): void
}

/** A reference to a variable, for the compiler to pass where `writes` says. */
export const outParameter = (get: () => unknown, set: (value: unknown) => void): OutParameter => ({
  [OUT]: true,
  get,
  set,
})

export const isOutParameter = (v: unknown): v is OutParameter =>
  typeof v === 'object' && v !== null && OUT in v

/** The variable a command writes, given: an OutParameter, or an error naming the parameter. */
export const outArg = (command: string, parameter: string, v: unknown): OutParameter =>
  isOutParameter(v)
    ? v
    : raise('InvalidArgument', {
        parameter,
        command,
        detail: 'it must be a variable, which the command writes',
      })
