/**
 * @module Plans in words. One plan tree, three renderings:
 *
 * - `queryPlanOf`: 4D's simplified plan, `{And: [{item}, {item, subquery: [...]}]}`; an item read
 *   through an index is written `[index : Employee.salary ] < 50000`, as 4D does;
 * - `extendedQueryPlanOf`: 4D's detailed plan (`LogicOperatorNode`, `JoinNode` with `joinPath`,
 *   `SeqNode` with `field`, `table`, `instance`, `oper`, `value`), plus `index` on indexed nodes;
 * - `queryPathOf` / `extendedQueryPathOf`: the same after execution, with each step's `time` (ms)
 *   and `recordsfounds`;
 * - `explainText`: a SQLite-style tree (`SEARCH Employee USING HASH INDEX lastName (lastName=?)`)
 *   for people reading logs.
 *
 * A comparison that a computed attribute's query function replaced is kept as a node of its own
 * over the plan of the filter the function returned: `Employee.fullName == Ann Smith : replaced by
 * its query function's filter`, with that filter's items below (a `subquery`, as joins show theirs).
 *
 * A dataclass's `restrict` (visibility.ts) leaves the plan alone: the plan is the same for every
 * session. The query path counts, at each step, only the rows the session may see (execute.ts),
 * in 4D's shapes. `explainText` says where the rows are narrowed, with a `RESTRICT` line under each
 * join into a restricted dataclass and one for the query's own, and its estimates never exceed the
 * visible rows of their dataclass.
 *
 * Operators are spelled as 4D prints them: `===` for equality without wildcards (the current
 * server prints `=` that way), `LIKE` with wildcards, `#` for not-equal, `begin`, `IN`, `%%`.
 */
import type { ComparisonOp } from './ast.js'
import type { BoundComparison, CmpValue, ObjectStep, Operand } from './bound.js'
import { dataClassOfPlan, mergeTextEqualities } from './plan-reading.js'
import type { PathStep } from './exec-context.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { AllowedRows } from './visibility.js'
import {
  isIndexed,
  leafPlan,
  type ComputedPlan,
  type LeafPlan,
  type PlanNode,
  type SetPlan,
} from './plan.js'
import { onePassPatterns } from './predicate.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

function operator(c: BoundComparison): string {
  const wild =
    c.value.kind === 'value'
      ? !!c.value.pattern
      : c.value.kind === 'list' && c.value.items.some((i) => i.kind === 'value' && !!i.pattern)
  const table: Readonly<Record<ComparisonOp, string>> = {
    eq: wild ? 'LIKE' : '===',
    strictEq: '===',
    ne: wild ? 'NOT LIKE' : '#',
    strictNe: '!==',
    lt: '<',
    gt: '>',
    le: '<=',
    ge: '>=',
    begin: 'begin',
    in: 'IN',
    contains: '%%',
  }
  return table[c.op]
}

/** `extra.hobbies[]`, `places[a].kind`: object steps as written in a query. */
function stepsText(steps: readonly ObjectStep[]): string {
  let out = ''
  for (const step of steps) {
    if (step.name !== '') out += (out === '' ? '' : '.') + step.name
    if (step.each) out += `[${step.each.letter ?? ''}]`
  }
  return out
}

function fieldOf(o: Operand, prefix: readonly ObjectStep[] = []): string {
  if (o.kind !== 'object') return o.attr.name
  return stepsText([{ name: o.attr.name }, ...prefix, ...o.steps])
}

function valueOf(v: CmpValue): Json {
  if (v.kind === 'null') return null
  if (v.kind === 'list') return v.items.map(valueOf)
  return v.shown
}

const valueText = (v: Json): string =>
  Array.isArray(v) ? `[${v.map(valueText).join(', ')}]` : String(v)

/** A value as a query function received it (as given, uncoerced), for plans. */
function rawValue(v: unknown): Json {
  if (v === null || v === undefined) return null
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (v instanceof Date) return v.toISOString()
  if (Array.isArray(v)) return v.map(rawValue)
  return String(v)
}

/** `Employee.fullName == Ann Smith : replaced by its query function's filter` */
function computedItem(node: ComputedPlan): string {
  const b = node.bound
  return `${b.dataClass.name}.${b.attr.name} ${b.operator} ${valueText(rawValue(b.value))} : replaced by its query function's filter`
}

/** `Employee.salary > 5000`, or `[index : Employee.salary ] > 5000` when an index answers it. */
export function leafItem(leaf: LeafPlan): string {
  const c = leaf.bound
  const name = `${c.dataClass.name}.${fieldOf(c.operand)}`
  const target = leaf.access.kind === 'scan' ? name : `[index : ${name} ]`
  return `${target} ${operator(c)} ${valueText(valueOf(c.value))}`
}

