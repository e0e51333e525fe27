/**
 * @module The value side of a bound comparison: a literal or a placeholder's parameter coerced to the
 * attribute's type as 4D coerces it ("20" is 20 for a number), a value that cannot be converted an
 * error rather than an empty result.
 */
import { datastoreError, fail } from '../errors/datastore-error.js'
import type { ValueType } from '../schema/model-json.js'
import { CoercionError, coerceToType, describeValue } from '../values/coerce.js'
import { textDate } from '../values/dates.js'
import type { ComparisonOp, LiteralNode, PlaceholderNode, ValueNode } from './ast.js'
import type { CmpValue } from './bound.js'
import { sortKey } from '../values/compare.js'
import { fold, hasWildcard, patternShape, wildcardMatcher, wildcardPrefix } from '../values/fold.js'
import {
  type Ctx,
  WILDCARD_OPS,
  NULL_OPS,
  RANGE_OPS,
  TEXT_TYPES,
  type LazyText,
  invalid,
  comparisonType,
} from './bind-context.js'

export function isNullValue(ctx: Ctx, v: ValueNode): boolean {
  if (v.kind === 'Literal') return v.type === 'null'
  if (v.kind === 'Placeholder') return placeholderValue(ctx, v) === null
  return false
}

export function placeholderValue(ctx: Ctx, p: PlaceholderNode): unknown {
  if (p.index !== undefined) {
    const params = ctx.options.params ?? []
    if (p.index > params.length) fail('PlaceholderOutOfRange', [`:${p.index}`, params.length])
    return params[p.index - 1]
  }
  const named = ctx.options.named ?? {}
  if (Object.hasOwn(named, p.name)) return named[p.name]
  // `:extraInfo.name`: a property of a named value (4D's query() page, named placeholders).
  const [head, ...props] = p.name.split('.')
  if (props.length === 0 || !Object.hasOwn(named, head!))
    fail('PlaceholderOutOfRange', [`:${p.name}`, Object.keys(named).length])
  return props.reduce<unknown>(
    (v, prop) =>
      typeof v === 'object' && v !== null && Object.hasOwn(v, prop)
        ? (v as Record<string, unknown>)[prop]
        : undefined,
    named[head!],
  )
}

export function bindValue(
  ctx: Ctx,
  v: ValueNode,
  op: ComparisonOp,
  type: ValueType | undefined,
  dateOnly: boolean,
  folds: boolean,
  where: LazyText,
): CmpValue {
  if (op === 'in') {
    const items: unknown[] =
      v.kind === 'List'
        ? v.items.map((i) => rawOf(ctx, i))
        : (() => {
            const raw = rawOf(ctx, v)
            if (!Array.isArray(raw))
              return invalid(`${where} needs a list: [a, b] or a placeholder holding an array`)
            return raw
          })()
    return {
      kind: 'list',
      items: items.map((item) => scalar(item, op, type, dateOnly, folds, where)),
    }
  }
  if (v.kind === 'List') return invalid(`a list can only follow IN (${where})`)
  return scalar(rawOf(ctx, v), op, type, dateOnly, folds, where)
}

export function rawOf(ctx: Ctx, v: LiteralNode | PlaceholderNode): unknown {
  return v.kind === 'Placeholder' ? placeholderValue(ctx, v) : v.value
}

function scalar(
  raw: unknown,
  op: ComparisonOp,
  type: ValueType | undefined,
  dateOnly: boolean,
  folds: boolean,
  where: LazyText,
): CmpValue {
  if (raw === null || raw === undefined) {
    if (!NULL_OPS.has(op) && op !== 'in')
      invalid(`${where} null: null can only be compared with =, !=, ===, !==`)
    return { kind: 'null' }
  }
  if (raw instanceof Date) raw = raw.toISOString()
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    return invalid(`${where}: ${describeValue(raw)} is not a value that can be compared`)
  }
  // Wildcards are text: they keep the value a string whatever the attribute.
  const wild =
    typeof raw === 'string' &&
    (WILDCARD_OPS.has(op) || op === 'begin' || op === 'contains') &&
    hasWildcard(raw)
  let value: string | number | boolean = raw
  if (type !== undefined && !(wild && TEXT_TYPES.has(type))) {
    if (wild) invalid(`${where} ${JSON.stringify(raw)}: wildcards apply to string attributes only`)
    try {
      // 4D "will try to convert the value type to the attribute data type whenever possible"
      // (DataClassClass.md, `.query()`): a date compared with a date written as 4D's Date reads.
      const given = type === 'date' && typeof raw === 'string' ? (textDate(raw) ?? raw) : raw
      const coerced = coerceToType(comparisonType(type), given, dateOnly)
      value = coerced as string | number | boolean
    } catch (e) {
      if (!(e instanceof CoercionError)) throw e
      throw datastoreError('InvalidComparison', [
        `${where} ${describeValue(raw)}: ${e.message} (the attribute is of type ${type})`,
      ])
    }
  }
  if (op === 'begin') {
    const folded = folds && typeof value === 'string' ? fold(value) : String(value)
    return {
      kind: 'value',
      key: folded,
      shown: value,
      pattern: {
        match: (s) => s.startsWith(folded),
        prefix: folded,
        shape: { kind: 'prefix', text: folded },
      },
    }
  }
  if (RANGE_OPS.has(op) && typeof value === 'boolean' && type !== 'bool')
    invalid(`${where} ${value}: booleans are not ordered`)
  const key = sortKey(value, folds)
  if (wild && typeof value === 'string') {
    const folded = fold(value)
    return {
      kind: 'value',
      key,
      shown: value,
      pattern: {
        match: wildcardMatcher(folded),
        prefix: wildcardPrefix(folded),
        shape: patternShape(folded),
      },
    }
  }
  return { kind: 'value', key, shown: value }
}
