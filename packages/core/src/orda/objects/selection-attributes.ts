/**
 * @module 4D's projection of an entity selection through one attribute (`selection.lastName`,
 * `selection.employer`), read by the selections' attribute properties (attribute-properties.ts):
 * a relation gives the selection of the entities it reaches from the live members, each once, in
 * the order they are first reached (4D: "duplications are removed, an unordered entity selection
 * is returned"); any other attribute the collection of its values, as `extract(name)` gives it.
 */
import type { AttributeDef } from '../../schema/definitions.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { EntitySelection } from './entity-selection.js'

/** The projection of `selection` through its dataclass's attribute `attr`. */
export function projection(selection: EntitySelection, attr: AttributeDef): unknown {
  if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities')
    return selection.extract(attr.name)
  const target = selection.dataClass.datastore.dataClass(attr.target) as DataClass
  const seen = new Set<number>()
  for (const entity of selection) {
    // Through `get`, as reading it on each entity would: the session's permissions and the
    // target's `restrict` apply.
    const value = (entity as Entity).get(attr.name)
    if (value === null) continue
    if (attr.kind === 'relatedEntity') seen.add((value as Entity).rowId)
    else for (const rowId of (value as EntitySelection).rowIds) seen.add(rowId)
  }
  return target.select([...seen])
}
