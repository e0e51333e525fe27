/**
 * @module What binding a query (query/bind.ts, an upper layer) asks of the view it binds for: each
 * attribute the bound query finally reads, wherever its name came from (the client's text, a
 * placeholder's path, an alias's path, the filter or order a computed attribute's `query` or
 * `orderBy` function returned). The Actor (actor.ts) is one; so is a list that keeps them to ask
 * each view that later runs what was bound (query/kept-reads.ts).
 */
import type { AttributeDef, DataClassDef } from '../schema/definitions.js'

export interface ReadCheck {
  /**
   * Refuses `attr` of `dc` unless the view may read it: 1607 for the attribute, 1557 for the
   * dataclass a relation leads to; an alias along its path.
   */
  needRead(dc: DataClassDef, attr: AttributeDef): void
}
