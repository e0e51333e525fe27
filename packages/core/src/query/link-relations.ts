/**
 * @module 4D's references of a to-many relation within one AND (DataClassClass.md `.query()`,
 * "Queries in many-to-many relations"): `roles.actor.lastName = :1 AND roles.actor.lastName = :2`
 * asks for one role whose actor has both names (none: "$es is empty"), while a class index makes
 * another reference, `roles.actor{2}.lastName = :2`, met by any role of the movie. So the
 * comparisons of one AND that go through the same to-many relation with the same class indexes
 * are tested on the same related entity: their ReverseJoins become one, whose inner filter is the
 * AND of theirs. Different class indexes keep their joins apart.
 */
import { pathText, type AttributePathNode } from './ast.js'
import type { BoundFilter, BoundReverseJoin } from './bound.js'

/**
 * The class indexes a path names, as its reference (`actor{2}`), or undefined without any. Every
 * index of the path counts: `roles.actor{2}` needs another role as much as another actor, since a
 * role has one actor.
 */
export function referenceOf(path: AttributePathNode): string | undefined {
  if (!path.segments.some((s) => s.classIndex !== undefined)) return undefined
  return pathText(path)
    .split('.')
    .filter((s) => s.endsWith('}'))
    .join('.')
}

/**
 * The operands of an AND with the ReverseJoins of one relation and reference made one; `link` is
 * how the binder links an AND's operands, applied to the joined inner filters too.
 */
export function linkRelations(
  operands: readonly BoundFilter[],
  link: (operands: BoundFilter[]) => BoundFilter[],
): BoundFilter[] {
  const groups = new Map<string, { at: number; joins: BoundReverseJoin[] }>()
  const out: BoundFilter[] = []
  for (const o of operands) {
    if (o.kind !== 'ReverseJoin') {
      out.push(o)
      continue
    }
    const id = `${o.dataClass.name}.${o.relation.name}/${o.reference ?? ''}`
    const group = groups.get(id)
    if (group) group.joins.push(o)
    else {
      groups.set(id, { at: out.length, joins: [o] })
      out.push(o)
    }
  }
  for (const { at, joins } of groups.values()) {
    if (joins.length === 1) continue
    const inner = link(
      joins.flatMap((j) =>
        j.inner.kind === 'Logical' && j.inner.op === 'And' ? [...j.inner.operands] : [j.inner],
      ),
    )
    out[at] = { ...joins[0]!, inner: { kind: 'Logical', op: 'And', operands: inner } }
  }
  return out
}