function joinItem(node: Extract<PlanNode, { kind: 'Join' | 'ReverseJoin' }>): string {
  const b = node.bound
  if (node.kind === 'Join') {
    const rel = node.bound.relation
    return `Join on Table : ${b.target.name} : ${b.dataClass.name}.${rel.foreignKey} = ${b.target.name}.${b.target.key.name}`
  }
  const inverse = b.target.attributesByName.get(node.bound.relation.inverse)
  const fk =
    inverse && inverse.kind === 'relatedEntity' ? inverse.foreignKey : node.bound.relation.inverse
  // Another reference of the relation (a class index, `roles.actor{2}`) is a join of its own.
  const reference =
    node.bound.reference === undefined ? '' : ` (class index ${node.bound.reference})`
  return `Join on Table : ${b.target.name} : ${b.dataClass.name}.${b.dataClass.key.name} = ${b.target.name}.${fk}${reference}`
}

const LOGIC: Readonly<Record<'And' | 'Or' | 'Except' | 'Not', string>> = {
  And: 'And',
  Or: 'Or',
  Except: 'Except',
  Not: 'Not',
}

/** 4D's `queryPlan` object. */
export function queryPlanOf(node: PlanNode): JsonObject {
  switch (node.kind) {
    case 'Leaf':
      return { item: leafItem(node) }
    case 'Linked':
      return {
        [LOGIC.And]: node.bound.comparisons.map((c) => ({
          item: `${c.dataClass.name}.${fieldOf(c.operand, node.bound.prefix)} ${operator(c)} ${valueText(valueOf(c.value))}`,
        })),
      }
    case 'Join':
    case 'ReverseJoin':
      return { item: joinItem(node), subquery: [queryPlanOf(node.inner)] }
    case 'Computed':
      return { item: computedItem(node), subquery: [queryPlanOf(node.inner)] }
    case 'And':
    case 'Or':
    case 'Except':
      return { [LOGIC[node.kind]]: node.operands.map(queryPlanOf) }
    case 'Not':
      return { [LOGIC.Not]: [queryPlanOf(node.operand)] }
  }
}

function fieldOfPrefix(node: Extract<PlanNode, { kind: 'Linked' }>): string {
  return node.bound.prefix
    .map((s) => (s.name === '' ? '' : s.name) + (s.each ? `[${s.each.letter ?? ''}]` : ''))
    .join('.')
}

function seqNode(leaf: LeafPlan, prefix: readonly ObjectStep[] = []): JsonObject {
  const c = leaf.bound
  const out: JsonObject = {
    type: 'SeqNode',
    field: fieldOf(c.operand, prefix),
    table: c.dataClass.name,
    instance: 0,
    oper: ` ${operator(c)} `,
    value: valueOf(c.value),
  }
  if (leaf.access.kind !== 'scan') out.index = leaf.access.kind === 'hash' ? 'hash' : 'sorted'
  return out
}

/** 4D's `extendedQueryPlan` object. */
export function extendedQueryPlanOf(node: PlanNode): JsonObject {
  switch (node.kind) {
    case 'Leaf':
      return seqNode(node)
    case 'Linked':
      return {
        type: 'LogicOperatorNode',
        logicOper: 'And',
        linked: fieldOfPrefix(node),
        parts: node.bound.comparisons.map((c) => seqNode(leafPlan(c, { kind: 'scan' }, 0))),
      }
    case 'Join':
    case 'ReverseJoin': {
      const b = node.bound
      const forward = node.kind === 'Join'
      const inverse = forward
        ? undefined
        : b.target.attributesByName.get((b as { relation: { inverse: string } }).relation.inverse)
      const rightField = forward
        ? b.target.key.name
        : inverse && inverse.kind === 'relatedEntity'
          ? inverse.foreignKey
          : b.target.key.name
      return {
        type: 'JoinNode',
        targetTable: b.target.name,
        instance: 0,
        joinPath: [
          {
            leftTable: b.dataClass.name,
            leftField: forward
              ? (node.bound as { relation: { foreignKey: string } }).relation.foreignKey
              : b.dataClass.key.name,
            leftInstance: 0,
            rightTable: b.target.name,
            rightField,
            rightInstance: 0,
          },
        ],
        filter: extendedQueryPlanOf(node.inner),
      }
    }
    case 'Computed': {
      // Not a 4D node: the comparison the query function received, and the filter it returned.
      const b = node.bound
      return {
        type: 'ComputedNode',
        field: b.attr.name,
        table: b.dataClass.name,
        instance: 0,
        oper: ` ${b.operator} `,
        value: rawValue(b.value),
        filter: extendedQueryPlanOf(node.inner),
      }
    }
    case 'And':
    case 'Or':
    case 'Except':
      return {
        type: 'LogicOperatorNode',
        logicOper: LOGIC[node.kind],
        parts: node.operands.map(extendedQueryPlanOf),
      }
    case 'Not':
      return {
        type: 'LogicOperatorNode',
        logicOper: 'Not',
        parts: [extendedQueryPlanOf(node.operand)],
      }
  }
}

