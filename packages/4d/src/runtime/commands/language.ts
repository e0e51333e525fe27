/**
 * @module Commands of the language itself: `Not`, `Value type`, `Last errors`, `ASSERT`. (`Count
 * parameters`, `Current method name` and the `C_` declarations are the compiler's: it knows the
 * answer where the call is written.)
 */
import { raise } from '../errors/fourd-error.js'
import { cond } from '../ops/logic.js'
import { kindOf, type Kind } from '../values/kinds.js'
import type { CommandSpec } from './table.js'

const VALUE_TYPE: Readonly<Record<Kind, number>> = {
  // Interpreted 4D holds every number as a Real (value-type.md).
  number: 1,
  text: 2,
  date: 4,
  undefined: 5,
  boolean: 6,
  time: 11,
  object: 38,
  collection: 42,
  null: 255,
}

export const LANGUAGE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 34,
    name: 'Not',
    signature: '(value: Boolean): Boolean',
    impl: (_rt, v) => !cond(v),
  },
  {
    number: 1509,
    name: 'Value type',
    signature: '(expression: any): Integer',
    impl: (_rt, v) => VALUE_TYPE[kindOf(v)],
  },
  {
    number: 1799,
    name: 'Last errors',
    signature: '(): Collection',
    impl: (rt) => rt.lastErrorObjects(),
  },
  {
    number: 1129,
    name: 'ASSERT',
    signature: '(expression: Boolean; message?: Text)',
    impl: (_rt, v, message) => {
      if (!cond(v)) raise('AssertFailed', { assertion: typeof message === 'string' ? message : '' })
    },
  },
  { number: 155, name: 'ON ERR CALL', notRunnable: 'not yet' },
  { number: 41, name: 'ALERT', notRunnable: 'UI' },
  { number: 162, name: 'CONFIRM', notRunnable: 'UI' },
]
