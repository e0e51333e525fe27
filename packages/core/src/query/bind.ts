/**
 * @module Binding: a parsed query resolved against a dataclass.
 *
 * - Paths: `a` (storage or calculated), `rel.a` (a join through a relatedEntity, any depth),
 *   `toMany.a` (an any-match through relatedEntities), `obj.x.y` (inside an object attribute),
 *   `obj.list[].x` (any element), `obj.list[a].x` (the same element as the other `[a]` conditions of
 *   the same AND), `rel` alone (compares the foreign key: `employer = 3`, `employer = null`), aliases.
 * - Values are coerced to the attribute's type as 4D does ("20" is 20 for a number); a value that
 *   cannot be converted is an error, not an empty result.
 * - Placeholders `:1` take `params[0]`; `:name` takes `named.name`. A comparison's path may be a
 *   placeholder too (path-placeholders.ts): `:1` the path in `params[0]`, `:att` in `attributes.att`.
 * - Within one AND, the comparisons through one to-many relation and the same class indexes
 *   (`roles.actor{2}`) are tested on the same related entity (link-relations.ts).
 * - A comparison on a computed attribute with a query function becomes the filter that function
 *   returns for the comparison's value (computed.ts), bound in the attribute's dataclass with the
 *   function's own parameters; an `order by` on one with an orderBy function, the keys it returns.
 * - Every attribute a binding resolves is asked of the view it binds for (`reads`, the acting
 *   Actor): those the client named, and those it reads through them (an alias's path, what a
 *   computed attribute's function returned, a placeholder's path). What the bound query reads is
 *   what was asked, whatever the text named: there is no other list of names to keep in step.
 */
import { fail } from '../errors/datastore-error.js'
import type {
  CalculatedAttributeDef,
  DataClassDef,
  SchemaDef,
  StorageAttributeDef,
} from '../schema/definitions.js'
import type { ValueType } from '../schema/model-json.js'
import {
  type FilterNode,
  type PathComparisonNode,
  type PathSegment,
  Ast,
  filterDepth,
  MAX_FILTER_DEPTH,
  OPERATOR_TEXT,
  pathText,
} from './ast.js'
import type { BoundComparison, BoundFilter, BoundLinked, ObjectStep, Operand } from './bound.js'
import { computedFilter } from './computed.js'
import { fromFunction } from '../errors/from-function.js'
import { vectorValue } from './vector-search.js'
import { linkRelations, referenceOf } from './link-relations.js'
import { filledComparison } from './path-placeholders.js'
import {
  type BindOptions,
  type Ctx,
  NULL_OPS,
  TEXT_TYPES,
  pathValues,
  attributeOf,
  namesOf,
  lazyText,
  invalid,
} from './bind-context.js'
import { isNullValue, placeholderValue, bindValue, rawOf } from './bind-value.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to bind-order.js once that lands.
export { bindOrderBy } from './bind-order.js'

export function bindFilter(
  schema: SchemaDef,
  dc: DataClassDef,
  filter: FilterNode,
  options: BindOptions,
): BoundFilter {
  const depth = filterDepth(filter)
  if (depth > MAX_FILTER_DEPTH) {
    fail('FilterSyntax', [
      `the query nests ${depth} levels deep, more than the ${MAX_FILTER_DEPTH} allowed ` +
        '(parentheses, NOT, OR and EXCEPT alternating, and relation steps of a path count)',
    ])
  }
  return linkedAlone(bindNode({ schema, options }, dc, filter))
}

/**
 * A lettered comparison outside an AND (`list[a].x != 1` alone, under NOT or OR) is a linked
 * group of one: some element holds it (4D: `[a]` with `!=` finds "at least one element differs"),
 * where `[]` with `!=` means every element differs.
 */
const linkedAlone = (b: BoundFilter): BoundFilter =>
  b.kind === 'Comparison' ? linkCollections([b])[0]! : b

// The comparisons of a to-many relation with null: whether it has related entities.
const NULL_TESTS: ReadonlySet<string> = new Set(['eq', 'ne', 'strictEq', 'strictNe'])

function bindNode(ctx: Ctx, dc: DataClassDef, node: FilterNode): BoundFilter {
  switch (node.kind) {
    case 'Comparison': {
      const filled = filledComparison(node, pathValues(ctx), {
        dataClass: dc.name,
        known: () => namesOf(ctx, dc),
      })
      return bindComparison(ctx, dc, filled, filled.path.segments, 0)
    }
    case 'Not':
      return { kind: 'Not', operand: linkedAlone(bindNode(ctx, dc, node.operand)) }
    case 'Logical': {
      const operands = node.operands.map((o) => bindNode(ctx, dc, o))
      if (node.op !== 'And')
        return { kind: 'Logical', op: node.op, operands: operands.map(linkedAlone) }
      const linked = linkAnd(operands)
      // Comparisons through one relation made one join: the join is the whole AND.
      return linked.length === 1 ? linked[0]! : { kind: 'Logical', op: 'And', operands: linked }
    }
  }
}

