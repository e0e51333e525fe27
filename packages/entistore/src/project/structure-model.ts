/**
 * @module A 4D structure (structure-xml.ts) as the model Entistore serves: the catalog a 4D server
 * gives for it. Tables become dataclasses, fields storage attributes, relations their N→1 and 1→N
 * attributes, by 4D's ORDA mapping rules (developer.4d.com/docs/ORDA/dsmapping): only tables with
 * a single-field primary key are referenced, trashed tables are gone, "Expose as REST resource"
 * unchecked keeps a table or field out of REST (`exposed: false`: the datastore's own code still
 * sees it, as 4D's does).
 *
 * What the structure says that Entistore cannot honour is never dropped in silence: each kind of
 * it is one note (`notes`), at its place in the structure file, which `serve --project` writes on
 * stderr at start-up and `check --project` lists. A name that two attributes of one dataclass
 * would take goes to the first (a field before a relation), as ORDA reaches one name once.
 */
import {
  blankValue,
  reservedNameAllowed,
  type AttributeJson,
  type DataClassJson,
  type ModelJson,
} from '@entistore/core'
import { FIELD_TYPES, restType } from './field-types.js'
import {
  type Structure,
  type StructureField,
  type StructureRelation,
  type StructureTable,
} from './structure-xml.js'
import { Notes } from './notes.js'

export interface StructureModel {
  readonly model: ModelJson
  /** What the structure holds that Entistore does not serve as 4D would, at its places. */
  readonly notes: Notes
}

// ORDA's names are property names: Entistore's model refuses the others, and names from `__` but
// change tracking's (`__GlobalStamp`, the `__DeletedRecords` table and its fields), which 4D's
// docs query as any (`ds.__DeletedRecords`).
const ORDA_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u
const validName = (name: string, table?: string): boolean =>
  ORDA_NAME.test(name) &&
  (!name.startsWith('__') || reservedNameAllowed(name, table)) &&
  !name.includes('$')

// A key is one of these types (the model's rule, as 4D's own for ORDA keys).
const KEY_TYPES = new Set(['long', 'long64', 'word', 'byte', 'string', 'uuid'])
const NUMERIC = new Set(['long', 'long64', 'word', 'byte', 'number'])

/** The table's fields that are served: a type Entistore has, a name a property may have. */
function servedFields(t: StructureTable, notes: Notes): StructureField[] {
  const names = new Set<string>()
  return t.fields.filter((f) => {
    if (restType(f.typeCode, f.storeAsUuid) === undefined) {
      notes.add(
        `${FIELD_TYPES.get(f.typeCode)!.fourD} fields are not served (left out)`,
        `${t.name}.${f.name}`,
        f,
      )
      return false
    }
    if (!validName(f.name, t.name)) {
      notes.add('names that cannot be ORDA attribute names are left out', `${t.name}.${f.name}`, f)
      return false
    }
    // 4D's names are case-insensitive: ORDA reaches the first field of a name, never a second.
    if (names.has(f.name.toLowerCase())) {
      notes.add(
        'fields named like an earlier field of their table are left out (the first keeps the name)',
        `${t.name}.${f.name}`,
        f,
      )
      return false
    }
    names.add(f.name.toLowerCase())
    return true
  })
}

/** Why a table is not a dataclass (4D's ORDA rules), or undefined when it is one. */
function unserved(t: StructureTable, fields: readonly StructureField[]): string | undefined {
  if (t.trashed) return 'tables in the Trash are left out'
  if (!validName(t.name)) return 'names that cannot be ORDA dataclass names are left out'
  if (t.primaryKey.length === 0)
    return 'tables without a primary key are not dataclasses (4D ORDA references only tables with one)'
  if (t.primaryKey.length > 1)
    return 'tables with a composite primary key are not dataclasses (4D ORDA references only single-field keys)'
  const key = t.primaryKey[0]!
  if (!fields.includes(key)) return 'tables whose primary key is not served are left out'
  const type = restType(key.typeCode, key.storeAsUuid)!
  if (!KEY_TYPES.has(type))
    return `tables whose primary key is not an integer, a text or a UUID are left out`
  return undefined
}