function description(node: PlanNode): string {
  switch (node.kind) {
    case 'Leaf':
      return leafItem(node)
    case 'Linked':
      return 'AND'
    case 'Join':
    case 'ReverseJoin':
      return joinItem(node)
    case 'Computed':
      return computedItem(node)
    case 'And':
      return 'AND'
    case 'Or':
      return 'OR'
    case 'Except':
      return 'EXCEPT'
    case 'Not':
      return 'NOT'
  }
}

function pathStep(step: PathStep): JsonObject {
  const out: JsonObject = {
    description: description(step.node),
    time: step.time,
    recordsfounds: step.found,
  }
  if (step.node.kind === 'Join' || step.node.kind === 'ReverseJoin') {
    // 4D wraps a join's inner steps in one more {steps: […]} level.
    out.steps = [{ steps: step.children.map(pathStep) }]
  } else if (step.children.length > 0) {
    out.steps = step.children.map(pathStep)
  }
  return out
}

/** 4D's `queryPath` object, from an execution. */
export function queryPathOf(step: PathStep): JsonObject {
  return { steps: [pathStep(step)] }
}

/** 4D's `extendedQueryPath` object: the extended plan with `timeTaken` and `foundRecords` on each node. */
export function extendedQueryPathOf(step: PathStep): JsonObject {
  const node = extendedQueryPlanOf(step.node)
  const decorate = (obj: JsonObject, s: PathStep): JsonObject => {
    if ((obj.type === 'JoinNode' || obj.type === 'ComputedNode') && s.children[0])
      obj.filter = decorate(obj.filter as JsonObject, s.children[0])
    if (
      obj.type === 'LogicOperatorNode' &&
      Array.isArray(obj.parts) &&
      s.children.length <= obj.parts.length
    ) {
      // An AND stops after a part that finds nothing: the parts it ran still get their counts,
      // the ones it skipped have no step.
      obj.parts = obj.parts.map((p, i) => {
        const child = s.children[i]
        return child ? decorate(p as JsonObject, child) : p
      })
    }
    obj.timeTaken = s.time
    obj.foundRecords = s.found
    return obj
  }
  return decorate(node, step)
}

/** What a node is to its parent in explainText: an AND's driver or filter, or a part of the rest. */
type Role = 'driver' | 'filter' | 'part'

/** What a query's dataclasses' `restrict` events let the session see, for explainText. */
export interface ExplainRestriction {
  /** The query's dataclass. */
  readonly root: DataClassDef
  /** The rows of each dataclass the session may see; undefined when nothing is restricted. */
  readonly allowed: AllowedRows | undefined
}

/** `RESTRICT Company BY ITS restrict EVENT (1 row)`: where a dataclass's rows are narrowed. */
const restrictLine = (dc: DataClassDef, n: number): string =>
  `RESTRICT ${dc.name} BY ITS restrict EVENT (${n} ${n === 1 ? 'row' : 'rows'})`

/**
 * A SQLite-style plan, one line per node: SEARCH (index), SCAN, FILTER, JOIN. It tells how a query
 * runs without a query path (one asked for runs each part of an AND or an OR by itself).
 */
