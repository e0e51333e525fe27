/**
 * @module `$format=looker` (and `dashboard`, the same): a selection as a Looker Studio community
 * connector reads it. `schema` lists the attributes with a Looker `dataType` and `semantics`, each
 * row's `values` follow the schema's order, then `filtersApplied` (always false: the server applies
 * `$filter` itself), `__COUNT` and `__FIRST` — the key order of the real server's output.
 *
 * Only scalar attributes are listed: relations, pictures and BLOBs have no Looker type. Dates are
 * Looker's `YEAR_MONTH_DAY` text (`20240315`), date-times `YEAR_MONTH_DAY_SECOND` (`20240315093000`),
 * objects their JSON text.
 */
import type {
  AttributeDef,
  DataClassDef,
  Entity,
  EntitySelection,
  SchemaDef,
} from '@entistore/core'
import { computedValue, REFUSED } from './computed-value.js'
import { isShown } from './entity.js'
import { JsonChunks } from './json-chunks.js'
import { Page } from './page.js'
import type { Projection } from './projection.js'
import type { Window } from './selection.js'

interface Column {
  readonly attr: AttributeDef
  readonly schema: object
  readonly value: (v: unknown) => unknown
}

const NUMERIC = new Set(['byte', 'word', 'long', 'long64', 'number', 'duration'])

const semantics = (conceptType: string, semanticGroup: string, semanticType: string) => ({
  conceptType,
  semanticGroup,
  semanticType,
})

/** The value type an attribute reads as (an alias: the attribute its path ends on), or undefined. */
function valueType(
  schema: SchemaDef,
  dc: DataClassDef,
  attr: AttributeDef,
): { type: string; dateOnly: boolean } | undefined {
  switch (attr.kind) {
    case 'storage':
      return { type: attr.type, dateOnly: attr.dateOnly }
    case 'calculated':
      return { type: attr.type, dateOnly: false }
    case 'alias': {
      // Follow the path; the alias reads as the attribute it ends on (never an alias: model
      // loading resolves chains of aliases into one path).
      let owner: DataClassDef | undefined = dc
      let end: AttributeDef | undefined
      for (const step of attr.path) {
        end = owner?.attributesByName.get(step)
        if (end === undefined) return undefined
        if (step !== attr.path[attr.path.length - 1])
          owner = end.kind === 'relatedEntity' ? schema.byName.get(end.target) : undefined
      }
      return end && end.kind !== 'alias' && owner ? valueType(schema, owner, end) : undefined
    }
    default:
      return undefined
  }
}

const digits = (iso: string, length: number): string => iso.replace(/[^0-9]/g, '').slice(0, length)

function column(schema: SchemaDef, dc: DataClassDef, attr: AttributeDef): Column | undefined {
  const t = valueType(schema, dc, attr)
  if (!t) return undefined
  const entry = (dataType: string, s: object) => ({ name: attr.name, dataType, semantics: s })
  if (NUMERIC.has(t.type))
    return {
      attr,
      schema: entry('NUMBER', semantics('METRIC', 'NUMERIC', 'NUMBER')),
      value: (v) => v,
    }
  switch (t.type) {
    case 'string':
    case 'uuid':
      return {
        attr,
        schema: entry('STRING', semantics('DIMENSION', 'TEXT', 'TEXT')),
        value: (v) => v,
      }
    case 'bool':
      return {
        attr,
        schema: entry('BOOLEAN', semantics('DIMENSION', 'BOOLEAN', 'BOOLEAN')),
        value: (v) => v,
      }
    case 'date': {
      const [type, length] = t.dateOnly ? ['YEAR_MONTH_DAY', 8] : ['YEAR_MONTH_DAY_SECOND', 14]
      return {
        attr,
        schema: entry('STRING', semantics('DIMENSION', 'DATETIME', type as string)),
        value: (v) =>
          typeof v === 'string'
            ? digits(v, length as number)
            : v instanceof Date
              ? digits(v.toISOString(), length as number)
              : null,
      }
    }
    case 'object':
      return {
        attr,
        schema: entry('STRING', semantics('DIMENSION', 'TEXT', 'TEXT')),
        value: (v) => (v === null || v === undefined ? null : JSON.stringify(v)),
      }
    default:
      return undefined // image, blob
  }
}

/** The Looker form of the page `window` of `selection`, attributes as `projection` selects them. */
export function dashboard(
  selection: EntitySelection,
  window: Window,
  projection: Projection | undefined,
  shows?: (dc: DataClassDef, attr: AttributeDef) => boolean,
): JsonChunks {
  const dc = selection.dataClass.def
  const schema = selection.dataClass.datastore.schema
  const columns: Column[] = []
  for (const attr of dc.attributes) {
    if (!isShown(schema, attr) || (shows && !shows(dc, attr))) continue
    if (projection && !projection.all && !projection.members.has(attr.name)) continue
    const c = column(schema, dc, attr)
    if (c) columns.push(c)
  }
  const page = new Page(selection, window.skip, window.top)
  // A computed value whose code the session's rights refuse is null: a row keeps its places.
  const read = (e: Entity, attr: AttributeDef): unknown => {
    if (attr.kind !== 'calculated') return e.valueOf(attr)
    const v = computedValue(e, attr)
    return v === REFUSED ? null : v
  }
  const row = (e: Entity): string =>
    JSON.stringify({ values: columns.map((c) => c.value(read(e, c.attr) ?? null) ?? null) })
  return new JsonChunks(
    `{"schema":${JSON.stringify(columns.map((c) => c.schema))},"rows":[`,
    page.length,
    (i) => {
      const e = page.at(i)
      return e ? row(e) : undefined
    },
    `],"filtersApplied":false,"__COUNT":${selection.length},"__FIRST":${window.skip}}`,
    undefined,
    () => page.release(),
  )
}
