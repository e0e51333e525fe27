/**
 * @module Code compiled for a fixed list of field names: a values object's literal
 * (store/values-shape.ts), or the comparison of two values objects field by field
 * (`fieldsDiffer`). A loop over the names reads `values[name]` with a name that changes each turn,
 * a keyed load V8 cannot specialize (megamorphic); the compiled code reads `v.name` for each name,
 * one fast load each. The names are quoted by JSON.stringify: nothing else reaches the code. Where
 * code generation is refused (a strict Content-Security-Policy, some edge runtimes), the caller
 * gets undefined and loops instead.
 */

// Attribute names are checked by the model loader (letters, digits, _; `__…` only for 4D's change
// tracking), but a schema can be built by hand: a name that a literal would treat specially
// (`"__proto__": v` sets the prototype) is never compiled.
const PLAIN_NAME = /^(?!__proto__$)[\p{L}\p{N}_$]+$/u

/** Whether every one of `names` may be written in compiled code. */
export const plainNames = (names: readonly string[]): boolean =>
  names.every((n) => PLAIN_NAME.test(n))

/**
 * `new Function(...params, body)`, or undefined where a name is not plain or code generation is
 * refused. `body` gets the names quoted (JSON.stringify), in order.
 */
export function compiledFields<F>(
  names: readonly string[],
  params: readonly string[],
  body: (quoted: readonly string[]) => string,
): F | undefined {
  if (!plainNames(names)) return undefined
  try {
    return new Function(...params, body(names.map((n) => JSON.stringify(n)))) as F
  } catch {
    return undefined
  }
}

/** Which fields of two values objects differ (`!==`): bit i for `names[i]`, 0 for none. */
export type FieldsDiffer = (
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
) => number

// A bit a name: at most 31 names in the number a differ returns.
const MOST_FIELDS = 31

/**
 * The differ of `names` (at most 31), compiled; undefined when it cannot be (more names, a name
 * that is not plain, code generation refused): the caller compares in a loop.
 */
export function fieldsDiffer(names: readonly string[]): FieldsDiffer | undefined {
  if (names.length > MOST_FIELDS) return undefined
  return compiledFields<FieldsDiffer>(
    names,
    ['a', 'b'],
    (quoted) =>
      `return ${quoted.map((q, i) => `(a[${q}] !== b[${q}] ? ${2 ** i} : 0)`).join(' | ') || '0'}`,
  )
}