function storageAttribute(
  t: StructureTable,
  f: StructureField,
  key: StructureField,
  indexed: ReadonlyMap<StructureField, boolean>,
  notes: Notes,
): AttributeJson {
  const where = `${t.name}.${f.name}`
  const type = restType(f.typeCode, f.storeAsUuid)!
  const differs = FIELD_TYPES.get(f.typeCode)!.differs
  if (differs !== undefined) notes.add(differs, where, f)
  const maxLength = type === 'string' ? f.limitingLength : undefined
  // A date's blank is the null date, stored as null: the other types without a blank are said.
  if (f.neverNull && blankValue(type) === null && type !== 'date')
    notes.add(
      '"Map NULL values to blank values" (never_null) has no blank for this type here: null stays null',
      where,
      f,
    )
  // autosequence numbers an integer; autogenerate ("Auto UUID") makes a UUID, of a UUID field or
  // of an Alpha one, as does an Alpha's autosequence (Qodly's model editor writes its text keys
  // so): Entistore's `autosequence` does each (core's generatedBy).
  const text = type === 'uuid' || type === 'string'
  const generated = (f.autosequence && (NUMERIC.has(type) || text)) || (f.autogenerate && text)
  if (f.autosequence && !NUMERIC.has(type) && !text)
    notes.add('autosequence on a field that is not a number or a text is ignored', where, f)
  if (f.autogenerate && !text)
    notes.add('autogenerate on a field that is not a UUID or a text is ignored', where, f)
  let classID = f.classId
  if (classID !== undefined && type !== 'object') {
    notes.add('a class on a field that is not an Object is ignored', where, f)
    classID = undefined
  }
  const unique = f.unique || indexed.get(f) === true
  return {
    name: f.name,
    kind: 'storage',
    type,
    ...(f.id === undefined ? {} : { fieldPos: f.id }),
    ...(f.uuid === undefined ? {} : { uuid: f.uuid }),
    ...(f.hidden ? { exposed: false } : {}),
    ...(indexed.has(f) ? { indexed: true } : {}),
    ...(unique ? { unique: true } : {}),
    ...(f.notNull ? { not_null: true } : {}),
    ...(generated ? { autosequence: true } : {}),
    ...(f === key ? { identifying: true } : {}),
    ...(classID === undefined ? {} : { classID }),
    ...(f.multiLine ? { multiLine: true } : {}),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(f.neverNull ? { never_null: true } : {}),
  } as AttributeJson
}

/** The fields each single-field regular index covers (true: its keys are unique); the rest noted. */
function indexedFields(s: Structure, notes: Notes): Map<StructureField, boolean> {
  const out = new Map<StructureField, boolean>()
  for (const index of s.indexes) {
    const names = index.fields.map((r) => `${r.table.name}.${r.field.name}`).join('+')
    const label = index.name ? `${index.name} (${names})` : names
    if (index.kind === 'keywords')
      notes.add(
        'keyword indexes are not built (a query scans, with the same results)',
        label,
        index,
      )
    else if (index.fields.length > 1)
      notes.add('composite indexes are not built (each attribute may have its own)', label, index)
    else {
      const field = index.fields[0]!.field
      out.set(field, (out.get(field) ?? false) || index.uniqueKeys)
    }
  }
  return out
}

/**
 * The attributes a relation gives (its N→1 attribute on the source table, its 1→N on the
 * destination), or the note that says why it gives none.
 */
