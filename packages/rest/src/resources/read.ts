/**
 * @module `GET /rest/{dataClass}…`: what a read of a dataclass names, sent on to its resource. An
 * entity (by key or lookup) is written here, or followed through a relation (navigate.ts), or read
 * as a picture's or BLOB's bytes (binary.ts); an entity set goes to entity-set.ts, `$lock` to
 * lock.ts; anything else is the dataclass's selection, `$filter` and `$orderby` applied here and
 * written by read-selection.ts.
 */
import {
  fail,
  parseCached,
  parseOrderBy,
  runQuery,
  type DataClass,
  type EntitySelection,
} from '@entistore/core'
import type { JsonObject } from '../serialize/entity.js'
import { parseProjection } from '../serialize/projection.js'
import { entityReply } from '../serialize/selection.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import { ok, type Answer, type Reply } from '../reply.js'
import {
  check,
  exposedDataClass,
  lookerFormat,
  oneAttributeList,
  visibleAttribute,
  type RouteContext,
} from './context.js'
import { binaryContent } from './binary.js'
import { readEntitySet } from './entity-set.js'
import { lock } from './lock.js'
import { lookupEntity } from './lookup.js'
import { navigate, navigateValue } from './navigate.js'
import { readSelection } from './read-selection.js'

/** `GET /rest/{dataClass}…`: the entity, entity set, lock or selection the target names. */
export function readDataClass(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
): Answer {
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  const { params, perms } = ctx
  perms?.need('read', dc.name)
  // `/rest/Employee/salary?$compute=sum`, `/rest/Company/name?$distinct=true`: the path names the
  // attribute a computation reads, as `$attributes` does in Qodly's form of the same requests.
  const paths = target.attributes
  if (paths) {
    // A name the dataclass does not have is the client's mistake whatever this version supports:
    // 404 1500 as for any unknown attribute. Only the first step of a dotted path is checked here
    // (`extra.city` reads into an object attribute).
    for (const name of paths) visibleAttribute(dc, name.split('.')[0]!)
    for (const name of paths) perms?.needPath(dc.def, name.split('.'))
  }
  if (target.entitySet !== undefined) {
    if (target.key !== undefined || target.lookup !== undefined)
      fail('UrlMalformed', [target.entitySet, 'an entity set follows a dataclass, not an entity'])
    return readEntitySet(ctx, dc, target.entitySet, paths)
  }
  if (params.method === 'release')
    fail('MethodNotApplicable', ['release', `${dc.name}: it releases an entity set`])
  if (params.lock !== undefined) return lock(ctx, dc, target, params.lock)
  if (target.key !== undefined || target.lookup !== undefined) {
    const entity =
      target.key !== undefined ? dc.getOrFail(target.key) : lookupEntity(ctx, dc, target.lookup!)
    lookerFormat(params, false)
    const relation = paths?.length === 1 ? dc.def.attributesByName.get(paths[0]!) : undefined
    if (params.emMethod !== undefined && relation?.kind !== 'relatedEntities')
      fail('MethodNotApplicable', [
        'subentityset',
        `${dc.name}: $emMethod calls a function on the entities of a to-many relation (/rest/Farm(1)/trees)`,
      ])
    if (relation?.kind === 'relatedEntity' || relation?.kind === 'relatedEntities')
      return navigate(ctx, entity, relation)
    // An alias or a computed attribute holding an entity or a selection is followed likewise.
    const followed =
      relation?.kind === 'alias' || relation?.kind === 'calculated'
        ? navigateValue(ctx, entity, relation)
        : undefined
    if (followed !== undefined) return followed
    if (
      relation?.kind === 'storage' &&
      (relation.type === 'image' || relation.type === 'blob') &&
      (params.expand?.includes(relation.name) || params.binary || params.rawPict !== undefined)
    )
      return binaryContent(ctx, entity, relation)
    oneAttributeList(paths, params)
    const projection = parseProjection(
      ctx.ds.schema,
      dc.def,
      paths ?? params.attributes,
      params.expand,
      check(ctx),
    )
    return ok(entityReply(entity, ctx.writer, projection, ctx.texts))
  }
  if (params.method === 'subentityset')
    fail('MethodNotApplicable', ['subentityset', `${dc.name}: it follows a to-many relation`])
  // An aggregate needs no order, nor a kept set: the query alone.
  const aggregate = params.compute !== undefined || params.distinct
  const { selection, head } = selectionOfRequest(ctx, dc, { ordered: !aggregate })
  return readSelection(ctx, selection, { paths, head })
}

/**
 * The selection a read names: every entity, or those `$filter` selects, ordered by `$orderby`
 * (unless `ordered` is false: an aggregate needs no order). `head` holds the query plan and path
 * when asked for: the real server writes them first, before the envelope.
 */
function selectionOfRequest(
  ctx: RouteContext,
  dc: DataClass,
  options: { readonly ordered: boolean },
): { selection: EntitySelection; head: JsonObject | undefined } {
  const { params } = ctx
  const orderBy = options.ordered ? params.orderBy : undefined
  if (
    params.filter === undefined &&
    orderBy === undefined &&
    !params.queryPlan &&
    !params.queryPath
  )
    return { selection: dc.all(), head: undefined }
  const result = runQuery(dc, parseCached(params.filter ?? '', '$filter'), {
    ...(params.params ? { params: params.params } : {}),
    ...(orderBy !== undefined ? { orderBy: parseOrderBy(orderBy, '$orderby') } : {}),
    exposedOnly: true,
    queryPlan: params.queryPlan,
    queryPath: params.queryPath,
  })
  if (!params.queryPlan && !params.queryPath)
    return { selection: result.selection, head: undefined }
  const head: JsonObject = {}
  if (params.queryPlan) {
    head.__queryPlan = result.queryPlan ?? null
    head.__extendedQueryPlan = result.extendedQueryPlan ?? null
  }
  if (params.queryPath) {
    head.__queryPath = result.queryPath ?? null
    head.__extendedQueryPath = result.extendedQueryPath ?? null
  }
  return { selection: result.selection, head }
}
