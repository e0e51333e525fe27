/**
 * @module The Language and Boolean themes (docs/commands/theme/Language.md, Boolean.md) and the
 * error commands: `Not`, `Bool`, `Value type`, `Type`, `Undefined`, `Choose`, `Last errors`,
 * `ASSERT`, `Asserted` (ASSERT that returns True), `SET ASSERT ENABLED`, `Get assert enabled`, `Get call chain` (context/call-chain.ts), and `CLEAR VARIABLE` (the variable's empty
 * value, an array with no element). `Count parameters`, `Current method name` and the `C_`
 * declarations are the compiler's (it knows the answer where the call is written); `This`,
 * `Super`, `cs`, `4D`, `ds`, `True`, `False`, `Null` and `Formula` are the grammar's own nodes;
 * `throw` is a statement.
 *
 * `Value type` gives Is real for every number, as interpreted 4D holds numbers (value-type.md),
 * Is BLOB for a scalar BLOB and Is object for a 4D.Blob (dt_blob.md);
 * `Type` of a value, having no declaration to read here, gives the same as `Value type`.
 * Commands about pointers and the interpreter do not run here.
 */
import { fromJSON } from '../convert/json.js'
import { callChain } from '../context/call-chain.js'
import { toBool } from '../convert/conversions.js'
import { defaultValue, type DeclaredType } from '../convert/assign.js'
import { fourDError, raise } from '../errors/fourd-error.js'
import { cond } from '../ops/logic.js'
import { FourDArray } from '../arrays/four-d-array.js'
import { kindOf, type Kind } from '../values/kinds.js'
import { isPointer } from '../pointers/pointer.js'
import { outArg } from '../arguments/out-parameter.js'
import { integerArg, invalid, isStar, textArg, wrongType } from '../arguments/arguments.js'
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

const VALUE_TYPE: Readonly<Record<Kind, number>> = {
  number: 1,
  text: 2,
  date: 4,
  undefined: 5,
  boolean: 6,
  time: 11,
  object: 38,
  collection: 42,
  blob: 30,
  null: 255,
}

/** `Value type(v)`: a pointer is `Is pointer` (23). */
export const valueType = (v: unknown): number => (isPointer(v) ? 23 : VALUE_TYPE[kindOf(v)])

const EMPTY_OF: Readonly<Partial<Record<Kind, DeclaredType>>> = {
  number: 'Real',
  text: 'Text',
  boolean: 'Boolean',
  date: 'Date',
  time: 'Time',
}

/**
 * Whether assertions are on (set-assert-enabled.md): `SET ASSERT ENABLED(b)` sets them for every
 * process, `SET ASSERT ENABLED(b; *)` for the calling one, which then keeps its own. Kept as an
 * interprocess and a process variable of a name no 4D code can write (it holds spaces); on by
 * default.
 */
const ASSERTS_OFF = 'assertions off'
function assertsOn(rt: CommandContext): boolean {
  const own = rt.pvGet(ASSERTS_OFF)
  return (typeof own === 'boolean' ? own : rt.ipGet(ASSERTS_OFF)) !== true
}

/**
 * `ASSERT`'s test: True, or the error -10518 with the message. `op`, `left`, `right`: the operator
 * and operands of a comparison written as the test (`ASSERT($a=$b)`: the compiler hands them
 * over), kept on the error as its `compared` detail, `[left, op, right]`, for a test runner to
 * show; the array is made only for an assertion that fails.
 */
function assert(
  v: unknown,
  message: unknown,
  left?: unknown,
  op?: unknown,
  right?: unknown,
): boolean {
  if (!cond(v))
    throw fourDError(
      'AssertFailed',
      { assertion: typeof message === 'string' ? message : '' },
      typeof op === 'string' ? { details: { compared: [left, op, right] } } : undefined,
    )
  return true
}

