/**
 * @module 4D's projection of an entity selection through one attribute (`selection.lastName`,
 * `selection.employer`), read by the selections' attribute properties (attribute-properties.ts):
 * a relation gives the selection of the entities it reaches from the live members, each once, in
 * the order they are first reached (4D: "duplications are removed, an unordered entity selection
 * is returned"); any other attribute the collection of its values, as `extract(name)` gives it.
 */
import type { AttributeDef } from '../../schema/definitions.js'
import type { RowIds } from '../../sets/row-ids.js'

/**
 * What a projection reads of the selection (an EntitySelection): named by these few members, not
 * by the class, whose attribute properties (object-classes.ts) call this file.
 */
export interface ProjectedSelection {
  [Symbol.iterator](): Iterator<{ get(name: string): unknown }>
  extract(name: string): unknown
  readonly dataClass: {
    readonly datastore: { dataClass(name: string): { select(rowIds: number[]): unknown } }
  }
}

/** The projection of `selection` through its dataclass's attribute `attr`. */
export function projection(selection: ProjectedSelection, attr: AttributeDef): unknown {
  if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities')
    return selection.extract(attr.name)
  const target = selection.dataClass.datastore.dataClass(attr.target)
  const seen = new Set<number>()
  for (const entity of selection) {
    // Through `get`, as reading it on each entity would: the session's permissions and the
    // target's `restrict` apply. A relation reads as an Entity, a list of them as a selection.
    const value = entity.get(attr.name)
    if (value === null) continue
    if (attr.kind === 'relatedEntity') seen.add((value as { rowId: number }).rowId)
    else for (const rowId of (value as { rowIds: RowIds }).rowIds) seen.add(rowId)
  }
  return target.select([...seen])
}
