/**
 * @module `Employee:lastName(Jones)`: the entity a lookup names, found through the query engine.
 * Shared by reads and `$lock`.
 */
import { Ast, fail, runQuery, type DataClass, type Entity } from '@entistore/core'
import { visibleAttribute, type RouteContext } from './context.js'

/**
 * `Employee:lastName(Jones)`: the entity whose attribute equals the value. 4D documents it for
 * unique attributes; when several match, the first in key order is returned.
 */
export function lookupEntity(
  ctx: RouteContext,
  dc: DataClass,
  lookup: { readonly attribute: string; readonly value: string },
): Entity {
  const attr = visibleAttribute(dc, lookup.attribute)
  ctx.perms?.needRead(dc.def, attr)
  if (attr.kind !== 'storage') return fail('AttributeNotFound', [lookup.attribute, dc.name])
  const wanted = dc.coerce(attr, lookup.value)
  // The query engine, so that an indexed attribute is looked up, not scanned (`===`: no wildcards).
  const query = Ast.query(
    Ast.comparison(Ast.path([{ name: attr.name }]), 'strictEq', Ast.placeholder(1)),
    [],
  )
  const found = runQuery(dc, query, { params: [wanted], exposedOnly: true }).selection.at(0)
  return found ?? fail('EntityNotFound', [`${lookup.attribute}(${lookup.value})`, dc.name])
}
