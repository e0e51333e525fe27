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
  return target.which === 'short'
    ? ok(
        catalogEnvelope(
          ctx.ds.schema,
          ctx.ds.functions,
          ctx.session.id,
          list.map((dc) => shortDataClass(dc, ctx.uris)),
        ),
      )
    : detailedCatalog(ctx, list)
}

/** The catalog envelope with `list` described in full, as `$catalog/$all` writes them. */
function detailedCatalog(ctx: RouteContext, list: readonly DataClassDef[]): Reply {
  const perms = ctx.perms
  const shows = perms && ((dc: DataClassDef, a: AttributeDef) => perms.mayDescribe(dc, a))
  const items = list.map((dc) =>
    detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc, ctx.uris, shows),
  )
  return ok(catalogEnvelope(ctx.ds.schema, ctx.ds.functions, ctx.session.id, items))
}

/**
 * `$catalog/{dataClass}`: the bare dataclass object, as the real server's documentation shows it
 * (and clients read `name`, `key` and `attributes` at the top level), not wrapped in the catalog
 * envelope. Several names separated by commas (`$catalog/Farm,Tree`, Wakanda's form) answer the
 * envelope with those dataclasses, in the order named.
 */
export function catalogDataClass(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'catalogDataClass' }>,
): Reply {
  const perms = ctx.perms
  // `$catalog/Farm,Tree` (Wakanda's client): those dataclasses, in the catalog envelope.
  if (target.name.includes(',')) {
    const names = target.name.split(',').map((name) => name.trim())
    const list = names.map((name) => exposedDataClass(ctx.ds, name))
    for (const dc of list) perms?.need('describe', dc.name)
    return detailedCatalog(
      ctx,
      list.map((dc) => dc.def),
    )
  }
  const dc = exposedDataClass(ctx.ds, target.name)
  if (!perms) return ok(detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc.def, ctx.uris))
  perms.need('describe', dc.name)
  return ok(
    detailedDataClass(ctx.ds.schema, ctx.ds.functions, dc.def, ctx.uris, (d, a) =>
      perms.mayDescribe(d, a),
    ),
  )
}
