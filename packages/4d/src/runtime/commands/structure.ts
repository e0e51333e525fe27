/**
 * @module The "Structure Access" commands that name tables and fields by number (table-name.md,
 * get-last-table-number.md, is-table-number-valid.md…): the numbers are the
 * structure's (`ds.Employee.getInfo().tableNumber`), read from the
 * datastore the code runs on (`ds`), and a field's the `fieldNumber` of its attribute, so that
 * code mapping numbers to names (a generic list, a log) runs. Pointers to tables and fields are not
 * made here (pointers/pointer.ts): `Table name` and `Field name` take the numbers.
 */
import { integerArg, wrongType } from '../arguments/arguments.js'
import { isPointer } from '../pointers/pointer.js'
import { isJsonHost, TO_JSON } from '../values/host.js'
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

/** A table of the datastore the code runs on: its name, and its dataclass (`ds.Employee`). */
interface TableOf {
  readonly name: string
  readonly dataClass: unknown
}

// One table list a datastore (`ds` is one object a datastore, its structure fixed): code that
// loops `Table name($t)` over every number reads it once.
const known = new WeakMap<object, Map<number, TableOf>>()

/** The tables of the datastore the code runs on, by number (none without one). */
function tables(rt: CommandContext): Map<number, TableOf> {
  const out = new Map<number, TableOf>()
  const ds = rt.ds
  if (typeof ds !== 'object' || ds === null || !isJsonHost(ds)) return out
  const kept = known.get(ds)
  if (kept !== undefined) return kept
  known.set(ds, out)
  for (const [name, dc] of Object.entries(ds[TO_JSON]() as Record<string, unknown>)) {
    const info = rt.call(dc, 'getInfo', []) as { tableNumber?: unknown } | null
    if (typeof info?.tableNumber === 'number') out.set(info.tableNumber, { name, dataClass: dc })
  }
  return out
}

/** The fields of table `n` by number: its attributes that store a value (`fieldNumber`). */
function fields(rt: CommandContext, command: string, n: unknown): Map<number, string> {
  const table = tables(rt).get(tableNumber(command, n))
  const out = new Map<number, string>()
  const dc = table?.dataClass
  if (typeof dc !== 'object' || dc === null || !isJsonHost(dc)) return out
  for (const [name, attribute] of Object.entries(dc[TO_JSON]() as Record<string, unknown>)) {
    const number = (attribute as { fieldNumber?: unknown } | null)?.fieldNumber
    if (typeof number === 'number') out.set(number, name)
  }
  return out
}

/** A table number; a pointer to a table is not made here (pointers/pointer.ts). */
const tableNumber = (command: string, v: unknown): number =>
  isPointer(v) ? wrongType(command, 'tableNum', 'Integer', v) : integerArg(command, 'tableNum', v)

export const STRUCTURE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 256,
    name: 'Table name',
    signature: '(tableNum: any): Text',
    impl: (rt, n) => tables(rt).get(tableNumber('Table name', n))?.name ?? '',
  },
  {
    number: 999,
    name: 'Is table number valid',
    signature: '(tableNum: Integer): Boolean',
    impl: (rt, n) => tables(rt).has(integerArg('Is table number valid', 'tableNum', n)),
  },
  {
    number: 254,
    name: 'Get last table number',
    signature: '(): Integer',
    impl: (rt) => Math.max(0, ...tables(rt).keys()),
  },
  {
    number: 257,
    name: 'Field name',
    signature: '(tableNum: any; fieldNum?: Integer): Text',
    impl: (rt, t, f) =>
      fields(rt, 'Field name', t).get(integerArg('Field name', 'fieldNum', f)) ?? '',
  },
  {
    number: 1000,
    name: 'Is field number valid',
    signature: '(tableNum: Integer; fieldNum: Integer): Boolean',
    impl: (rt, t, f) =>
      fields(rt, 'Is field number valid', t).has(
        integerArg('Is field number valid', 'fieldNum', f),
      ),
  },
  {
    number: 255,
    name: 'Get last field number',
    signature: '(tableNum: any): Integer',
    impl: (rt, t) => Math.max(0, ...fields(rt, 'Get last field number', t).keys()),
  },
]
