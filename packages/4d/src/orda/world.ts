/**
 * @module One datastore as 4D code sees it: its `ds`, one object a dataclass and a session, the
 * ORDA classes its project's classes extend, and the conversions of values (convert.ts) the
 * bridge's objects share. It makes those objects and hands itself to them as the World they know
 * it by (world-shape.ts), so that none of them imports this file.
 */
import type { AttributeDef, DataClass, Datastore, WebSession } from '@entistore/core'
import type { ClassObject } from '../runtime/context/class-object.js'
import { builtinClasses, ORDA_KINDS } from './builtin-classes.js'
import {
  attributeToFourD,
  fromFourD,
  projectionToFourD,
  recordToFourD,
  toFourD,
} from './convert.js'
import { DataClassHandle } from './handles/data-class-handle.js'
import { DatastoreHandle } from './handles/datastore-handle.js'
import type { OrdaKind } from './orda-kind.js'
import { SessionHandle } from './session-handle.js'
import type { World } from './world-shape.js'

export class OrdaWorld implements World {
  readonly ds: DatastoreHandle
  readonly #dataClasses = new Map<DataClass, DataClassHandle>()
  readonly #sessions = new WeakMap<object, SessionHandle>()
  readonly #builtins: Record<OrdaKind, ClassObject>
  // The root of each project class's chain, once found.
  readonly #roots = new WeakMap<ClassObject, ClassObject>()

  constructor(readonly datastore: Datastore) {
    this.ds = new DatastoreHandle(this)
    this.#builtins = builtinClasses()
  }

  dataClass(dc: DataClass): DataClassHandle {
    let handle = this.#dataClasses.get(dc)
    if (handle === undefined) this.#dataClasses.set(dc, (handle = new DataClassHandle(this, dc)))
    return handle
  }

  /**
   * 4D's `Session` for the call now running as `session`: one object a session of core (`key`), so
   * that what 4D keeps by it (its session singletons) lasts from call to call; it answers through
   * this call's WebSession (core makes one a call).
   */
  session(session: WebSession, key: object = session): SessionHandle {
    let handle = this.#sessions.get(key)
    if (handle === undefined) this.#sessions.set(key, (handle = new SessionHandle(this, session)))
    else handle.session = session
    return handle
  }

  builtin(kind: OrdaKind): ClassObject {
    return this.#builtins[kind]
  }

  /** The ORDA class a `Class extends` path names (`['Entity']`, `['4D', 'Entity']`), or null. */
  builtinFor(path: readonly string[]): ClassObject | null {
    const name =
      path.length === 1 ? path[0] : path.length === 2 && path[0] === '4D' ? path[1] : null
    return ORDA_KINDS.find((k) => k === name) === undefined
      ? null
      : this.#builtins[name as OrdaKind]
  }

  /** Whether the project's class `own` extends `builtin` (its chain ends there). */
  extendsBuiltin(own: ClassObject, builtin: ClassObject): boolean {
    let root = this.#roots.get(own)
    if (root === undefined) {
      for (const c of own.chain()) root = c
      this.#roots.set(own, root!)
    }
    return root === builtin
  }

  toFourD(value: unknown, type?: string): unknown {
    return toFourD(this, value, type)
  }

  fromFourD(value: unknown, pending = false): unknown {
    return fromFourD(value, pending)
  }

  attributeToFourD(attr: AttributeDef, raw: unknown): unknown {
    return attributeToFourD(this, attr, raw)
  }

  projectionToFourD(attr: AttributeDef, raw: unknown): unknown {
    return projectionToFourD(this, attr, raw)
  }

  recordToFourD(dc: DataClass, record: unknown): unknown {
    return recordToFourD(this, dc, record)
  }
}
