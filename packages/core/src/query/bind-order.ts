/**
 * @module Binding an `order by`: each key's path resolved against the dataclass as a filter's paths
 * are, and a computed attribute with an orderBy function replaced by the keys that function returns.
 */
import { fail } from '../errors/datastore-error.js'
import {
  type CalculatedAttributeDef,
  type DataClassDef,
  type SchemaDef,
  isShownAttribute,
} from '../schema/definitions.js'
import { didYouMean } from '../errors/closest-name.js'
import { type AttributePathNode, type OrderByItemNode, type PathSegment, pathText } from './ast.js'
import type { BoundOrderKey } from './bound.js'
import { computedOrder } from './computed.js'
import { fromFunction } from '../errors/from-function.js'
import { type BindOptions, type Ctx, namesOf } from './bind-context.js'

/** Binds `$orderby` / `order by` items: relatedEntity chains ending on a storage or calculated attribute. */
export function bindOrderBy(
  schema: SchemaDef,
  dc: DataClassDef,
  items: readonly OrderByItemNode[],
  options: Pick<BindOptions, 'exposedOnly' | 'reads'>,
): BoundOrderKey[] {
  const ctx: Ctx = { schema, options }
  return items.flatMap((item) => orderKey(ctx, dc, item.path, item.direction === 'desc'))
}

function orderKey(
  ctx: Ctx,
  start: DataClassDef,
  path: AttributePathNode,
  descending: boolean,
): BoundOrderKey[] {
  const text = pathText(path)
  const bad = (why: string): never => fail('WrongOrderBy', [text, why])
  const relations: BoundOrderKey['relations'][number][] = []
  let dc = start
  let segments: readonly PathSegment[] = path.segments
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!
    if (seg.collection) bad('collections cannot be sorted on')
    const attr = dc.attributesByName.get(seg.name)
    if (!attr || (ctx.options.exposedOnly && !isShownAttribute(ctx.schema, attr)))
      return bad(
        `"${seg.name}" is not an attribute of ${dc.name}${didYouMean(seg.name, namesOf(ctx, dc))}`,
      )
    ctx.options.reads?.needRead(dc, attr)
    const last = i === segments.length - 1
    if (attr.kind === 'alias') {
      segments = [
        ...segments.slice(0, i),
        ...attr.path.map((name) => ({ name })),
        ...segments.slice(i + 1),
      ]
      i--
      continue
    }
    if (attr.kind === 'relatedEntity' && !last) {
      relations.push(attr)
      dc = ctx.schema.byName.get(attr.target)!
      continue
    }
    if (!last) return bad(`"${seg.name}" is not a relatedEntity attribute`)
    if (attr.kind === 'storage') {
      // A vector sorts by its similarity to the filter's (vector-search.ts linkSimilarity).
      const vector = attr.vector === true && relations.length === 0
      if (!vector && (attr.type === 'object' || attr.type === 'image' || attr.type === 'blob'))
        bad(`${attr.type} attributes cannot be sorted on`)
      return [
        {
          relations,
          operand: { kind: 'storage', attr },
          descending,
          folds: attr.type === 'string',
          text,
        },
      ]
    }
    if (attr.kind === 'calculated') {
      if (attr.related !== undefined)
        return bad(
          `"${seg.name}" is computed as an entity or an entity selection: it cannot be sorted on`,
        )
      const computed =
        attr.orderBy && computedKeys(ctx, dc, attr, segments.slice(0, i), text, descending)
      if (computed)
        return computed.map((k) => ({ ...k, relations: [...relations, ...k.relations] }))
      return [
        {
          relations,
          operand: { kind: 'calculated', attr },
          descending,
          folds: attr.type === 'string',
          text,
        },
      ]
    }
    if (attr.kind === 'relatedEntity') {
      // Text keys sort folded, as `employer.ID` does and as a sorted index on the slot keys them.
      return [
        {
          relations,
          operand: { kind: 'storage', attr: attr.foreignKeyAttribute },
          descending,
          folds: attr.foreignKeyAttribute.type === 'string',
          text,
        },
      ]
    }
    return bad(`"${seg.name}" is a to-many relation`)
  }
  return bad('empty path')
}

/**
 * The keys that the orderBy function of `attr` (reached through `before`) gives for a sort on it,
 * bound in its dataclass (their relations start there), or undefined for the default sort.
 */
function computedKeys(
  ctx: Ctx,
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  before: readonly PathSegment[],
  text: string,
  descending: boolean,
): BoundOrderKey[] | undefined {
  if (ctx.rewriting?.includes(attr)) return undefined
  const items = computedOrder(dc, attr, descending)
  if (!items) return undefined
  // The function's text may name attributes a REST client may not (not exposed); what it reads
  // is still asked of the view, as any order's.
  const inner: Ctx = {
    schema: ctx.schema,
    options: { reads: ctx.options.reads },
    rewriting: [...(ctx.rewriting ?? []), attr],
  }
  const prefix = before.map((s) => `${s.name}.`).join('')
  const computed = { text, descending }
  return fromFunction(`the orderBy function of ${dc.name}.${attr.name}`, () =>
    items.flatMap((item) =>
      orderKey(inner, dc, item.path, item.direction === 'desc').map((k) => ({
        ...k,
        text: prefix + k.text,
        computed,
      })),
    ),
  )
}
