/**
 * @module The entity-selection envelope, in the real server's key order:
 * `__DATACLASS, __entityModel, __GlobalStamp, __COUNT, __FIRST, __ENTITIES, __SENT`.
 *
 * Both forms are rendered lazily (see json-chunks.ts) from the page as it was when the reply was
 * made (page.ts): a reply sent slowly still shows the data as it was when the request was answered,
 * whatever is written meanwhile, and holds its row ids, not its entities.
 */
import type { DataClass, Entity, EntitySelection } from '@entistore/core'
import type { EntityWriter, JsonObject } from './entity.js'
import type { EntityTexts } from './entity-texts.js'
import type { Projection } from './projection.js'
import { answersAhead, around } from './getters-ahead.js'
import { JsonChunks } from './json-chunks.js'
import { Page } from './page.js'

export interface Window {
  readonly skip: number
  readonly top: number
}

// A deleted entity still held by a selection (entity sets) is shown as {"__STAMP": 0}.
const DELETED = '{"__STAMP":0}'

/** The page, as it is now. */
function snapshot(selection: EntitySelection, window: Window): Page {
  return new Page(selection, window.skip, window.top)
}

// The page's entities: whose getters' values a reply makes ahead (getters-ahead.ts).
function* pageEntities(page: Page): Generator<Entity | null, void, undefined> {
  for (let i = 0; i < page.length; i++) yield page.at(i)
}

/** A number as JSON.stringify writes it. */
const jsonNumber = (n: number): string => (Number.isFinite(n) ? String(n) : 'null')

/**
 * The envelope's text up to its list of entities: `head`'s members first (`__queryPlan`… come
 * before it on the real server), then the envelope's, as JSON.stringify writes them, written
 * directly: building an object to stringify was a good part of the envelope of a one-row answer.
 */
export function envelopeOpen(
  dc: DataClass,
  count: number,
  skip: number,
  head?: JsonObject,
): string {
  const name = JSON.stringify(dc.name)
  const members = head === undefined ? '' : JSON.stringify(head).slice(1, -1)
  return (
    `{${members === '' ? '' : `${members},`}"__DATACLASS":${name},"__entityModel":${name},` +
    `"__GlobalStamp":${jsonNumber(dc.datastore.globalStamp)},"__COUNT":${count},` +
    `"__FIRST":${jsonNumber(skip)},"__ENTITIES":[`
  )
}

/** The envelope's text after its list of `sent` entities. */
export const envelopeClose = (sent: number): string => `],"__SENT":${sent}}`

/** The envelope, with `head`'s members first (`__queryPlan`… come before it on the real server). */
export function selectionEnvelope(
  selection: EntitySelection,
  window: Window,
  writer: EntityWriter,
  head?: JsonObject,
  projection?: Projection,
): JsonChunks {
  const dc = selection.dataClass
  const page = snapshot(selection, window)
  const nested = projection?.nested === true
  // Every attribute, for a reader who may see them all: a row still in its load's columns is
  // written from them, with no entity made (column-writer.ts).
  const columns = projection === undefined ? writer.columns : undefined
  return new JsonChunks(
    envelopeOpen(dc, selection.length, window.skip, head),
    page.length,
    (i) => {
      const rowId = columns === undefined ? undefined : page.current(i)
      const text = rowId === undefined ? undefined : columns!.memberOf(dc, rowId)
      if (text !== undefined) return text
      const e = page.at(i)
      if (!e) return DELETED
      return nested ? writer.parts('member', e, projection!) : writer.member(e, projection)
    },
    envelopeClose(page.length),
    nested ? writer.expand : undefined,
    () => page.release(),
    around(answersAhead(writer, dc, projection, () => pageEntities(page))),
  )
}

/** The `$asArray=true` form: a bare array, deleted entities left out. */
export function selectionArray(
  selection: EntitySelection,
  window: Window,
  writer: EntityWriter,
  projection?: Projection,
): JsonChunks {
  const dc = selection.dataClass
  const page = snapshot(selection, window)
  const nested = projection?.nested === true
  const columns = projection === undefined ? writer.columns : undefined
  return new JsonChunks(
    '[',
    page.length,
    (i) => {
      const rowId = columns === undefined ? undefined : page.current(i)
      const text = rowId === undefined ? undefined : columns!.plainOf(dc, rowId)
      if (text !== undefined) return text
      const e = page.at(i)
      if (!e) return undefined
      return nested ? writer.parts('plain', e, projection!) : writer.plain(e, projection)
    },
    ']',
    nested ? writer.expand : undefined,
    () => page.release(),
    around(answersAhead(writer, dc, projection, () => pageEntities(page))),
  )
}

/**
 * One entity read alone (`GET /rest/Employee(3)`, a relation followed to one entity): its text,
 * or, when the projection writes relations out, the same text in pieces (json-chunks.ts), measured
 * before it is sent like a selection's.
 */
export function entityReply(
  entity: Entity,
  writer: EntityWriter,
  projection: Projection | undefined,
  texts?: EntityTexts,
): string | JsonChunks {
  // The text kept of this version as this reader sees it (entity-texts.ts), when kept.
  const view = !projection?.nested && texts ? writer.viewOf(entity, projection) : undefined
  if (view !== undefined) return texts!.text(entity, () => writer.single(entity, projection), view)
  const within = around(answersAhead(writer, entity.dataClass, projection, () => [entity]))
  if (!projection?.nested)
    return within === undefined
      ? writer.single(entity, projection)
      : within(() => writer.single(entity, projection))
  const parts = () => writer.parts('single', entity, projection)
  return new JsonChunks('', 1, parts, '', writer.expand, undefined, within)
}
