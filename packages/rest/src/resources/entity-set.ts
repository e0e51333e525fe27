/**
 * @module `/rest/{dataClass}/$entityset/{id}`: a kept entity set read (narrowed, combined with
 * another by `$logicOperator`, cleaned), released, or remade from its saved filter and order when
 * it is gone; `POST /rest/{dataClass}/$entityset/$release` (4D 21 R4) releases the sets a body
 * names, and `POST /rest/$entityset/$release` those of any dataclass. `findSet` is also the set a `POST …?$method=delete` drops.
 *
 * Whoever names a set reads it with their own rights: the core gives its members narrowed by the
 * session's `restrict` (orda/objects/entity-sets.ts). Releasing and remaking are its owner's (a session of
 * its user, or its session): anyone else is answered as for an id that never was (1802).
 */
import {
  fail,
  LOGIC_OPERATORS,
  parseCached,
  parseOrderBy,
  runQuery,
  setOwnerOf,
  type DataClass,
  type EntitySet,
  type LogicOperator,
} from '@entistore/core'
import { ok, type Reply } from '../reply.js'
import { RELEASE_SEGMENT } from '../url/request-names.js'
import { optional, type RouteContext } from './context.js'
import { narrow, readSelection } from './read-selection.js'

/** How long a set remade from its saved filter lives: 10 minutes, whatever `$timeout` said (4D). */
const REMADE_TIMEOUT = 600

/**
 * `/rest/{dataClass}/$entityset/{id}`: the kept set, its lifetime restarted, read like any selection
 * (`$filter` and `$orderby` narrow and reorder it); `$method=release` forgets it (its owner only;
 * deprecated by 4D 21 R4 for the POST of `releaseEntitySets`, and kept);
 * `$logicOperator` with `$otherCollection` combines it with another set; `$clean=true` leaves its
 * deleted members out. A set that is gone is remade under its id from `$savedfilter` /
 * `$savedorderby` when they are passed, by its owner (for 600 s), else 1802.
 */
export function readEntitySet(
  ctx: RouteContext,
  dc: DataClass,
  id: string,
  paths: readonly string[] | undefined,
): Reply {
  const { params } = ctx
  if (id === RELEASE_SEGMENT)
    fail('MethodNotAllowed', [ctx.method, '$entityset/$release takes a POST of entity set ids'])
  if (params.method === 'release') return releaseSets(ctx, [id])
  const set = findSet(ctx, dc, id)
  let selection = set.selection
  if (params.logicOperator !== undefined || params.otherCollection !== undefined) {
    const operator = params.logicOperator
    if (operator === undefined) return fail('WrongLogicOperator', [''])
    if (!LOGIC_OPERATORS.includes(operator as LogicOperator))
      return fail('WrongLogicOperator', [operator])
    if (params.otherCollection === undefined) return fail('MissingOtherCollection', [])
    const other = ctx.ds.entitySets.get(params.otherCollection)
    if (!other) return fail('WrongOtherCollection', [params.otherCollection])
    if (other.dataClass !== dc)
      fail('EntitySetOfOtherDataClass', [other.id, other.dataClass.name, dc.name])
    // INTERSECT answers a bare true or false, as clients of the real server expect.
    if (operator === 'INTERSECT') return ok(String(selection.intersects(other.selection)))
    selection =
      operator === 'AND'
        ? selection.and(other.selection)
        : operator === 'OR'
          ? selection.or(other.selection)
          : selection.minus(other.selection)
  }
  if (params.clean) selection = selection.clean()
  selection = narrow(ctx, selection)
  return readSelection(ctx, selection, {
    paths,
    sorted: set.sorted || params.orderBy !== undefined,
    filter: params.filter ?? set.savedFilter,
  })
}

/**
 * `POST /rest/{dataClass}/$entityset/$release` (4D 21 R4, which documents the request, a JSON
 * array of set ids, and not its reply): each set released as `$method=release` releases one, and
 * answered the same way. The dataclass in the path is not checked against the sets', as the GET
 * form does not check it either; releasing needs the right to read it, as that form does.
 */
export function releaseEntitySets(ctx: RouteContext, dc: DataClass): Reply {
  ctx.perms?.need('read', dc.name)
  return releaseSets(ctx, releaseIds(ctx))
}

/**
 * `POST /rest/$entityset/$release`: the sets of any dataclass the body names, released as the form
 * with a dataclass releases them (4D's own quota demo sends this one, to release every set `$info`
 * lists). Only the session's own sets are released, and those it made it could read.
 */
export function releaseAnySets(ctx: RouteContext): Reply {
  return releaseSets(ctx, releaseIds(ctx))
}

/** The set ids of a `$release`'s body: a JSON array of texts. */
function releaseIds(ctx: RouteContext): string[] {
  const ids = ctx.body()
  if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string'))
    return fail('BadRequestBody', ['$entityset/$release takes a JSON array of entity set ids'])
  return ids
}

/**
 * Releases the sets `ids` that are the session's (its user's): `{"ok":true}` when every one was,
 * else 404 1802 naming those that were not, the others released all the same (releasing is
 * idempotent: the client may send the list again). Another's set is answered as a set that is not
 * there, an id never given or expired alike: trying tells nothing.
 */
function releaseSets(ctx: RouteContext, ids: readonly string[]): Reply {
  const by = setOwnerOf(ctx.session)
  const missing = [...new Set(ids)].filter((id) => !ctx.ds.entitySets.release(id, { by }))
  if (missing.length > 0) fail('EntitySetNotFound', [missing.join(', ')])
  return ok('{"ok":true}')
}

/**
 * The set `id` of `dc`, its lifetime restarted and its members those the session may see, or,
 * for its owner, remade from the saved filter and order.
 */
export function findSet(ctx: RouteContext, dc: DataClass, id: string): EntitySet {
  const { params } = ctx
  const set = ctx.ds.entitySets.get(id)
  if (set) {
    if (set.dataClass !== dc) fail('EntitySetOfOtherDataClass', [id, set.dataClass.name, dc.name])
    return set
  }
  const filter = remakeText(params.savedFilter)
  const orderBy = remakeText(params.savedOrderBy)
  if (filter === undefined && orderBy === undefined) return fail('EntitySetNotFound', [id])
  // Only its owner remakes a gone set under its id (the id is signed for them): anyone else would
  // put a set of their choosing where the owner's next delete goes. They, and an id never given,
  // get the answer of a set that is not there, before anything of the filter is looked at.
  const by = setOwnerOf(ctx.session)
  if (!ctx.ds.entitySets.mayRemake(id, { by })) return fail('EntitySetNotFound', [id])
  const remade = runQuery(dc, parseCached(filter ?? '', '$savedfilter'), {
    ...(params.params ? { params: params.params } : {}),
    ...(orderBy !== undefined ? { orderBy: parseOrderBy(orderBy, '$savedorderby') } : {}),
    exposedOnly: true,
  }).selection
  return ctx.ds.entitySets.keep(remade, {
    id,
    owner: by,
    timeout: REMADE_TIMEOUT,
    sorted: orderBy !== undefined,
    ...optional('savedFilter', filter),
    ...optional('savedOrderBy', orderBy),
  })
}

/** A saved filter or order to remake a set from: its text (`true` names none, `$all` is all). */
function remakeText(value: string | undefined): string | undefined {
  if (value === undefined || /^(true|1)$/i.test(value)) return undefined
  return value === '$all' ? '' : value
}
