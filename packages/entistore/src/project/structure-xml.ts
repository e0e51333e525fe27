/**
 * @module 4D's structure file (Project/Sources/catalog.4DCatalog) read into its tables, fields,
 * primary keys, relations and indexes, each with its place in the file. What the file says is
 * checked here (a type code 4D does not have, a relation to a table or field the file does not
 * declare, a flag that is not true or false): a StructureError names the place. What the
 * structure means for the catalog (what is served, what is noted) is structure-model.ts's.
 *
 * The elements and attributes read are those of 4D's DTD (base.dtd) as 4D writes them; elements
 * and attributes this reader does not use (the editor's colours and coordinates, comments, the
 * journal's settings) are passed over, as 4D adds new ones over time.
 */
import { FIELD_TYPES } from './field-types.js'
import type { XmlElement, XmlPlace } from './xml-reader.js'

/** A mistake in the structure file, at a place in it. */
export class StructureError extends Error {
  override readonly name = 'StructureError'
  constructor(
    message: string,
    readonly place: XmlPlace,
  ) {
    super(message)
  }
}

export interface StructureField extends XmlPlace {
  readonly name: string
  readonly uuid: string | undefined
  /** The field number (`id`): the catalog's fieldPos. */
  readonly id: number | undefined
  readonly typeCode: number
  /** Alpha's length; undefined for Text and the other types. */
  readonly limitingLength: number | undefined
  readonly unique: boolean
  readonly autosequence: boolean
  readonly autogenerate: boolean
  readonly notNull: boolean
  readonly neverNull: boolean
  readonly storeAsUuid: boolean
  /** "Expose as REST resource" unchecked. */
  readonly hidden: boolean
  /** The class an object field is restricted to (`class_id`, `4D.Vector`). */
  readonly classId: string | undefined
  readonly multiLine: boolean
}

export interface StructureTable extends XmlPlace {
  readonly name: string
  readonly uuid: string | undefined
  /** The table number (`id`): the catalog's tableNumber. */
  readonly id: number | undefined
  readonly hidden: boolean
  /** In the Trash (`<table_extra trashed="true">`): no longer part of the structure. */
  readonly trashed: boolean
  readonly fields: readonly StructureField[]
  readonly primaryKey: readonly StructureField[]
  /** The triggers the table declares (`insert`, `update`, `delete`, `load`). */
  readonly triggers: readonly string[]
}

/** A field a relation or an index names, resolved. */
export interface FieldRef {
  readonly table: StructureTable
  readonly field: StructureField
}

export interface StructureRelation extends XmlPlace {
  readonly uuid: string | undefined
  readonly nameNto1: string | undefined
  readonly name1toN: string | undefined
  /** The N side: the field that holds the related key. */
  readonly source: FieldRef
  /** The 1 side: the field the source's values name. */
  readonly destination: FieldRef
  /** What deleting an entity of the 1 side does to the N side: `none`, `reject`, `delete`. */
  readonly integrity: string
}

export interface StructureIndex extends XmlPlace {
  readonly name: string | undefined
  readonly kind: string
  readonly uniqueKeys: boolean
  readonly fields: readonly FieldRef[]
}

export interface Structure {
  /** The base's name (`<base name>`). */
  readonly name: string | undefined
  readonly tables: readonly StructureTable[]
  readonly relations: readonly StructureRelation[]
  readonly indexes: readonly StructureIndex[]
}

const KNOWN_CODES = [...FIELD_TYPES].map(([code, t]) => `${code} ${t.fourD}`).join(', ')

const attribute = (el: XmlElement, name: string): string | undefined =>
  el.attributes.get(name)?.value

/** A true/false attribute: absent is false; anything but `true` or `false` is refused. */
function flag(el: XmlElement, name: string): boolean {
  const a = el.attributes.get(name)
  if (a === undefined) return false
  if (a.value !== 'true' && a.value !== 'false')
    throw new StructureError(`${name} must be "true" or "false", got "${a.value}"`, a)
  return a.value === 'true'
}

