/**
 * @module `/rest/Employee(3)/employer`, `/rest/Company(1)/staff`: following a relation from one
 * entity, to the related entity or the related selection.
 */
import {
  Entity,
  EntitySelection,
  fail,
  orderSelection,
  parseOrderBy,
  type AttributeDef,
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
  const value = entity.valueOf(relation) as Entity | EntitySelection | null
  return follow(ctx, relation.name, relation.target, value, relation.kind === 'relatedEntities')
}

/**
 * `/rest/Event(k)/attendees`, `/rest/Employee(3)/boss`: an alias or a computed attribute whose
 * value is an entity selection or an entity, followed as a relation is (the deferred URI the
 * server writes for it leads here); undefined when its value is neither.
 */
export function navigateValue(
  ctx: RouteContext,
  entity: Entity,
  attr: AttributeDef,
): Answer | undefined {
  const value = entity.valueOf(attr)
  if (value instanceof EntitySelection)
    return follow(ctx, attr.name, value.getDataClass().name, value, true)
  if (value instanceof Entity) return follow(ctx, attr.name, value.dataClass.name, value, false)
  return undefined
}

function follow(
  ctx: RouteContext,
  name: string,
  targetName: string,
  value: Entity | EntitySelection | null,
  many: boolean,
): Answer {
  const { params } = ctx
  const target = ctx.ds.dataClass(targetName)
  // `$expand=staff` on `/Company(1)/staff` names the relation followed, not one of the target's.
  const expand = params.expand?.filter((n) => n !== name)
  if (!many) {
    const projection = parseProjection(
      ctx.ds.schema,
      target.def,
      params.attributes,
      expand?.length ? expand : undefined,
      check(ctx),
    )
    const related = value as Entity | null
    return ok(related ? entityReply(related, ctx.writer, projection, ctx.texts) : 'null')
  }
  if (
    params.method !== undefined &&
    params.method !== 'entityset' &&
    params.method !== 'subentityset'
  )
    fail('MethodNotApplicable', [params.method, `${name}, a relation`])
  let selection = narrow(ctx, value as EntitySelection)
  if (params.method === 'subentityset' && params.emMethod !== undefined)
    return relatedSelectionCall(ctx, selection, params.emMethod)
  if (params.method === 'subentityset' && params.subOrderBy !== undefined) {
    selection = orderSelection(selection, parseOrderBy(params.subOrderBy, '$subOrderby'), {
      exposedOnly: true,
    })
  }
  return readSelection(ctx, selection, { expand: expand?.length ? expand : undefined })
}