const linkAnd = (operands: BoundFilter[]): BoundFilter[] =>
  linkCollections(linkRelations(operands, linkAnd))

/** Binds `segments[at…]` of a comparison's path, starting in `dc`. */
function bindComparison(
  ctx: Ctx,
  dc: DataClassDef,
  node: PathComparisonNode,
  segments: readonly PathSegment[],
  at: number,
): BoundFilter {
  const seg = segments[at]!
  const attr = attributeOf(ctx, dc, seg.name)
  const last = at === segments.length - 1
  const where = lazyText(() => pathText(node.path))
  if (seg.collection && !(attr.kind === 'storage' && attr.type === 'object')) {
    invalid(
      `"${seg.name}" in ${where} is not an object attribute: [] applies to collections inside object attributes`,
    )
  }
  if (
    seg.classIndex !== undefined &&
    attr.kind !== 'relatedEntity' &&
    attr.kind !== 'relatedEntities'
  )
    invalid(`"${seg.name}" in ${where} is not a relation: a class index {n} applies to relations`)
  switch (attr.kind) {
    case 'alias':
      return bindComparison(
        ctx,
        dc,
        node,
        [...attr.path.map((name) => ({ name })), ...segments.slice(at + 1)],
        0,
      )
    case 'relatedEntity': {
      const target = ctx.schema.byName.get(attr.target)!
      if (last) {
        // `employer = 3` / `employer = null`: the foreign key against the target's key type. A text
        // key folds, as `employer.ID = x` does and as the foreign key's hash index keys it.
        return comparison(
          ctx,
          dc,
          node,
          { kind: 'storage', attr: attr.foreignKeyAttribute },
          target.key.type,
          target.key.type === 'string',
        )
      }
      return {
        kind: 'Join',
        dataClass: dc,
        relation: attr,
        target,
        inner: bindComparison(ctx, target, node, segments, at + 1),
      }
    }
    case 'relatedEntities': {
      const target = ctx.schema.byName.get(attr.target)!
      if (last) {
        if (!isNullValue(ctx, node.value) || !NULL_TESTS.has(node.op))
          invalid(
            `${where} is a to-many relation: compare one of its attributes (${where}.attribute), or null`,
          )
        // 4D code's `cars.query("reservations # Null")`: the entities with at least one related
        // entity (one whose key is not null); `= Null`, those with none.
        const withOne: BoundFilter = {
          kind: 'ReverseJoin',
          dataClass: dc,
          relation: attr,
          target,
          inner: bindComparison(
            ctx,
            target,
            { ...node, op: 'ne' },
            [...segments, { name: target.key.name }],
            at + 1,
          ),
        }
        return node.op === 'ne' || node.op === 'strictNe'
          ? withOne
          : { kind: 'Not', operand: withOne }
      }
      const reference = referenceOf(node.path)
      const through = (n: PathComparisonNode): BoundFilter => ({
        kind: 'ReverseJoin',
        dataClass: dc,
        relation: attr,
        target,
        inner: bindComparison(ctx, target, n, segments, at + 1),
        ...(reference === undefined ? {} : { reference }),
      })
      // `staff.lastName != 'Smith'` reads like a collection (4D's rule for `[]`): every related
      // value differs, none is null, and there is at least one. So: the entities with a related
      // value that differs, minus those with a related value that is equal or null.
      if ((node.op === 'ne' || node.op === 'strictNe') && !isNullValue(ctx, node.value)) {
        const eq = node.op === 'ne' ? 'eq' : 'strictEq'
        const equalOrNull: PathComparisonNode[] = [
          { ...node, op: eq },
          { ...node, op: 'eq', value: Ast.literal({ type: 'null', value: null }) },
        ]
        return {
          kind: 'Logical',
          op: 'Except',
          operands: [
            through(node),
            { kind: 'Logical', op: 'Or', operands: equalOrNull.map(through) },
          ],
        }
      }
      return through(node)
    }
    case 'calculated': {
      if (!last)
        invalid(`"${seg.name}" in ${where} is a calculated attribute, not a relation or an object`)
      // 4D has neither query nor orderBy functions for an entity or selection attribute.
      if (attr.related !== undefined)
        invalid(
          `"${seg.name}" in ${where} is computed as an entity or an entity selection: it cannot be queried`,
        )
      const rewritten = attr.query && computedComparison(ctx, dc, attr, node)
      if (rewritten) return rewritten
      return comparison(
        ctx,
        dc,
        node,
        { kind: 'calculated', attr },
        attr.type,
        attr.type === 'string',
      )
    }
    case 'storage': {
      // `embedding >= :1`: a vector search (4D 21), its placeholder holding the comparison.
      if (attr.vector && last && !seg.collection && !isNullValue(ctx, node.value)) {
        const raw =
          node.value.kind === 'Placeholder' ? placeholderValue(ctx, node.value) : undefined
        const value = vectorValue(String(where), node.op, raw, `${dc.name}.${attr.name}`)
        return {
          kind: 'Comparison',
          dataClass: dc,
          operand: { kind: 'storage', attr },
          op: node.op,
          value,
          type: undefined,
          folds: false,
        }
      }
      if (attr.type === 'object' && (!last || seg.collection)) {
        const steps: ObjectStep[] = segments.slice(at + 1).map(toStep)
        if (seg.collection) steps.unshift({ name: '', each: seg.collection })
        return comparison(ctx, dc, node, { kind: 'object', attr, steps }, undefined, true)
      }
      if (!last) invalid(`"${seg.name}" in ${where} is not a relation or an object attribute`)
      return comparison(ctx, dc, node, { kind: 'storage', attr }, attr.type, attr.type === 'string')
    }
  }
}