export function explainText(
  node: PlanNode | null,
  orderLine?: string,
  restriction?: ExplainRestriction,
): string {
  const lines: string[] = ['QUERY PLAN']
  const allowed = restriction?.allowed
  // An estimate is of the stored rows: never more than the session may see of its dataclass.
  const estimate = (n: PlanNode): number => {
    const rows = allowed?.(dataClassOfPlan(n))
    return rows === undefined ? n.estimate : Math.min(n.estimate, rows.size)
  }
  // `tested`: the executor runs the node as a test of each row (predicateOf), not by itself.
  const walk = (
    n: PlanNode | string,
    prefix: string,
    last: boolean,
    role: Role,
    tested: boolean,
  ): void => {
    if (typeof n === 'string') {
      lines.push(`${prefix}${last ? '`--' : '|--'}${n}`)
      return
    }
    lines.push(`${prefix}${last ? '`--' : '|--'}${label(n, role, tested, estimate(n))}`)
    const kids: [PlanNode | string, Role, boolean][] =
      n.kind === 'And'
        ? n.operands.map((o, i) =>
            i === 0 && n.driven ? [o, 'driver', tested] : [o, 'filter', true],
          )
        : n.kind === 'Or'
          ? n.operands.map((o) => [o, 'part', tested || !isIndexed(o)])
          : n.kind === 'Except'
            ? n.operands.map((o) => [o, 'part', tested])
            : n.kind === 'Not'
              ? [[n.operand, 'part', tested]]
              : n.kind === 'Join' || n.kind === 'ReverseJoin'
                ? [[n.inner, 'part', false], ...restrictOf(n.bound.target)]
                : n.kind === 'Computed'
                  ? [[n.inner, role === 'filter' ? 'filter' : 'part', tested]]
                  : []
    kids.forEach(([k, r, t], i) =>
      walk(k, prefix + (last ? '   ' : '|  '), i === kids.length - 1, r, t),
    )
  }
  // The line of a restricted dataclass, as a child of what reads it.
  function restrictOf(dc: DataClassDef): [string, Role, boolean][] {
    const rows = allowed?.(dc)
    return rows === undefined ? [] : [[restrictLine(dc, rows.size), 'part', false]]
  }
  const all: (PlanNode | string)[] = []
  if (node) all.push(node)
  else if (restriction && allowed?.(restriction.root) !== undefined) all.push('SCAN (every entity)')
  if (restriction) all.push(...restrictOf(restriction.root).map(([line]) => line))
  if (orderLine) all.push(orderLine)
  all.forEach((n, i) => walk(n, '', i === all.length - 1, 'part', false))
  if (all.length === 0) lines.push('`--SCAN (every entity)')
  return lines.join('\n')
}

/** ` one pass over 10 patterns`: when a leaf tested per row checks its `@x@` patterns together. */
function onePass(c: BoundComparison): string {
  const n = onePassPatterns(c)
  return n > 0 ? ` one pass over ${n} patterns` : ''
}

/**
 * `; body: one pass over 10 patterns`: the attributes whose equalities an OR tests together (see
 * fusedOr), when their `@x@` patterns are then checked in one pass. The executor merges the
 * operands it tests per row: all of them when the OR is itself a test, else those not indexed.
 */
function orOnePass(n: SetPlan, tested: boolean): string {
  const parts = tested ? n.operands : n.operands.filter((o) => !isIndexed(o))
  const said = mergeTextEqualities(parts)
    .filter((o): o is LeafPlan => o.kind === 'Leaf' && !parts.includes(o))
    .map((o) => ({ field: fieldOf(o.bound.operand), pass: onePass(o.bound) }))
    .filter((o) => o.pass !== '')
    .map((o) => `${o.field}:${o.pass}`)
  return said.length > 0 ? `; ${said.join(', ')}` : ''
}

function label(n: PlanNode, role: Role, tested: boolean, estimate: number): string {
  const est = ` ~${estimate} rows`
  switch (n.kind) {
    case 'Leaf': {
      const c = n.bound
      const term = (b: BoundComparison): string =>
        `${fieldOf(b.operand)}${operator(b) === '===' ? '=' : ` ${operator(b)} `}?`
      const other = n.access.kind === 'sorted' ? n.access.otherBound : undefined
      const cond = `(${term(c)}${other ? ` AND ${term(other)}` : ''})`
      if (role === 'filter') {
        return `FILTER ${c.dataClass.name} (${term(c)})${n.covered ? ' covered by the index range' : onePass(c)}`
      }
      if (n.access.kind === 'scan') return `SCAN ${c.dataClass.name} ${cond}${onePass(c)}${est}`
      const how =
        n.access.kind === 'hash'
          ? n.access.via === 'key'
            ? 'PRIMARY KEY'
            : 'HASH INDEX'
          : 'SORTED INDEX'
      const verify = n.access.kind === 'sorted' && n.access.verify ? ' then re-check' : ''
      return `SEARCH ${c.dataClass.name} USING ${how} ${fieldOf(c.operand)} ${cond}${verify}${est}`
    }
    case 'Linked':
      return `${role === 'filter' ? 'FILTER' : 'SCAN'} ${n.bound.dataClass.name} (same element of ${fieldOfPrefix(n)})`
    case 'Join':
    case 'ReverseJoin':
      return `${role === 'filter' ? 'FILTER BY ' : ''}JOIN ${joinItem(n).replace('Join on Table : ', '')} USING HASH INDEX${est}`
    case 'Computed': {
      const b = n.bound
      const how = role === 'filter' ? 'FILTER BY' : 'COMPUTED'
      return `${how} ${b.dataClass.name} (${b.attr.name} ${b.operator} ?) REPLACED BY ITS QUERY FUNCTION'S FILTER${role === 'filter' ? '' : est}`
    }
    case 'And':
      return n.driven ? `AND${est}` : `AND (one scan)${est}`
    case 'Or':
      return `OR (union${orOnePass(n, tested)})${est}`
    case 'Except':
      return `EXCEPT (difference)${est}`
    case 'Not':
      return `NOT (complement)${est}`
  }
}
