/**
 * @module The dataclasses a query, an ordering or an attribute path reaches through relations:
 * those whose `restrict` the engine asks as it follows the relation (query/visibility.ts), found
 * from the parsed text before it runs, so that a caller in slices can have their answers made
 * ahead in steps (orda/restrict/restricts-reached.ts). Found as the binder resolves a path
 * (bind.ts, bind-order.ts): an alias is followed along its path, a relation to one that a path
 * goes on from leads to its dataclass (one it ends on is its foreign key, which asks nothing),
 * a relation to many leads to its dataclass even where the path ends (`staff = null`). A name
 * that is no attribute, a placeholder whose value is no path, a computed attribute's query or
 * orderBy function (whose answer is known only once it is called, at binding) add nothing: the
 * engine then asks what it reaches as it always did.
 */
import type { DataClassDef, SchemaDef } from '../schema/definitions.js'
import { MAX_FILTER_DEPTH, type FilterNode, type OrderByItemNode, type QueryNode } from './ast.js'
import { filledComparison, type PathValues } from './path-placeholders.js'

/** A step of a path: its attribute's name (a parsed path's segment, or a name). */
interface Named {
  readonly name: string
}

/**
 * The dataclasses `query` (a filter and its `order by`) of `def` reaches through relations, with
 * those of `orderBy` too, each once; `values` hold what placeholders written as paths stand for.
 */
export function queryReaches(
  schema: SchemaDef,
  def: DataClassDef,
  query: QueryNode,
  values: PathValues = {},
  orderBy: readonly OrderByItemNode[] = [],
): DataClassDef[] {
  const found: DataClassDef[] = []
  if (query.filter !== null) filterReaches(schema, def, query.filter, values, found)
  for (const item of query.orderBy) reach(schema, def, item.path.segments, false, false, found)
  for (const item of orderBy) reach(schema, def, item.path.segments, false, false, found)
  return found
}

/**
 * The dataclasses a path of `def` (`employer.name`, an alias) reaches through relations, as an
 * entity's values are read along it (`extract()`); with `ends`, the dataclass of a relation the
 * path ends on too (reading it gives its entity, or its selection).
 */
export function pathReaches(
  schema: SchemaDef,
  def: DataClassDef,
  path: readonly string[],
  ends: boolean,
): DataClassDef[] {
  const found: DataClassDef[] = []
  reach(schema, def, path.map(named), ends, ends, found)
  return found
}

const named = (name: string): Named => ({ name })

function filterReaches(
  schema: SchemaDef,
  def: DataClassDef,
  filter: FilterNode,
  values: PathValues,
  found: DataClassDef[],
): void {
  const stack: FilterNode[] = [filter]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.kind === 'Not') stack.push(node.operand)
    else if (node.kind === 'Logical') stack.push(...node.operands)
    else {
      const path = pathOf(node, values, def)
      if (path !== undefined) reach(schema, def, path, false, true, found)
    }
  }
}

// The segments of a comparison's path, its placeholder's included; undefined for a placeholder
// whose value is no path (the binding fails on it, with its own error).
function pathOf(
  node: FilterNode & { kind: 'Comparison' },
  values: PathValues,
  def: DataClassDef,
): readonly Named[] | undefined {
  if (node.path.kind === 'AttributePath') return node.path.segments
  try {
    return filledComparison(node, values, { dataClass: def.name }).path.segments
  } catch {
    return undefined
  }
}

/**
 * Adds to `found` what `path` reaches from `def`. A relation the path ends on is followed with
 * `ends` (to one) and `manyEnds` (to many: a filter's `staff = null` tests its related entities;
 * an ordering cannot end there).
 */
function reach(
  schema: SchemaDef,
  def: DataClassDef,
  path: readonly Named[],
  ends: boolean,
  manyEnds: boolean,
  found: DataClassDef[],
): void {
  let dc = def
  let names = path
  // An alias whose path leads back to itself would go on forever; the binder refuses any path
  // this long.
  for (let i = 0, steps = 0; i < names.length && steps <= MAX_FILTER_DEPTH; i++, steps++) {
    const attr = dc.attributesByName.get(names[i]!.name)
    if (attr === undefined) return
    if (attr.kind === 'alias') {
      names = [...attr.path.map(named), ...names.slice(i + 1)]
      i = -1
      continue
    }
    if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities') return
    if (i === names.length - 1 && !(attr.kind === 'relatedEntity' ? ends : manyEnds)) return
    const target = schema.byName.get(attr.target)
    if (target === undefined) return
    if (!found.includes(target)) found.push(target)
    dc = target
  }
}