/** A non-negative integer attribute, or undefined when absent. */
function integer(el: XmlElement, name: string, what: string): number | undefined {
  const a = el.attributes.get(name)
  if (a === undefined) return undefined
  if (!/^\d+$/.test(a.value))
    throw new StructureError(`${what}: ${name} must be a number, got "${a.value}"`, a)
  return Number(a.value)
}

function required(el: XmlElement, name: string, what: string): string {
  const value = attribute(el, name)
  if (value === undefined || value === '')
    throw new StructureError(`${what} has no ${name} attribute`, el)
  return value
}

const childrenNamed = (el: XmlElement, name: string): XmlElement[] =>
  el.children.filter((c) => c.name === name)

function readField(el: XmlElement, table: string): StructureField {
  const name = required(el, 'name', `a field of table ${table}`)
  const what = `field ${table}.${name}`
  const typeAt = el.attributes.get('type')
  if (typeAt === undefined) throw new StructureError(`${what} has no type attribute`, el)
  const code = /^\d+$/.test(typeAt.value) ? Number(typeAt.value) : undefined
  if (code === undefined || !FIELD_TYPES.has(code))
    throw new StructureError(
      `${what}: unknown field type code "${typeAt.value}" (4D's codes: ${KNOWN_CODES})`,
      typeAt,
    )
  const extra = childrenNamed(el, 'field_extra')[0]
  return {
    name,
    line: el.line,
    column: el.column,
    uuid: attribute(el, 'uuid'),
    id: integer(el, 'id', what),
    typeCode: code,
    limitingLength: integer(el, 'limiting_length', what),
    unique: flag(el, 'unique'),
    autosequence: flag(el, 'autosequence'),
    autogenerate: flag(el, 'autogenerate'),
    notNull: flag(el, 'not_null'),
    neverNull: flag(el, 'never_null'),
    storeAsUuid: flag(el, 'store_as_UUID'),
    hidden: flag(el, 'hide_in_REST'),
    // 4D writes the class on the field; older files put it in field_extra.
    classId: attribute(el, 'class_id') ?? (extra && attribute(extra, 'class_id')) ?? undefined,
    multiLine: extra !== undefined && attribute(extra, 'multi_line') === 'true',
  }
}

const TRIGGERS = ['insert', 'update', 'delete', 'load'] as const

function readTable(el: XmlElement): StructureTable {
  const name = required(el, 'name', 'a table')
  const fields = childrenNamed(el, 'field').map((f) => readField(f, name))
  // 4D's names are case-insensitive. Old structures hold two fields of one name (fields renamed
  // `weg`, "gone"): a key named by name is the first; structure-model.ts serves the first alone.
  const byName = new Map<string, StructureField>()
  for (const f of fields) if (!byName.has(f.name.toLowerCase())) byName.set(f.name.toLowerCase(), f)
  const primaryKey = childrenNamed(el, 'primary_key').map((pk) => {
    const fieldName = required(pk, 'field_name', `the primary key of table ${name}`)
    const uuid = attribute(pk, 'field_uuid')
    const field =
      (uuid === undefined ? undefined : fields.find((f) => f.uuid === uuid)) ??
      byName.get(fieldName.toLowerCase())
    if (!field)
      throw new StructureError(
        `the primary key of table ${name} names no field of it: ${fieldName}`,
        pk,
      )
    return field
  })
  const extra = childrenNamed(el, 'table_extra')[0]
  return {
    name,
    line: el.line,
    column: el.column,
    uuid: attribute(el, 'uuid'),
    id: integer(el, 'id', `table ${name}`),
    hidden: flag(el, 'hide_in_REST'),
    trashed: extra !== undefined && flag(extra, 'trashed'),
    fields,
    primaryKey,
    triggers: extra ? TRIGGERS.filter((t) => flag(extra, `trigger_${t}`)) : [],
  }
}