function relationAttributes(
  r: StructureRelation,
  served: ReadonlyMap<StructureTable, StructureField[]>,
  notes: Notes,
): { nTo1?: AttributeJson; oneToN?: AttributeJson } {
  const { source, destination } = r
  const label = `${source.table.name}.${source.field.name} → ${destination.table.name}.${destination.field.name}`
  const named =
    r.nameNto1 !== undefined
      ? `${source.table.name}.${r.nameNto1}`
      : r.name1toN !== undefined
        ? `${destination.table.name}.${r.name1toN}`
        : label
  if (source.table.trashed || destination.table.trashed) {
    notes.add('relations to or from a table in the Trash are left out', named, r)
    return {}
  }
  if (!served.has(source.table) || !served.has(destination.table)) {
    notes.add('relations of a table that is not a dataclass are left out', named, r)
    return {}
  }
  if (destination.table.primaryKey[0] !== destination.field) {
    notes.add("relations that do not lead to the other table's primary key are left out", named, r)
    return {}
  }
  if (!served.get(source.table)!.includes(source.field)) {
    notes.add('relations through a field that is not served are left out', named, r)
    return {}
  }
  if (r.nameNto1 === undefined) {
    if (r.name1toN !== undefined)
      notes.add(
        'a 1→N relation name without its N→1 name is not served',
        `${destination.table.name}.${r.name1toN}`,
        r,
      )
    return {}
  }
  const invalid = [r.nameNto1, r.name1toN].find((n) => n !== undefined && !validName(n))
  if (invalid !== undefined) {
    notes.add('relations whose name cannot be an ORDA attribute name are left out', invalid, r)
    return {}
  }
  if (r.integrity !== 'none')
    notes.add(
      `relation integrity "${r.integrity}" is not applied (a delete neither cascades nor is refused)`,
      named,
      r,
    )
  const nTo1: AttributeJson = {
    name: r.nameNto1,
    kind: 'relatedEntity',
    type: destination.table.name,
    path: destination.table.name,
    foreignKey: source.field.name,
  }
  if (r.name1toN === undefined) return { nTo1 }
  return {
    nTo1,
    oneToN: {
      name: r.name1toN,
      kind: 'relatedEntities',
      type: `${source.table.name}Selection`,
      path: r.nameNto1,
      reversePath: true,
    },
  }
}

const DUPLICATE_RELATION =
  'relation attributes named like another attribute of their table are left out (the other keeps the name)'

/** The model of `s`, named `name`, with the notes of what it does not serve as 4D would. */
export function structureModel(s: Structure, name: string, file?: string): StructureModel {
  const notes = new Notes(file)
  const indexed = indexedFields(s, notes)
  const served = new Map<StructureTable, StructureField[]>()
  for (const t of s.tables) {
    const fields = servedFields(t, notes)
    const why = unserved(t, fields)
    if (why !== undefined) notes.add(why, t.name, t)
    else served.set(t, fields)
  }
  const relations = new Map<StructureTable, { attr: AttributeJson; r: StructureRelation }[]>()
  // A relation named like a field of its table, or like another relation of it: the field, or
  // the first relation, keeps the name (4D's names are case-insensitive); this one is noted.
  const add = (t: StructureTable, attr: AttributeJson, r: StructureRelation): boolean => {
    const list = relations.get(t) ?? []
    const taken =
      served.get(t)!.some((f) => f.name.toLowerCase() === attr.name.toLowerCase()) ||
      list.some((x) => x.attr.name.toLowerCase() === attr.name.toLowerCase())
    if (taken) {
      notes.add(DUPLICATE_RELATION, `${t.name}.${attr.name}`, r)
      return false
    }
    list.push({ attr, r })
    relations.set(t, list)
    return true
  }
  for (const r of s.relations) {
    const { nTo1, oneToN } = relationAttributes(r, served, notes)
    if (nTo1 === undefined || oneToN === undefined) {
      if (nTo1) add(r.source.table, nTo1, r)
      continue
    }
    // The 1→N attribute follows its N→1 one: without it, it goes too.
    if (add(r.source.table, nTo1, r)) add(r.destination.table, oneToN, r)
    else notes.add(DUPLICATE_RELATION, `${r.destination.table.name}.${oneToN.name} (its N→1 is)`, r)
  }
  const dataClasses: DataClassJson[] = []
  for (const [t, fields] of served) {
    if (t.triggers.length > 0)
      notes.add(
        'triggers are not run (on save and delete, no code of the structure runs)',
        `${t.name} (${t.triggers.join(', ')})`,
        t,
      )
    const key = t.primaryKey[0]!
    dataClasses.push({
      name: t.name,
      className: t.name,
      collectionName: `${t.name}Selection`,
      ...(t.id === undefined ? {} : { tableNumber: t.id }),
      ...(t.uuid === undefined ? {} : { uuid: t.uuid }),
      ...(t.hidden ? { exposed: false } : {}),
      attributes: [
        ...fields.map((f) => storageAttribute(t, f, key, indexed, notes)),
        ...(relations.get(t) ?? []).map((x) => x.attr),
      ],
      key: [{ name: key.name }],
    })
  }
  return { model: { __NAME: name, dataClasses }, notes }
}
