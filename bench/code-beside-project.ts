/**
 * @module The 4D project the code-beside suite serves (issue 78): the short rows' structure
 * (short-rows.ts: `Group`, `Person`, the same five indexes) as a 4D structure file, and classes
 * whose code is heavy in each way a real project's can be: a long loop, a sort and a JSON round
 * trip of a collection, a getter called per row by a `$filter`, a `saving` event that loops, and
 * one getter call that loops long. Written into a folder of its own, served with the short rows'
 * data file by `entistore serve --project`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const uuid = (n: number): string => n.toString(16).toUpperCase().padStart(32, '0')

// The short rows' fields, 4D's type numbers (4 long, 10 text, 6 real), and whether indexed.
const PERSON: readonly [string, number, boolean][] = [
  ['ID', 4, true],
  ['code', 10, true],
  ['name', 10, true],
  ['city', 10, true],
  ['age', 4, true],
  ['salary', 6, false],
  ['groupID', 4, true],
]

function table(name: string, id: number, fields: readonly [string, number, boolean][]): string {
  const rows = fields.map(
    ([f, type], i) =>
      `\t\t<field name="${f}" uuid="${uuid(id * 100 + i + 1)}" type="${type}"` +
      (f === 'ID' ? ' unique="true" autosequence="true" not_null="true"' : '') +
      ` id="${i + 1}"/>`,
  )
  return [
    `\t<table name="${name}" uuid="${uuid(id)}" id="${id}">`,
    ...rows,
    `\t\t<primary_key field_name="ID" field_uuid="${uuid(id * 100 + 1)}"/>`,
    '\t</table>',
  ].join('\n')
}

function index(tableName: string, tableId: number, field: string, at: number): string {
  return [
    `\t<index kind="regular" uuid="${uuid(9000 + tableId * 100 + at)}" type="7">`,
    `\t\t<field_ref uuid="${uuid(tableId * 100 + at)}" name="${field}">`,
    `\t\t\t<table_ref uuid="${uuid(tableId)}" name="${tableName}"/>`,
    '\t\t</field_ref>',
    '\t</index>',
  ].join('\n')
}

const CATALOG = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE base SYSTEM "http://www.4d.com/dtd/2007/base.dtd" >
<base name="code-beside" uuid="${uuid(78)}" collation_locale="en">
\t<schema name="DEFAULT_SCHEMA"/>
${table('Group', 1, [
  ['ID', 4, true],
  ['name', 10, false],
])}
${table('Person', 2, PERSON)}
\t<relation uuid="${uuid(7001)}" name_Nto1="group" name_1toN="people" state="1">
\t\t<related_field kind="source">
\t\t\t<field_ref uuid="${uuid(207)}" name="groupID"><table_ref uuid="${uuid(2)}" name="Person"/></field_ref>
\t\t</related_field>
\t\t<related_field kind="destination">
\t\t\t<field_ref uuid="${uuid(101)}" name="ID"><table_ref uuid="${uuid(1)}" name="Group"/></field_ref>
\t\t</related_field>
\t</relation>
${index('Group', 1, 'ID', 1)}
${PERSON.flatMap(([f, , indexed], i) => (indexed ? [index('Person', 2, f, i + 1)] : [])).join('\n')}
</base>
`

/** The heavy functions, each a few hundred milliseconds of 4D code on 2 cores. */
const DATASTORE = `Class extends DataStoreImplementation

// A loop of $n passes.
exposed Function loop($n : Integer) : Integer
\tvar $i; $s : Integer
\tFor ($i; 1; $n)
\t\t$s:=$s+($i%7)
\tEnd for
\treturn $s

// A collection of $n numbers, sorted.
exposed Function sorted($n : Integer) : Integer
\tvar $c : Collection
\tvar $i : Integer
\t$c:=New collection
\tFor ($i; 1; $n)
\t\t$c.push(($i*7919)%100003)
\tEnd for
\t$c:=$c.sort()
\treturn $c[0]

// A collection of $n objects through JSON and back.
exposed Function json($n : Integer) : Integer
\tvar $c : Collection
\tvar $i : Integer
\t$c:=New collection
\tFor ($i; 1; $n)
\t\t$c.push(New object("i"; $i; "name"; "n"+String($i)))
\tEnd for
\treturn JSON Parse(JSON Stringify($c)).length
`

/**
 * A getter that loops a little at each row (a filter on it calls it for each candidate), one that
 * loops long for one person only, and a saving event that loops.
 */
const personEntity = (scale: number): string => `Class extends Entity

exposed Function get score() : Integer
\tvar $i; $s : Integer
\tFor ($i; 1; 100)
\t\t$s:=$s+($i%3)
\tEnd for
\treturn $s+This.age

exposed Function get heavy() : Integer
\tvar $i; $s : Integer
\tIf (This.ID=7)
\t\tFor ($i; 1; ${Math.round(50e6 * scale)})
\t\t\t$s:=$s+($i%3)
\t\tEnd for
\tEnd if
\treturn $s

Function event saving($event : Object)
\tvar $i; $s : Integer
\tFor ($i; 1; ${Math.round(20e6 * scale)})
\t\t$s:=$s+($i%3)
\tEnd for
`

/**
 * Writes the project into `dir` (its Project folder, as 4D lays one out) and returns `dir`; its
 * long getter and its event loop `scale` times their full passes (a smoke run's are short).
 */
export function writeCodeBesideProject(dir: string, scale = 1): string {
  const sources = join(dir, 'Project', 'Sources')
  mkdirSync(join(sources, 'Classes'), { recursive: true })
  writeFileSync(join(sources, 'catalog.4DCatalog'), CATALOG)
  writeFileSync(join(sources, 'Classes', 'DataStore.4dm'), DATASTORE)
  writeFileSync(join(sources, 'Classes', 'PersonEntity.4dm'), personEntity(scale))
  return dir
}
