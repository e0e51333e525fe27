/**
 * @module From a parsed request to a reply: the REST resources mapped to core calls. No `Request`
 * or `Response` in here (handler.ts owns HTTP); a reply is a status and a JSON body.
 */
import {
  fail,
  isPublic,
  type DataClass,
  type Datastore,
  type Entity,
  type Session,
} from '@entistore/core'
import {
  catalogEnvelope,
  detailedDataClass,
  exposedDataClasses,
  shortDataClass,
} from './serialize/catalog.js'
import type { EntityWriter, JsonObject } from './serialize/entity.js'
import { selectionArray, selectionEnvelope } from './serialize/selection.js'
import type { Uris } from './serialize/uris.js'
import type { RestParams } from './url/params.js'
import type { RestTarget } from './url/parse-rest-url.js'

export interface RouteContext {
  readonly ds: Datastore
  readonly uris: Uris
  readonly writer: EntityWriter
  readonly session: Session
  readonly method: string
  readonly target: RestTarget
  readonly params: RestParams
}

export interface Reply {
  readonly status: number
  readonly body: JsonObject | JsonObject[]
}

const ok = (body: JsonObject | JsonObject[]): Reply => ({ status: 200, body })

export function route(ctx: RouteContext): Reply {
  const { target } = ctx
  if (ctx.method !== 'GET') fail('NotImplemented', [`${ctx.method} requests (writes)`])
  switch (target.kind) {
    case 'catalog': {
      const list = exposedDataClasses(ctx.ds.schema)
      const items =
        target.which === 'short'
          ? list.map((dc) => shortDataClass(dc, ctx.uris))
          : list.map((dc) => detailedDataClass(dc, ctx.uris))
      return ok(catalogEnvelope(ctx.ds.schema, ctx.session.id, items))
    }
    case 'catalogDataClass': {
      const dc = exposedDataClass(ctx.ds, target.name)
      return ok(
        catalogEnvelope(ctx.ds.schema, ctx.session.id, [detailedDataClass(dc.def, ctx.uris)]),
      )
    }
    case 'dataClass':
      return readDataClass(ctx, target)
  }
}

/** The dataclass if it exists and is exposed; 1800 otherwise (a hidden dataclass does not exist for REST). */
function exposedDataClass(ds: Datastore, name: string): DataClass {
  const dc = ds.findDataClass(name)
  if (!dc || !isPublic(dc.def)) return fail('DataClassNotFound', [name])
  return dc
}

function readDataClass(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
): Reply {
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  if (target.entitySet !== undefined) return fail('EntitySetNotFound', [target.entitySet])
  if (target.attributes !== undefined)
    fail('NotImplemented', ['Selecting attributes in the path (/rest/Class/attr1,attr2)'])
  if (target.key !== undefined) return ok(ctx.writer.single(dc.getOrFail(target.key)))
  if (target.lookup !== undefined) return ok(ctx.writer.single(lookupEntity(dc, target.lookup)))
  const selection = dc.all()
  const window = { skip: ctx.params.skip, top: ctx.params.top ?? dc.def.defaultTopSize }
  return ok(
    ctx.params.asArray
      ? selectionArray(selection, window, ctx.writer)
      : selectionEnvelope(selection, window, ctx.writer),
  )
}

/**
 * `Employee:lastName(Jones)`: the entity whose attribute equals the value. 4D documents it for
 * unique attributes; when several match, the first in key order is returned.
 */
function lookupEntity(
  dc: DataClass,
  lookup: { readonly attribute: string; readonly value: string },
): Entity {
  const attr = dc.attribute(lookup.attribute)
  if (attr.kind !== 'storage' || !isPublic(attr))
    return fail('AttributeNotFound', [lookup.attribute, dc.name])
  const wanted = dc.coerce(attr, lookup.value)
  for (const e of dc.all()) if (e && e.record.values[attr.name] === wanted) return e
  return fail('EntityNotFound', [`${lookup.attribute}(${lookup.value})`, dc.name])
}
