/**
 * @module The quick lane of the commonest request, a read of one entity by its key
 * (`GET /rest/Employee(3)`, no query string), for a datastore where nothing is checked (no roles
 * file, no `authorize`, no `restrict`, no forced login): the row is found and its kept text sent
 * (entity-texts.ts), or its text written from its load's columns (column-writer.ts) or from its
 * entity, without the machinery a query needs — its time budget, its slices, a
 * 4D process for code it might run, the route's context. Only the answer that is an entity takes
 * this lane: anything else (no such dataclass or entity, a key of the wrong type, an index still
 * being built, a computed attribute to run) returns undefined, and the general path answers the
 * request from the start, so every error reply is the general path's own. A property test holds
 * the two lanes to the same replies (read-by-key.prop.test.ts).
 */
import {
  isPublic,
  loadedColumnsOf,
  rowIdOf,
  type DataClass,
  type Datastore,
  type Entity,
} from '@entistore/core'
import { shapeOfClass } from '../serialize/entity-shape.js'
import type { EntityTexts } from '../serialize/entity-texts.js'
import type { EntityWriter } from '../serialize/entity.js'
import { readByKey } from '../url/parse-rest-url.js'

/** The body of the entity `path` names, or undefined when the general path must answer. */
export type ReadByKey = (path: string) => string | undefined

export function readByKeyLane(
  ds: Datastore,
  basePath: string,
  writer: EntityWriter,
  texts: EntityTexts | undefined,
  maxReplyBytes: number,
): ReadByKey {
  const columns = writer.columns
  return (path) => {
    if (!path.startsWith(basePath)) return undefined
    const target = readByKey(path, basePath)
    if (target === undefined) return undefined
    const dc = ds.findDataClass(target.dataClass)
    if (dc === undefined || !isPublic(dc.def)) return undefined
    let body: string | undefined
    try {
      // A key index still being built, or a key the attribute's type refuses: the general path
      // waits for the one and answers the other.
      body = ds.withoutUnbuiltIndexes(() => {
        const rowId = rowIdOf(dc, target.key)
        // A transaction open somewhere: `get` reads as the calling process does.
        if (rowId === undefined) return fromEntity(dc.get(target.key))
        // No such entity: the general path's 404.
        if (rowId < 0) return undefined
        return fromColumns(dc, rowId) ?? fromEntity(dc.entityAt(rowId))
      })
    } catch {
      return undefined
    }
    // A reply that might be past the limit (three bytes a character at most) is the general
    // path's to refuse.
    return body !== undefined && body.length <= maxReplyBytes / 3 ? body : undefined
  }

  /** Row `rowId` of `dc` written from its load's columns (its kept text first), or undefined. */
  function fromColumns(dc: DataClass, rowId: number): string | undefined {
    const loaded = columns === undefined ? undefined : loadedColumnsOf(dc, rowId)
    if (loaded === undefined) return undefined
    const render = (): string | undefined =>
      columns!.text(dc, shapeOfClass(dc).singleOpen, loaded, rowId)
    return texts === undefined
      ? render()
      : texts.textOf(dc.def, rowId, loaded.stamp(rowId), loaded.timestamp(rowId), render)
  }

  function fromEntity(entity: Entity | null): string | undefined {
    if (entity === null || writer.viewOf(entity) !== '') return undefined
    return texts === undefined
      ? writer.single(entity)
      : texts.text(entity, () => writer.single(entity))
  }
}
