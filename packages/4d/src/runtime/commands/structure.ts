/**
 * @module The "Structure Access" commands that name tables and fields by number (table-name.md,
 * get-last-table-number.md, is-table-number-valid.md…): the numbers are the
 * structure's (`ds.Employee.getInfo().tableNumber`), read from the
 * datastore the code runs on (`ds`), so that code mapping numbers to names (a generic list, a
 * log) runs. Pointers to tables are not made here (pointers/pointer.ts): `Table name` takes the
 * number.
 */
import { integerArg, wrongType } from '../arguments/arguments.js'
import { isPointer } from '../pointers/pointer.js'
import { isJsonHost, TO_JSON } from '../values/host.js'
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

/** The names of the tables of the datastore the code runs on, by number (none without one). */
function tables(rt: CommandContext): Map<number, string> {
  const out = new Map<number, string>()
  const ds = rt.ds
  if (typeof ds !== 'object' || ds === null || !isJsonHost(ds)) return out
  for (const [name, dc] of Object.entries(ds[TO_JSON]() as Record<string, unknown>)) {
    const info = rt.call(dc, 'getInfo', []) as { tableNumber?: unknown } | null
    if (typeof info?.tableNumber === 'number') out.set(info.tableNumber, name)
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
    impl: (rt, n) => tables(rt).get(tableNumber('Table name', n)) ?? '',
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
]
