/**
 * readStructure on its own: what it reads of each element of a catalog.4DCatalog (tables, fields,
 * keys, relations, indexes, the Trash, what is hidden from REST), and the place each refusal names.
 */
import { describe, expect, it } from 'vitest'
import { readStructure, StructureError, type Structure } from './structure-xml.js'
import { parseXml } from './xml-reader.js'

const read = (lines: readonly string[]): Structure => readStructure(parseXml(lines.join('\n')))

/** The refusal of `lines` as `line:column: message`. */
function refusal(lines: readonly string[]): string {
  try {
    read(lines)
  } catch (e) {
    if (!(e instanceof StructureError)) throw e
    return `${e.place.line}:${e.place.column}: ${e.message}`
  }
  throw new Error('read without a refusal')
}

const COMPANY = [
  '<table name="Company" uuid="A1" id="2">',
  '<field name="ID" uuid="F11" type="4" unique="true" autosequence="true" not_null="true" id="1"/>',
  '<field name="name" uuid="F12" type="10" limiting_length="80" never_null="true" id="2"/>',
  '<primary_key field_name="ID" field_uuid="F11"/>',
  '</table>',
]
const EMPLOYEE = [
  '<table name="Employee" uuid="A2" id="1">',
  '<field name="ID" uuid="F21" type="10" store_as_UUID="true" autogenerate="true" id="1"/>',
  '<field name="companyID" uuid="F22" type="4" hide_in_REST="true" id="2"/>',
  '<field name="bossID" uuid="F23" type="10" store_as_UUID="true" id="3"/>',
  '<primary_key field_name="ID" field_uuid="F21"/>',
  '</table>',
]

/** A relation from `source` (table.field) to `destination`, each named by name only. */
const relation = (attrs: string, source: string, destination: string): string[] => {
  const ref = (kind: string, path: string) => {
    const [table, field] = path.split('.')
    return [
      `<related_field kind="${kind}">`,
      `<field_ref name="${field}"><table_ref name="${table}"/></field_ref>`,
      '</related_field>',
    ]
  }
  return [
    `<relation ${attrs}>`,
    ...ref('source', source),
    ...ref('destination', destination),
    '</relation>',
  ]
}

/** A structure of one table T holding `lines`. */
const inTable = (...lines: string[]): string[] => [
  '<base>',
  '<table name="T">',
  ...lines,
  '</table></base>',
]

