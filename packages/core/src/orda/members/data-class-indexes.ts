/**
 * @module The indexes a dataclass's code asks for (`createIndex`, `dropIndex`): which attributes
 * may be indexed, and which index a constraint keeps. The index set itself is the table's
 * (indexes/index-set.ts).
 */
import type { IndexKind } from '../../indexes/index-set.js'
import type { MemberClass } from './member-class.js'

/** Adds an index of `kind` on the storage attribute `attribute` of `dc`, filled at once. */
export function createIndexOn(dc: MemberClass, attribute: string, kind: IndexKind): void {
  const attr = dc.attribute(attribute)
  if (attr.kind !== 'storage') {
    throw new TypeError(
      `createIndex: "${attribute}" is a ${attr.kind} attribute; only storage attributes can be indexed`,
    )
  }
  if (attr.type === 'object' || attr.type === 'image' || attr.type === 'blob') {
    throw new TypeError(`createIndex: ${attr.type} attributes cannot be indexed`)
  }
  dc.table.indexes.create(attr, kind)
  dc.table.indexes.rebuild(dc.table)
}

/**
 * Removes the index of `attribute`, except what a constraint needs (a unique attribute and a
 * relation's foreign key keep their hash index; the primary key keeps its sorted index).
 */
export function dropIndexOf(dc: MemberClass, attribute: string): void {
  const attr = dc.attribute(attribute)
  if (attr.kind !== 'storage') return
  const foreignKey = dc.def.attributes.some(
    (a) => a.kind === 'relatedEntity' && a.foreignKey === attr.name,
  )
  dc.table.indexes.drop(attr.name, {
    hash: attr.unique || foreignKey,
    sorted: attr === dc.def.key,
  })
}