/**
 * `attr op value` as the filter the attribute's query function returns for the actual value, or
 * undefined for the default (see BindOptions.computedQueries and Ctx.rewriting).
 */
function computedComparison(
  ctx: Ctx,
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  node: PathComparisonNode,
): BoundFilter | undefined {
  if (ctx.options.computedQueries === false || ctx.rewriting?.includes(attr)) return undefined
  const v = node.value
  const value = v.kind === 'List' ? v.items.map((i) => rawOf(ctx, i)) : rawOf(ctx, v)
  const answer = computedFilter(dc, attr, node.op, value)
  if (!answer) return undefined
  const inner: Ctx = {
    schema: ctx.schema,
    options: { params: answer.params, reads: ctx.options.reads },
    rewriting: [...(ctx.rewriting ?? []), attr],
  }
  return {
    kind: 'Computed',
    dataClass: dc,
    attr,
    operator: answer.operator,
    value,
    inner: fromFunction(`the query function of ${dc.name}.${attr.name}`, () =>
      bindNode(inner, dc, answer.filter),
    ),
  }
}

const toStep = (s: PathSegment): ObjectStep =>
  s.collection ? { name: s.name, each: s.collection } : { name: s.name }

function comparison(
  ctx: Ctx,
  dc: DataClassDef,
  node: PathComparisonNode,
  operand: Operand,
  type: ValueType | undefined,
  folds: boolean,
): BoundComparison {
  const where = lazyText(() => `${pathText(node.path)} ${OPERATOR_TEXT[node.op]}`)
  const dateOnly = operand.kind === 'storage' ? operand.attr.dateOnly : true
  if (type === 'object' || type === 'image' || type === 'blob') {
    if (!(NULL_OPS.has(node.op) && isNullValue(ctx, node.value))) {
      invalid(
        `${pathText(node.path)} is of type ${type}: it can only be compared with null (or query one of its properties)`,
      )
    }
  }
  if (
    (node.op === 'begin' || node.op === 'contains') &&
    type !== undefined &&
    !TEXT_TYPES.has(type)
  ) {
    invalid(
      `"${node.op === 'begin' ? 'begin' : '%'}" needs a string attribute; ${pathText(node.path)} is of type ${type}`,
    )
  }
  const value = bindValue(ctx, node.value, node.op, type, dateOnly, folds, where)
  return { kind: 'Comparison', dataClass: dc, operand, op: node.op, value, type, folds }
}

/**
 * Within one AND, gathers comparisons that name the same lettered collection element
 * (`list[a].x`, `list[a].y`) into one Linked node; everything else stays as it is.
 */
function linkCollections(operands: BoundFilter[]): BoundFilter[] {
  const groups = new Map<
    string,
    { attr: StorageAttributeDef; prefix: ObjectStep[]; comparisons: BoundComparison[]; at: number }
  >()
  const out: (BoundFilter | null)[] = []
  for (const o of operands) {
    const split =
      o.kind === 'Comparison' && o.operand.kind === 'object'
        ? splitAtLetter(o.operand.steps)
        : undefined
    if (!split || o.kind !== 'Comparison' || o.operand.kind !== 'object') {
      out.push(o)
      continue
    }
    const id = `${o.dataClass.name}.${o.operand.attr.name}/${split.prefix.map((s) => `${s.name}[${s.each?.letter ?? ''}]`).join('.')}`
    let group = groups.get(id)
    if (!group) {
      group = { attr: o.operand.attr, prefix: split.prefix, comparisons: [], at: out.length }
      groups.set(id, group)
      out.push(null)
    }
    group.comparisons.push({
      ...o,
      operand: { kind: 'object', attr: o.operand.attr, steps: split.rest },
    })
  }
  for (const g of groups.values()) {
    const dc = (operands.find((o) => o.kind === 'Comparison') as BoundComparison).dataClass
    const linked: BoundLinked = {
      kind: 'Linked',
      dataClass: dc,
      attr: g.attr,
      prefix: g.prefix,
      comparisons: g.comparisons,
    }
    out[g.at] = linked
  }
  return out as BoundFilter[]
}

function splitAtLetter(
  steps: readonly ObjectStep[],
): { prefix: ObjectStep[]; rest: ObjectStep[] } | undefined {
  const i = steps.findIndex((s) => s.each && s.each.letter !== null)
  if (i < 0) return undefined
  return { prefix: steps.slice(0, i + 1), rest: steps.slice(i + 1) }
}