describe('readStructure', () => {
  it('reads tables and fields with their numbers, flags and places', () => {
    const s = read(['<base name="shop">', ...COMPANY, ...EMPLOYEE, '</base>'])
    expect(s.name).toBe('shop')
    const [company, employee] = s.tables
    expect(company).toMatchObject({ name: 'Company', uuid: 'A1', id: 2, hidden: false })
    expect([company!.line, company!.column]).toEqual([2, 1])
    expect(company!.fields[0]).toMatchObject({
      name: 'ID',
      id: 1,
      typeCode: 4,
      unique: true,
      autosequence: true,
      notNull: true,
      neverNull: false,
      line: 3,
    })
    expect(company!.fields[1]).toMatchObject({ limitingLength: 80, neverNull: true, unique: false })
    expect(company!.primaryKey.map((f) => f.name)).toEqual(['ID'])
    expect(employee!.fields[0]).toMatchObject({ storeAsUuid: true, autogenerate: true })
    expect(employee!.fields[1]).toMatchObject({ hidden: true, limitingLength: undefined })
  })

  it('reads a hidden table, a trashed one, triggers, object classes and multi-line fields', () => {
    const s = read([
      '<base>',
      '<table name="Log" hide_in_REST="true">',
      '<field name="ID" type="4"/>',
      '<field name="v" type="21" class_id="4D.Vector"/>',
      '<field name="old" type="21"><field_extra class_id="Point"/></field>',
      '<field name="memo" type="10"><field_extra multi_line="true"/></field>',
      '<table_extra trigger_insert="true" trigger_delete="true" trigger_update="false"/>',
      '</table>',
      '<table name="Gone"><field name="ID" type="4"/><table_extra trashed="true"/></table>',
      '</base>',
    ])
    const [log, gone] = s.tables
    expect(log).toMatchObject({ hidden: true, trashed: false, triggers: ['insert', 'delete'] })
    expect(log!.primaryKey).toEqual([])
    expect(log!.fields.map((f) => [f.name, f.classId, f.multiLine])).toEqual([
      ['ID', undefined, false],
      ['v', '4D.Vector', false],
      ['old', 'Point', false],
      ['memo', undefined, true],
    ])
    expect(gone).toMatchObject({ trashed: true, triggers: [] })
  })

  it('reads relations both ways, their fields found by uuid or by name, any case', () => {
    const s = read([
      '<base>',
      ...COMPANY,
      ...EMPLOYEE,
      '<relation uuid="R1" name_Nto1="employer" name_1toN="staff" integrity="reject">',
      '<related_field kind="destination">',
      '<field_ref uuid="f11" name="wrong"><table_ref uuid="a1" name="wrong"/></field_ref>',
      '</related_field>',
      '<related_field kind="source">',
      '<field_ref uuid="F22"><table_ref uuid="A2"/></field_ref>',
      '</related_field>',
      '</relation>',
      ...relation('name_Nto1="boss"', 'EMPLOYEE.bossid', 'employee.ID'),
      '</base>',
    ])
    const [employer, boss] = s.relations
    expect(employer).toMatchObject({ uuid: 'R1', nameNto1: 'employer', name1toN: 'staff' })
    expect(employer!.integrity).toBe('reject')
    expect([employer!.source.table.name, employer!.source.field.name]).toEqual([
      'Employee',
      'companyID',
    ])
    expect([employer!.destination.table.name, employer!.destination.field.name]).toEqual([
      'Company',
      'ID',
    ])
    // A relation of a table to itself, with no 1→N name and no integrity.
    expect(boss).toMatchObject({ nameNto1: 'boss', name1toN: undefined, integrity: 'none' })
    expect([boss!.source.field.name, boss!.destination.table.name]).toEqual(['bossID', 'Employee'])
  })

  it('reads indexes: their kind, unique keys and fields, one or several', () => {
    const ref = (table: string, field: string) =>
      `<field_ref name="${field}"><table_ref name="${table}"/></field_ref>`
    const s = read([
      '<base>',
      ...COMPANY,
      '<index kind="regular" unique_keys="true" type="7">',
      ref('Company', 'ID'),
      '</index>',
      '<index name="byName" kind="keywords">',
      ref('Company', 'name'),
      '</index>',
      '<index name="both">',
      ref('Company', 'name'),
      ref('Company', 'ID'),
      '</index>',
      '</base>',
    ])
    expect(
      s.indexes.map((i) => [i.name, i.kind, i.uniqueKeys, i.fields.map((f) => f.field.name)]),
    ).toEqual([
      [undefined, 'regular', true, ['ID']],
      ['byName', 'keywords', false, ['name']],
      ['both', 'regular', false, ['name', 'ID']],
    ])
  })

  it('passes over the elements and attributes it does not use', () => {
    const s = read([
      '<base uuid="B" collation_locale="en">',
      '<schema name="DEFAULT_SCHEMA"/>',
      '<table name="T" prevent_journaling="true"><field name="ID" type="4" blob_switch_size="9"/>',
      '<table_extra><editor_table_info><color red="1"/></editor_table_info></table_extra></table>',
      '<base_extra><journal_file journal_file_enabled="true"/></base_extra>',
      '</base>',
    ])
    expect(s.tables.map((t) => t.name)).toEqual(['T'])
  })

  it.each([
    ['a root element that is not <base>', ['<catalog/>'], '1:1: the root element is <catalog>'],
    [
      'a type code 4D does not have',
      inTable('  <field name="f" type="99"/>'),
      '3:19: field T.f: unknown field type code "99" (4D\'s codes: 1 Boolean, 2 Byte',
    ],
    [
      'a type that is not a number',
      inTable('<field name="f" type="text"/>'),
      '3:17: field T.f: unknown field type code "text"',
    ],
    ['a field with no type', inTable('<field name="f"/>'), '3:1: field T.f has no type attribute'],
    [
      'a field with no name',
      inTable('<field type="4"/>'),
      '3:1: a field of table T has no name attribute',
    ],
    ['a table with no name', ['<base>', '<table id="1"/>', '</base>'], '2:1: a table has no name'],
    [
      'a flag that is neither true nor false',
      inTable('<field name="f" type="4" unique="yes"/>'),
      '3:26: unique must be "true" or "false", got "yes"',
    ],
    [
      'a number that is not one',
      ['<base>', '<table name="T" id="one"/>', '</base>'],
      '2:17: table T: id must be a number, got "one"',
    ],
    [
      'two tables named alike',
      ['<base>', '<table name="T"/>', '<table name="t"/>', '</base>'],
      '3:1: two tables are named t',
    ],
    [
      'a primary key naming no field',
      inTable('<primary_key field_name="ID"/>'),
      '3:1: the primary key of table T names no field of it: ID',
    ],
    [
      'a relation to a table the structure does not have',
      ['<base>', ...COMPANY, ...relation('name_Nto1="x"', 'Company.ID', 'Nowhere.ID'), '</base>'],
      '12:22: relation x names a table the structure does not have: Nowhere',
    ],
    [
      'a relation to a field the table does not have',
      ['<base>', ...COMPANY, ...relation('name_Nto1="x"', 'Company.nope', 'Company.ID'), '</base>'],
      '9:1: relation x names a field table Company does not have: nope',
    ],
    [
      'a relation without its destination',
      [
        '<base>',
        ...COMPANY,
        '<relation name_1toN="y">',
        '<related_field kind="source">',
        '<field_ref name="ID"><table_ref name="Company"/></field_ref>',
        '</related_field>',
        '</relation>',
        '</base>',
      ],
      '7:1: relation y has no destination field (<related_field kind="destination">)',
    ],
    [
      'a field reference with no table reference',
      ['<base>', ...COMPANY, '<index name="i">', '<field_ref name="ID"/>', '</index>', '</base>'],
      '8:1: index i: <field_ref> has no <table_ref>',
    ],
    [
      'an index of no field',
      ['<base>', ...COMPANY, '<index uuid="I9"/>', '</base>'],
      '7:1: index I9 names no field',
    ],
  ])('refuses %s at its place', (_, lines, message) => {
    expect(refusal(lines)).toContain(message)
  })
})
