/**
 * @module The ORDA bridge (docs/4d-language.md, "ORDA"): what the project loader gives 4D code
 * running on a datastore of core — `ds`, the session, the ORDA classes its classes extend, and the
 * conversions of values both ways. Every read and write of 4D code goes through core's own API,
 * so the view of the caller (its privileges, `restrict`) decides, as for TypeScript and REST.
 */
import { actingNow, currentCall, currentSession, type Datastore } from '@entistore/core'
import { BuiltinClassStore } from '../runtime/context/class-store.js'
import { FOUR_D_NAMES } from './builtin-classes.js'
import { OrdaWorld } from './world.js'

export interface OrdaBridge {
  /** 4D's `ds` for code running on the datastore (`rt.ds`). */
  readonly ds: unknown
  /**
   * A value of core as 4D code sees it: an Entity, an EntitySelection, a DataClass, the Datastore
   * (with 4D's member names), a date as core stores it as a 4D Date when `type` is a Date's, an
   * array as a 4D Collection, a plain object as a 4D object.
   */
  toFourD(value: unknown, type?: string): unknown
  /** A 4D value as core takes it (a core call's arguments: an entity as its stored version). */
  fromFourD(value: unknown): unknown
  /** A function's result as the REST interface answers it: an entity changed and not saved as its draft. */
  resultOf(value: unknown): unknown
  /**
   * The superclass a 4D class file extends when it names an ORDA class (`DataClass`, `Entity`,
   * `EntitySelection`, `DataStoreImplementation`): what `ClassStore({ builtinSuperclass })` takes.
   */
  builtinSuperclass(path: readonly string[]): unknown
  /**
   * The class store `4D` of code on the datastore: the built-in classes, and the ORDA classes its
   * objects are instances of (`4D.Entity`, `4D.EntitySelection`, `4D.DataClass`,
   * `4D.DataStoreImplementation`, also `4D.DataStore`), the parents of the project's classes.
   */
  readonly fourD: BuiltinClassStore
  /** 4D's `Session` for code running as a session of core (`rt.session`), null outside one. */
  session(): unknown
}

// One bridge a datastore: `ds.Employee` is the same object for every runtime made on it.
const bridges = new WeakMap<Datastore, OrdaBridge>()

export function ordaBridge(datastore: Datastore): OrdaBridge {
  let bridge = bridges.get(datastore)
  if (bridge !== undefined) return bridge
  const world = new OrdaWorld(datastore)
  const fourD = new BuiltinClassStore()
  for (const [name, kind] of Object.entries(FOUR_D_NAMES)) fourD.register(name, world.builtin(kind))
  bridge = {
    ds: world.ds,
    toFourD: (value, type) => world.toFourD(value, type),
    fromFourD: (value) => world.fromFourD(value),
    resultOf: (value) => world.fromFourD(value, true),
    builtinSuperclass: (path) => world.builtinFor(path),
    fourD,
    session() {
      const session = currentSession()
      // Keyed by core's session, the same from one request of a session to the next, and within
      // one request whether the code runs in its function call or before it (a restrict or a
      // getter core runs as the request's actor): what 4D keeps by it (its session singletons)
      // is the session's.
      if (session === null) return null
      return world.session(session, currentCall()?.session ?? actingNow()?.session ?? session)
    },
  }
  bridges.set(datastore, bridge)
  return bridge
}