/** The tables of the file, found by uuid (the reference 4D keeps) or by name. */
class Tables {
  readonly #byUuid = new Map<string, StructureTable>()
  readonly #byName = new Map<string, StructureTable>()
  constructor(readonly list: readonly StructureTable[]) {
    for (const t of list) {
      const key = t.name.toLowerCase()
      if (this.#byName.has(key)) throw new StructureError(`two tables are named ${t.name}`, t)
      this.#byName.set(key, t)
      if (t.uuid !== undefined) this.#byUuid.set(t.uuid.toUpperCase(), t)
    }
  }

  /** The field a `<field_ref>` (with its `<table_ref>`) names. */
  resolve(ref: XmlElement, what: string): FieldRef {
    const tableRef = childrenNamed(ref, 'table_ref')[0]
    if (!tableRef) throw new StructureError(`${what}: <field_ref> has no <table_ref>`, ref)
    const tableName = attribute(tableRef, 'name')
    const tableUuid = attribute(tableRef, 'uuid')
    const table =
      (tableUuid === undefined ? undefined : this.#byUuid.get(tableUuid.toUpperCase())) ??
      (tableName === undefined ? undefined : this.#byName.get(tableName.toLowerCase()))
    if (!table)
      throw new StructureError(
        `${what} names a table the structure does not have: ${tableName ?? tableUuid ?? '(no name)'}`,
        tableRef,
      )
    const fieldName = attribute(ref, 'name')
    const fieldUuid = attribute(ref, 'uuid')
    const field =
      (fieldUuid === undefined
        ? undefined
        : table.fields.find((f) => f.uuid?.toUpperCase() === fieldUuid.toUpperCase())) ??
      (fieldName === undefined
        ? undefined
        : table.fields.find((f) => f.name.toLowerCase() === fieldName.toLowerCase()))
    if (!field)
      throw new StructureError(
        `${what} names a field table ${table.name} does not have: ${fieldName ?? fieldUuid ?? '(no name)'}`,
        ref,
      )
    return { table, field }
  }
}

function readRelation(el: XmlElement, tables: Tables): StructureRelation {
  const nameNto1 = attribute(el, 'name_Nto1') || undefined
  const name1toN = attribute(el, 'name_1toN') || undefined
  const what = `relation ${nameNto1 ?? name1toN ?? attribute(el, 'uuid') ?? ''}`.trimEnd()
  const side = (kind: string): FieldRef => {
    const related = el.children.find(
      (c) => c.name === 'related_field' && attribute(c, 'kind') === kind,
    )
    const ref = related && childrenNamed(related, 'field_ref')[0]
    if (!ref)
      throw new StructureError(`${what} has no ${kind} field (<related_field kind="${kind}">)`, el)
    return tables.resolve(ref, what)
  }
  return {
    line: el.line,
    column: el.column,
    uuid: attribute(el, 'uuid'),
    nameNto1,
    name1toN,
    source: side('source'),
    destination: side('destination'),
    integrity: attribute(el, 'integrity') ?? 'none',
  }
}

function readIndex(el: XmlElement, tables: Tables): StructureIndex {
  const name = attribute(el, 'name')
  const what = `index ${name ?? attribute(el, 'uuid') ?? ''}`.trimEnd()
  const refs = childrenNamed(el, 'field_ref')
  if (refs.length === 0) throw new StructureError(`${what} names no field`, el)
  return {
    line: el.line,
    column: el.column,
    name,
    kind: attribute(el, 'kind') ?? 'regular',
    uniqueKeys: flag(el, 'unique_keys'),
    fields: refs.map((r) => tables.resolve(r, what)),
  }
}

/** The structure a catalog.4DCatalog's root element holds. @throws StructureError */
export function readStructure(root: XmlElement): Structure {
  if (root.name !== 'base')
    throw new StructureError(
      `the root element is <${root.name}>: a structure file's is <base>`,
      root,
    )
  const tables = new Tables(childrenNamed(root, 'table').map(readTable))
  return {
    name: attribute(root, 'name'),
    tables: tables.list,
    relations: childrenNamed(root, 'relation').map((r) => readRelation(r, tables)),
    indexes: childrenNamed(root, 'index').map((i) => readIndex(i, tables)),
  }
}
