/**
 * @module What the bridge's objects (the handles, their members, the conversions of values) ask of
 * the world they belong to, as an interface that world.ts's OrdaWorld implements: they are made
 * by the world and hand values back to it, so they know it by this shape alone and the world
 * imports them, not they it (the imports of orda/ go one way).
 */
import type { AttributeDef, DataClass, Datastore, WebSession } from '@entistore/core'
import type { ClassObject } from '../runtime/context/class-object.js'
import type { MemberHost } from '../runtime/values/host.js'
import type { OrdaKind } from './orda-kind.js'

export interface World {
  /** The datastore of core behind it. */
  readonly datastore: Datastore
  /** 4D's `ds`. */
  readonly ds: MemberHost
  /** The one object of 4D code for the dataclass `dc` (`ds.Employee`). */
  dataClass(dc: DataClass): MemberHost
  /** 4D's `Session` for the call now running as `session`, one object a `key`. */
  session(session: WebSession, key?: object): MemberHost
  /** The ORDA class of `kind`. */
  builtin(kind: OrdaKind): ClassObject
  /** Whether the project's class `own` extends `builtin` (its chain ends there). */
  extendsBuiltin(own: ClassObject, builtin: ClassObject): boolean
  /** A value of core as 4D code sees it (convert.ts). */
  toFourD(value: unknown, type?: string): unknown
  /** A 4D value as core takes it (convert.ts). */
  fromFourD(value: unknown, pending?: boolean): unknown
  /** The value core reads for the attribute `attr`, as 4D code sees it. */
  attributeToFourD(attr: AttributeDef, raw: unknown): unknown
  /** A selection's projection through `attr` (`$sel.attr`), as 4D code sees it. */
  projectionToFourD(attr: AttributeDef, raw: unknown): unknown
  /** An object of core's `toObject`/`toCollection` of dataclass `dc`, as 4D code sees it. */
  recordToFourD(dc: DataClass, record: unknown): unknown
}
