/**
 * @module `GET /rest/$catalog`, `$catalog/$all` and `$catalog/{dataClass}`: the description of the
 * exposed dataclasses, limited to what the session may describe, and of the exposed functions
 * (the datastore's and singletons' in the envelope, each dataclass's in its object).
 */
import type { AttributeDef, DataClassDef } from '@entistore/core'
import {
  catalogEnvelope,
  detailedDataClass,
  exposedDataClasses,
  shortDataClass,
} from '../serialize/catalog.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import { ok, type Reply } from '../reply.js'
import { exposedDataClass, type RouteContext } from './context.js'

/** `$catalog` (each dataclass's name and URIs) or `$catalog/$all` (with their attributes). */
export function catalog(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'catalog' }>,
): Reply {
  const perms = ctx.perms
  // Only what the session may describe: the dataclasses, their attributes.
  const list = exposedDataClasses(ctx.ds.schema).filter(
    (dc) => !perms || perms.may('describe', dc.name),
  )
  const shows = perms && ((dc: DataClassDef, a: AttributeDef) => perms.mayDescribe(dc, a))
  const items =
    target.which === 'short'
      ? list.map((dc) => shortDataClass(dc, ctx.uris))
      : list.map((dc) => detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc, ctx.uris, shows))
  return ok(catalogEnvelope(ctx.ds.schema, ctx.ds.functions, ctx.session.id, items))
}

/**
 * `$catalog/{dataClass}`: the bare dataclass object, as the real server's documentation shows it
 * (and clients read `name`, `key` and `attributes` at the top level), not wrapped in the catalog
 * envelope.
 */
export function catalogDataClass(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'catalogDataClass' }>,
): Reply {
  const perms = ctx.perms
  const dc = exposedDataClass(ctx.ds, target.name)
  if (!perms) return ok(detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc.def, ctx.uris))
  perms.need('describe', dc.name)
  return ok(
    detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc.def, ctx.uris, (d, a) =>
      perms.mayDescribe(d, a),
    ),
  )
}
