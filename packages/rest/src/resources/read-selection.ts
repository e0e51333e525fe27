/**
 * @module How a read answers with the selection it names, whichever resource named it (a
 * dataclass, an entity set, a to-many relation): `$compute`, `$distinct`, or the selection written
 * (envelope, `$asArray`, `$format=looker`), kept first as an entity set with `$method=entityset`;
 * and `narrow`, a selection's `$filter` and `$orderby`.
 */
import {
  orderSelection,
  parseCached,
  parseOrderBy,
  runQuery,
  setOwnerOf,
  type EntitySelection,
  type EntitySet,
  type SetAccess,
} from '@entistore/core'
import type { JsonObject } from '../serialize/entity.js'
import { dashboard } from '../serialize/dashboard.js'
import { parseProjection, type Projection } from '../serialize/projection.js'
import { selectionArray, selectionEnvelope, type Window } from '../serialize/selection.js'
import { computeReply } from '../read/compute.js'
import { distinctReply } from '../read/distinct.js'
import { ok, type JsonBody, type Reply } from '../reply.js'
import { check, lookerFormat, oneAttributeList, optional, type RouteContext } from './context.js'

/**
 * What a read does with the selection it names: `$compute`, `$distinct`, or the selection written
 * (envelope, `$asArray`, `$format=looker`), kept first as an entity set with `$method=entityset`
 * (the reply then starts with `__ENTITYSET`).
 */
export function readSelection(
  ctx: RouteContext,
  selection: EntitySelection,
  options: {
    /** Attributes named in the path. */
    readonly paths?: readonly string[] | undefined
    /** Members written before the envelope (the query plan and path). */
    readonly head?: JsonObject | undefined
    /** For a kept set: whether it is in a chosen order, and the filter that made it. */
    readonly sorted?: boolean
    readonly filter?: string | undefined
    /** `$expand` as it applies to this selection's dataclass. */
    readonly expand?: readonly string[] | undefined
  } = {},
): Reply {
  const { params } = ctx
  const { paths, head } = options
  // What making the selection needed, before the reply's projection asks its own (a set kept
  // holds the selection, not the reply: access-log.ts). A set's order is made first: sorting by
  // a computed attribute runs its getter, whose reads (a salary) are what the ranking needs.
  const keeping = params.method === 'entityset' || params.method === 'subentityset'
  if (keeping && ctx.actor?.log !== undefined) void selection.rowIds
  const made = ctx.actor?.log?.asked
  const expand = 'expand' in options ? options.expand : params.expand
  const dc = selection.dataClass
  const window = { skip: params.skip, top: params.top ?? dc.def.defaultTopSize }
  if (params.compute !== undefined || params.distinct) {
    for (const path of paths ?? params.attributes ?? [])
      ctx.perms?.needPath(dc.def, path.split('.'))
    const read = { dc, selection, paths: paths ?? params.attributes, window, params }
    return params.compute !== undefined ? computeReply(read, params.compute) : distinctReply(read)
  }
  oneAttributeList(paths, params)
  const projection = parseProjection(
    ctx.ds.schema,
    dc.def,
    paths ?? params.attributes,
    expand,
    check(ctx),
  )
  let first = head
  if (keeping) {
    const set = keepSet(ctx, selection, {
      sorted: options.sorted ?? (params.orderBy !== undefined || params.subOrderBy !== undefined),
      filter: 'filter' in options ? options.filter : params.filter,
      made,
    })
    first = { __ENTITYSET: ctx.uris.entitySet(dc.name, set.id), ...head }
  }
  if (ctx.params.asArray && !lookerFormat(ctx.params, true)) {
    const body = selectionArray(selection, window, ctx.writer, projection)
    return { status: 200, body, headers: pageHeaders(selection, window) }
  }
  return ok(selectionReply(ctx, selection, window, first, projection))
}

/**
 * What `$asArray`'s bare array cannot say, in headers: how many entities the selection has
 * (`x-total-count`, the envelope's `__COUNT`, the name json-server and the clients written for it
 * read), where the page starts (`x-first`, `__FIRST`) and how many it holds (`x-sent`,
 * `__SENT`): an array of 100 (the dataclass's default `$top`) is then seen to be a page.
 */
function pageHeaders(selection: EntitySelection, window: Window): Record<string, string> {
  const count = selection.length
  return {
    'x-total-count': String(count),
    'x-first': String(window.skip),
    'x-sent': String(Math.max(0, Math.min(window.top, count - window.skip))),
  }
}

/**
 * Keeps `selection` as an entity set of the request's session (its quota, its user) with the
 * request's `$timeout`, `$savedfilter`, `$savedorderby`.
 */
function keepSet(
  ctx: RouteContext,
  selection: EntitySelection,
  options: {
    readonly sorted: boolean
    readonly filter: string | undefined
    readonly made: SetAccess | undefined
  },
): EntitySet {
  const { params } = ctx
  // `$savedfilter=true` (as the method page and some clients put it) saves the request's `$filter`.
  const saved = (value: string | undefined, own: string | undefined): string | undefined =>
    value === undefined ? undefined : /^(true|1)$/i.test(value) ? own : value
  const actor = ctx.actor
  return ctx.ds.entitySets.keep(selection, {
    owner: setOwnerOf(ctx.session),
    ...(actor === undefined ? {} : { view: actor.setView, access: options.made ?? 'unknown' }),
    ...(params.timeout !== undefined ? { timeout: params.timeout } : {}),
    sorted: options.sorted,
    ...optional('savedFilter', saved(params.savedFilter, options.filter)),
    ...optional('savedOrderBy', saved(params.savedOrderBy, params.orderBy)),
  })
}

/** `selection` narrowed by the request's `$filter` (its order kept) and reordered by `$orderby`. */
export function narrow(ctx: RouteContext, selection: EntitySelection): EntitySelection {
  const { params } = ctx
  const dc = selection.dataClass
  if (params.filter !== undefined && params.orderBy !== undefined) {
    // Ordered by the query itself, which may order by what its filter computed (a vector
    // search's similarity), then narrowed to the set in that order.
    const found = runQuery(dc, parseCached(params.filter, '$filter'), {
      ...(params.params ? { params: params.params } : {}),
      orderBy: parseOrderBy(params.orderBy, '$orderby'),
      exposedOnly: true,
    }).selection
    return found.and(selection)
  }
  if (params.filter !== undefined) {
    const found = runQuery(dc, parseCached(params.filter, '$filter'), {
      ...(params.params ? { params: params.params } : {}),
      exposedOnly: true,
    }).selection
    selection = selection.and(found)
  }
  if (params.orderBy !== undefined) {
    selection = orderSelection(selection, parseOrderBy(params.orderBy, '$orderby'), {
      exposedOnly: true,
    })
  }
  return selection
}

function selectionReply(
  ctx: RouteContext,
  selection: EntitySelection,
  window: Window,
  head: JsonObject | undefined,
  projection: Projection | undefined,
): JsonBody {
  const perms = ctx.perms
  if (lookerFormat(ctx.params, true))
    return dashboard(selection, window, projection, perms && ((dc, a) => perms.mayRead(dc, a)))
  return selectionEnvelope(selection, window, ctx.writer, head, projection)
}
