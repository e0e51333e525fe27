/**
 * @module The entity-selection envelope, in the real server's key order:
 * `__DATACLASS, __entityModel, __GlobalStamp, __COUNT, __FIRST, __ENTITIES, __SENT`.
 */
import type { EntitySelection } from '@entistore/core'
import type { EntityWriter, JsonObject } from './entity.js'

export interface Window {
  readonly skip: number
  readonly top: number
}

export function selectionEnvelope(
  selection: EntitySelection,
  window: Window,
  writer: EntityWriter,
): JsonObject {
  const dc = selection.dataClass
  const page = selection.slice(window.skip, window.top)
  const entities: JsonObject[] = []
  // A deleted entity still held by a selection (entity sets) is shown as {"__STAMP": 0}.
  for (const e of page) entities.push(e ? writer.member(e) : { __STAMP: 0 })
  return {
    __DATACLASS: dc.name,
    __entityModel: dc.name,
    __GlobalStamp: dc.datastore.globalStamp,
    __COUNT: selection.length,
    __FIRST: window.skip,
    __ENTITIES: entities,
    __SENT: entities.length,
  }
}

/** The `$asArray=true` form: a bare array, deleted entities left out. */
export function selectionArray(
  selection: EntitySelection,
  window: Window,
  writer: EntityWriter,
): JsonObject[] {
  const out: JsonObject[] = []
  for (const e of selection.slice(window.skip, window.top)) if (e) out.push(writer.plain(e))
  return out
}
