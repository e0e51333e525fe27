/**
 * @module What the project's functions need of the ORDA layer (src/orda/, its `ordaBridge`), as
 * the interface of the two agree: the `ds` 4D code sees, core's objects as 4D values and back, the
 * ORDA classes a class file extends, and 4D's `Session`. Declared here so that this folder
 * depends on the shape, not on the folder; the ORDA layer's bridge has it.
 *
 * `withoutOrda` is the bridge of code that touches no ORDA object: JSON values in, plain values
 * out, no `ds` (a function that reads it fails with 4D's error for a member of Undefined). The
 * functions run with it until they are given the ORDA layer's.
 */
import { stringify } from '../runtime/convert/json.js'
import { fromJSON } from '../runtime/convert/json.js'

export interface OrdaBridge {
  /** 4D's `ds` for code running on the datastore. */
  readonly ds: unknown
  /** A value of core (a function's parameter, `This`) as 4D code sees it; `type` the declared one. */
  toFourD(value: unknown, type?: string): unknown
  /** A 4D value as core and the REST interface take it (a function's result). */
  fromFourD(value: unknown): unknown
  /** The superclass a class file extends when it names an ORDA class (`DataClass`, `Entity`…). */
  builtinSuperclass(path: readonly string[]): unknown
  /** 4D's `Session` for code running as a session, null outside one. */
  session(): unknown
}

const isJsonObject = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return Array.isArray(v) || proto === Object.prototype || proto === null
}

/** The bridge of code that uses no ORDA object (see the module note). */
export const withoutOrda: OrdaBridge = {
  ds: undefined,
  toFourD: (value) => (isJsonObject(value) ? fromJSON(value) : value),
  // A 4D value as JSON writes it (a Date `YYYY-MM-DD`, a collection an array).
  fromFourD: (value) =>
    value === undefined ? undefined : (JSON.parse(stringify(value)) as unknown),
  builtinSuperclass: () => null,
  session: () => null,
}
