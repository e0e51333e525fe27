/**
 * @module What compiled 4D code calls: the runtime's values, operators, conversions and errors,
 * one name each. The compiler emits `rt.add(a, b)` for `a+b` and so on (`import * as rt`); nothing
 * here depends on the compiler or the grammar. The rules, and the choices where 4D's docs are
 * silent, are in docs/4d-language.md ("Values and operators") and docs/compat.md.
 */

// ---- Values ----
/** 4D's Date: `DateValue.of(2018, 1, 21)` for `!2018-01-21!`, `DateValue.NULL` for `!00-00-00!`. */
export { DateValue } from './values/date-value.js'
/** 4D's Time: `TimeValue.hms(9, 30, 0)` for `?09:30:00?`, `.seconds`. */
export { TimeValue } from './values/time-value.js'
/** 4D's Collection, by reference: `.items`, `.length`, `.at(i)`. */
export { Collection } from './values/collection.js'
/** `newObject()`: `{}` / `New object`, no prototype. `kindOf`, `typeName`: a value's 4D type. */
export { isPlainObject, kindOf, newObject, typeName, type Kind } from './values/kinds.js'
/** How host objects (entities, class instances) show members to 4D code and write JSON. */
export { GET_MEMBER, SET_MEMBER, TO_JSON, type JsonHost, type MemberHost } from './values/host.js'
/** `toInteger(x)`: a number as a 4D Integer (rounded half to even, 32 bits). */
export {
  numbersEqual,
  realComparisonLevel,
  roundHalfEven,
  setRealComparisonLevel,
  toInteger,
} from './values/numbers.js'
/** Text comparison with case and accents ignored, `@` wildcards, `%` keywords. */
export { compareTexts, containsKeyword, textEquals } from './values/text-compare.js'

// ---- Calls ----
/** `enterCall()` before a formula's body runs, `leaveCall()` after: the bound of call depth. */
export { enterCall, leaveCall } from './ops/call-depth.js'

// ---- Operators ----
/** `+ - * / \ % ^` and unary `-`, each type pair as 4D's tables say. */
export { add, div, idiv, incompatible, mod, mul, neg, pow, sub } from './ops/arithmetic.js'
/** `= # < > <= >=`. */
export { eq, ge, gt, le, lt, ne } from './ops/compare.js'
/**
 * `truthy(v)` for `&&`, `||` and `? :` (the compiler keeps them short-circuit and returns the
 * operand); `cond(v)` for `If`/`Case of`/`While`/`Until`; `&` `|` `^|` `<<` `>>` `?+` `?-` `??`.
 */
export { band, bitClear, bitSet, bitTest, bor, bxor, cond, shl, shr, truthy } from './ops/logic.js'
/** `obj.name`, `obj[expr]`, `col[i]` read (`get`) and assigned (`set`); `stored(v)` as held. */
export { get, set, stored } from './ops/members.js'
/** `obj.name` read at a place that keeps the reader its last host gave (`getAt(site, obj, n)`). */
export { getAt, getInto, type Site } from './ops/member-sites.js'
/** `$a{i}` read (`elem`) and assigned (`setElem`), on 4D's arrays. */
export { elem, setElem } from './arrays/four-d-array.js'
/** `$p->` read (`deref`) and assigned (`derefSet`); `->$a{i}` (`elementPointer`). */
export { deref, derefSet, elementPointer, isPointer, pointer, Pointer } from './pointers/pointer.js'
/** `{a: 1; b: 2}` → `objectOf("a", 1, "b", 2)`; `[1; 2]` → `collectionOf(1, 2)`. */
export { collectionOf, objectOf } from './ops/literals.js'
/** `outParameter(get, set)`: a variable passed where a command writes it (`Position`'s lengthFound). */
export { outParameter, type OutParameter } from './arguments/out-parameter.js'

// ---- Conversions ----
/** `String`, `Num`, `Bool`, `Date`, `Time` without a format. */
export { toBool, toDate, toNum, toText, toTime } from './convert/conversions.js'
/** Typed variables: `defaultValue('Integer')`, `asInteger(v)` on assignment, `assignTo(type, v)`. */
export {
  asBoolean,
  asCollection,
  asDate,
  asInteger,
  asObject,
  asReal,
  asText,
  asTime,
  asBlob,
  assignTo,
  defaultValue,
  EMPTY_BLOB,
  type DeclaredType,
} from './convert/assign.js'
/** `JSON Stringify` (`stringify(v, pretty)`), and JSON values made 4D ones (`fromJSON`). */
export { fromJSON, stringify } from './convert/json.js'

// ---- Errors ----
/** The one table of the runtime's errors, and 4D's error object. */
export { ERRORS, fillPlaceholders, type ErrorName, type ErrorSpec } from './errors/error-codes.js'
/** `raise('DivisionByZero', {...})` throws; `fourDError(...)` builds; `.at(method, line)` places. */
export { FourDError, fourDError, raise, type FourDErrorOptions } from './errors/fourd-error.js'
/** 4D's `throw(code; description)` and `throw(errorObj)`. */
export { thrownCode, thrownObject, type ThrowContext } from './errors/throw.js'
