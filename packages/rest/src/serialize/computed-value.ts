/**
 * @module A computed attribute's value as a reply writes it. Its code runs as the request's
 * session (core's access/): a getter that reads what the session may not read is refused, and the
 * reply leaves that value out (or writes null where a place must be kept, a Looker row), as it
 * leaves out an attribute the session may not read. A whole read failing for one attribute would
 * make every read of the dataclass fail, and a reply is written in pieces long after its status.
 */
import { DatastoreError, type AttributeDef, type Entity } from '@entistore/core'

/** What `computedValue` gives for a getter the session's rights refuse. */
export const REFUSED: unique symbol = Symbol('refused')

/** `entity`'s value of the calculated or alias attribute `attr`, or REFUSED. */
export function computedValue(entity: Entity, attr: AttributeDef): unknown {
  try {
    return entity.valueOf(attr)
  } catch (error) {
    if (DatastoreError.is(error) && error.category === 'forbidden') return REFUSED
    throw error
  }
}