export const LANGUAGE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 34,
    name: 'Not',
    signature: '(value: Boolean): Boolean',
    impl: (_rt, v) => !cond(v),
  },
  {
    number: 1537,
    name: 'Bool',
    signature: '(expression: any): Boolean',
    impl: (_rt, v) => toBool(v),
  },
  {
    number: 1509,
    name: 'Value type',
    signature: '(expression: any): Integer',
    impl: (_rt, v) => valueType(v),
  },
  {
    number: 295,
    name: 'Type',
    signature: '(fieldVar: any): Integer',
    impl: (_rt, v) => valueType(v),
  },
  {
    number: 82,
    name: 'Undefined',
    signature: '(expression: any): Boolean',
    impl: (_rt, v) => v === undefined,
  },
  {
    number: 955,
    name: 'Choose',
    signature: '(criterion: any; value: any; ...values: any): any',
    impl: (_rt, criterion, ...values) => {
      if (typeof criterion === 'boolean') {
        if (values.length !== 2)
          return invalid('Choose', 'value', 'a Boolean criterion takes two values')
        return criterion ? values[0] : values[1]
      }
      if (typeof criterion !== 'number')
        return wrongType('Choose', 'criterion', 'Boolean or Integer', criterion)
      const i = integerArg('Choose', 'criterion', criterion)
      if (i >= 0 && i < values.length) return values[i]
      // No value at that position: the empty value of the values' type.
      const type = EMPTY_OF[kindOf(values[0])]
      return type === undefined ? null : defaultValue(type)
    },
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
    // Called only with the assertions on: off, the compiler's code evaluates nothing of it
    // (emit/expressions.ts asks `Get assert enabled` first, as set-assert-enabled.md says).
    impl: (_rt, v, message, left, op, right) => {
      assert(v, message, left, op, right)
    },
  },
  {
    // asserted.md: ASSERT that returns the expression's value; with the assertions on (SET
    // ASSERT ENABLED), a False raises -10518 as ASSERT does.
    number: 1132,
    name: 'Asserted',
    signature: '(expression: Boolean; message?: Text): Boolean',
    // Off, it gives the expression's value and raises nothing (asserted.md).
    impl: (rt, v, message, left, op, right) =>
      assertsOn(rt) ? assert(v, message, left, op, right) : cond(v),
  },
  {
    number: 1130,
    name: 'Get assert enabled',
    signature: '(): Boolean',
    impl: (rt) => assertsOn(rt),
  },
  {
    // set-assert-enabled.md: every process without `*` (the calling one's own choice dropped),
    // the calling process alone with it.
    number: 1131,
    name: 'SET ASSERT ENABLED',
    signature: '(assertions: Boolean; star?: any)',
    impl: (rt, on, star) => {
      if (!isStar(star)) {
        rt.ipSet(ASSERTS_OFF, !toBool(on))
        rt.pvSet(ASSERTS_OFF, undefined)
      } else rt.pvSet(ASSERTS_OFF, !toBool(on))
    },
  },
  {
    number: 89,
    name: 'CLEAR VARIABLE',
    signature: '(variable: any)',
    writes: [0],
    impl: (_rt, variable) => {
      const out = outArg('CLEAR VARIABLE', 'variable', variable)
      const v = out.get()
      // An array keeps its type with no element; another variable its type's empty value.
      if (v instanceof FourDArray) v.resize(0)
      else out.set(undefined)
    },
  },
  {
    number: 155,
    name: 'ON ERR CALL',
    signature: '(errorMethod: Text; scope?: Integer)',
    impl: (rt, method) => {
      rt.errorMethod = textArg('ON ERR CALL', 'errorMethod', method)
      if (rt.pvGet('Error') === undefined) rt.pvSet('Error', 0)
    },
  },
  {
    number: 704,
    name: 'Method called on error',
    signature: '(scope?: Integer): Text',
    impl: (rt) => rt.errorMethod,
  },
  { number: 308, name: 'Self', notRunnable: 'pointers' },
  // No debugger opens here: TRACE is ignored, as a compiled 4D application ignores it.
  { number: 157, name: 'TRACE', signature: '()', impl: () => undefined },
  {
    number: 1662,
    name: 'Get call chain',
    signature: '(): Collection',
    impl: (rt) => fromJSON(callChain(rt.calls)),
  },
]
