/**
 * @module `withoutOrda`: the ORDA bridge (src/orda/bridge.ts's interface) of code run with no
 * datastore — JSON values in, plain values out, no `ds` (code that reads it fails with 4D's error
 * for a member of Undefined). A call of a project function made outside any datastore's call
 * (a test, a tool) runs with it.
 */
import type { OrdaBridge } from '../orda/bridge.js'
import { BuiltinClassStore } from '../runtime/context/class-store.js'
import { fromJSON, stringify } from '../runtime/convert/json.js'

const isJsonObject = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return Array.isArray(v) || proto === Object.prototype || proto === null
}

// A 4D value as JSON writes it (a Date `YYYY-MM-DD`, a collection an array).
const plain = (value: unknown): unknown =>
  value === undefined ? undefined : (JSON.parse(stringify(value)) as unknown)

/** The bridge of code that uses no ORDA object (see the module note). */
export const withoutOrda: OrdaBridge = {
  ds: undefined,
  toFourD: (value) => (isJsonObject(value) ? fromJSON(value) : value),
  fromFourD: plain,
  resultOf: plain,
  builtinSuperclass: () => null,
  fourD: new BuiltinClassStore(),
  session: () => null,
}
