/**
 * @module 4D's numbers (docs/Concepts/dt_number.md): Integer and Real are both JavaScript numbers,
 * the declared type known to the compiler. An Integer is a 32-bit long; a Real becomes one by
 * rounding to the nearest, halves to even (`Mod(3.5;2)` is 0 because 3.5 rounds to 4, and
 * `10.5 % 2` is 0 because 10.5 rounds to 10: the processor's own conversion, which 4D's examples
 * fit and plain rounding does not), then keeping the low 32 bits. Reals compare for equality
 * within an epsilon (`SET REAL COMPARISON LEVEL`, 10^-6 by default).
 */

/** `x` rounded to the nearest integer, a half to the even neighbour (2.5 → 2, 3.5 → 4, -2.5 → -2). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x)
  // Math.round sends halves up (-2.5 → -2, 2.5 → 3); a half goes to the even one of its two.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r
}

/**
 * A number as a 4D Integer (a 32-bit long): rounded half to even, then its low 32 bits, as
 * JavaScript's ToInt32 keeps them (2^31 becomes -2^31). Not a number or infinite gives 0.
 * What the compiled code applies when it assigns to a variable declared Integer.
 */
export function toInteger(x: number): number {
  return roundHalfEven(x) | 0
}

let epsilon = 1e-6

/** The epsilon of real equality (`SET REAL COMPARISON LEVEL`); 10^-6 by default. */
export const realComparisonLevel = (): number => epsilon

/** Sets it, as `SET REAL COMPARISON LEVEL` does for the whole application. */
export function setRealComparisonLevel(value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`bad epsilon ${value}`)
  epsilon = value
}

/** 4D's `=` on numbers: equal when they differ by no more than the epsilon. */
export const numbersEqual = (a: number, b: number): boolean => a === b || Math.abs(a - b) <= epsilon

/** The order of two numbers, equal ones (within the epsilon) 0. */
export const compareNumbers = (a: number, b: number): number =>
  numbersEqual(a, b) ? 0 : a < b ? -1 : a > b ? 1 : 0
