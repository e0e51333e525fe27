/**
 * @module The values object of a record: every storage attribute of the dataclass as an own field,
 * in storage order, so that all records of a dataclass share one hidden class and reads stay fast.
 *
 * How the object is made decides its size. An object literal gets exactly as many in-object fields
 * as it has properties (80 bytes for seven attributes); an empty object filled by assignment keeps
 * four in-object fields and moves the rest to a separate property array (+40 bytes a row, and a
 * slower build). A literal needs code made for the dataclass, so the factory is compiled with
 * `new Function` from the attribute names (quoted by JSON.stringify: nothing else reaches the
 * code: values/compiled-fields.ts). Where code generation is refused (a strict Content-Security-Policy, some edge runtimes)
 * the factory assigns instead: same values, larger objects.
 */
import type { StoredValue } from '../values/coerce.js'
import { compiledFields, plainNames } from '../values/compiled-fields.js'
import type { StoredValues } from './entity-record.js'

/** Builds the frozen values object of a record from the values in storage order. */
export type ValuesFactory = (values: readonly StoredValue[]) => StoredValues

/** The values factory of a dataclass whose storage attributes are `names`, in storage order. */
export function valuesFactory(names: readonly string[]): ValuesFactory {
  const compiled = compiledFields<ValuesFactory>(
    names,
    ['v'],
    (quoted) => `return Object.freeze({ ${quoted.map((q, i) => `${q}: v[${i}]`).join(', ')} })`,
  )
  if (compiled) return compiled
  // Code generation refused, or a name a literal would treat specially: assignment.
  const plain = plainNames(names)
  return (values) => {
    const out: Record<string, StoredValue> = {}
    for (let i = 0; i < names.length; i++) {
      if (plain) out[names[i]!] = values[i]!
      // defineProperty: a name such as `__proto__` stays a plain field.
      else
        Object.defineProperty(out, names[i]!, {
          value: values[i],
          enumerable: true,
          writable: true,
          configurable: true,
        })
    }
    return Object.freeze(out)
  }
}

/** A copy of a record's values object, not frozen, for a write to change before it freezes it. */
export type ValuesCopier = (values: StoredValues) => Record<string, StoredValue>

/**
 * The values copier of a dataclass whose storage attributes are `names`, in storage order. Compiled
 * as `valuesFactory` is, its copy is the same literal: once frozen, it has the hidden class of the
 * records the factory makes, so that updated and loaded records read alike. A spread (`{ ...v }`)
 * made objects of another hidden class, and took 3× as long (≈90 ns against 30 for six fields and
 * the freeze, measured alone).
 */
export function valuesCopier(names: readonly string[]): ValuesCopier {
  return (
    compiledFields<ValuesCopier>(
      names,
      ['v'],
      (quoted) => `return { ${quoted.map((q) => `${q}: v[${q}]`).join(', ')} }`,
    ) ?? ((values) => ({ ...values }))
  )
}
