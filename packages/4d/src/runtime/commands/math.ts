/**
 * @module The Math theme (docs/commands/theme/Math.md; each command's page in
 * docs/commands-legacy/): `Abs`, `Int`, `Dec`, `Round`, `Trunc`, `Mod`, `Random`, `Square root`,
 * `Exp`, `Log`, `Sin`, `Cos`, `Tan`, `Arctan`, `SET REAL COMPARISON LEVEL`.
 *
 * - `Int` rounds down ("truncates a negative number away from zero": `Int(-123.4)` is -124), `Dec`
 *   is the part `Int` leaves, always positive or zero.
 * - `Round(n; places)` rounds a half away from zero (`Round(-1.5;0)` is -2), through the decimal
 *   text of `n` so that 16.857 (stored as 16.856999…) still gives 16.86; `Trunc` goes toward
 *   negative infinity (`Trunc(-216.897;1)` is -216.9). A negative `places` works left of the point.
 * - `Mod` rounds reals to longs first, as `%` does (`Mod(3.5;2)` is 0); its sign is the dividend's.
 * - `Random` is an integer from 0 to 32,767.
 */
import { noteVolatileRead } from '@entistore/core'
import { mod } from '../ops/arithmetic.js'
import { setRealComparisonLevel } from '../values/numbers.js'
import { integerArg, numberArg } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

/** `x` scaled by 10^places exactly as its decimal text says (no binary drift). */
function shifted(x: number, places: number): number {
  const [mantissa, exponent = '0'] = x.toExponential().split('e')
  return Number(`${mantissa}e${Number(exponent) + places}`)
}

export function round(x: number, places: number): number {
  if (!Number.isFinite(x)) return x
  const s = shifted(Math.abs(x), places)
  const r = shifted(Math.floor(s + 0.5), -places)
  return x < 0 && r !== 0 ? -r : r
}

export function trunc(x: number, places: number): number {
  if (!Number.isFinite(x)) return x
  const t = shifted(Math.floor(shifted(x, places)), -places)
  return t === 0 ? 0 : t
}

const unary = (
  number: number,
  name: string,
  fn: (x: number) => number,
  result = 'Real',
): CommandSpec => ({
  number,
  name,
  signature: `(number: Real): ${result}`,
  impl: (_rt, v) => fn(numberArg(name, 'number', v)),
})

export const MATH_COMMANDS: readonly CommandSpec[] = [
  unary(99, 'Abs', Math.abs),
  unary(8, 'Int', Math.floor),
  unary(9, 'Dec', (x) => x - Math.floor(x)),
  unary(539, 'Square root', Math.sqrt),
  unary(21, 'Exp', Math.exp),
  unary(22, 'Log', Math.log),
  unary(17, 'Sin', Math.sin),
  unary(18, 'Cos', Math.cos),
  unary(19, 'Tan', Math.tan),
  unary(20, 'Arctan', Math.atan),
  {
    number: 94,
    name: 'Round',
    signature: '(round: Real; places: Integer): Real',
    impl: (_rt, v, places) =>
      round(numberArg('Round', 'round', v), integerArg('Round', 'places', places)),
  },
  {
    number: 95,
    name: 'Trunc',
    signature: '(number: Real; places: Integer): Real',
    impl: (_rt, v, places) =>
      trunc(numberArg('Trunc', 'number', v), integerArg('Trunc', 'places', places)),
  },
  {
    number: 98,
    name: 'Mod',
    signature: '(number1: Integer; number2: Integer): Real',
    impl: (_rt, a, b) =>
      mod(numberArg('Mod', 'number1', a), numberArg('Mod', 'number2', b)) as number,
  },
  {
    number: 100,
    name: 'Random',
    signature: '(): Integer',
    // A restrict's answer that drew one is not kept (context/outside-state.ts).
    impl: () => {
      noteVolatileRead()
      return Math.floor(Math.random() * 32768)
    },
  },
  {
    number: 623,
    name: 'SET REAL COMPARISON LEVEL',
    signature: '(epsilon: Real)',
    impl: (_rt, v) => setRealComparisonLevel(numberArg('SET REAL COMPARISON LEVEL', 'epsilon', v)),
  },
]
