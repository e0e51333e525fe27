/**
 * @module `/rest/Employee(3)/employer`, `/rest/Company(1)/staff`: following a relation from one
 * entity, to the related entity or the related selection.
 */
import {
  fail,
  orderSelection,
  parseOrderBy,
  type Entity,
  type EntitySelection,
  type RelatedEntitiesAttributeDef,
  type RelatedEntityAttributeDef,
} from '@entistore/core'
import { parseProjection } from '../serialize/projection.js'
import { entityReply } from '../serialize/selection.js'
import { ok, type Answer } from '../reply.js'
import { check, type RouteContext } from './context.js'
import { relatedSelectionCall } from './functions.js'
import { narrow, readSelection } from './read-selection.js'

/**
 * `/rest/Employee(3)/employer` and `/rest/Company(1)/staff`, with or without `$expand` naming the
 * relation (the form of the URIs the server writes): the related entity, or the related selection
 * with `$filter`, `$orderby`, `$skip`, `$top`, `$attributes` applied to it. No related entity is
 * `null`. With `$method=subentityset&$emMethod={fn}` (Wakanda's client), the selection function
 * `fn` called on the related entities instead.
 */
export function navigate(
  ctx: RouteContext,
  entity: Entity,
  relation: RelatedEntityAttributeDef | RelatedEntitiesAttributeDef,
): Answer {
  const { params } = ctx
  const target = ctx.ds.dataClass(relation.target)
  // `$expand=staff` on `/Company(1)/staff` names the relation followed, not one of the target's.
  const expand = params.expand?.filter((name) => name !== relation.name)
  if (relation.kind === 'relatedEntity') {
    const projection = parseProjection(
      ctx.ds.schema,
      target.def,
      params.attributes,
      expand?.length ? expand : undefined,
      check(ctx),
    )
    const related = entity.valueOf(relation) as Entity | null
    return ok(related ? entityReply(related, ctx.writer, projection, ctx.texts) : 'null')
  }
  if (
    params.method !== undefined &&
    params.method !== 'entityset' &&
    params.method !== 'subentityset'
  )
    fail('MethodNotApplicable', [params.method, `${relation.name}, a relation`])
  let selection = narrow(ctx, entity.valueOf(relation) as EntitySelection)
  if (params.method === 'subentityset' && params.emMethod !== undefined)
    return relatedSelectionCall(ctx, selection, params.emMethod)
  if (params.method === 'subentityset' && params.subOrderBy !== undefined) {
    selection = orderSelection(selection, parseOrderBy(params.subOrderBy, '$subOrderby'), {
      exposedOnly: true,
    })
  }
  return readSelection(ctx, selection, { expand: expand?.length ? expand : undefined })
}
