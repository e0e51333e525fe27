/**
 * @module The pointer commands (dt_pointer.md): `Is nil pointer`, `Get pointer` (a process
 * variable, or an element of one, by name) and `RESOLVE POINTER` (what a pointer points to, as
 * resolve-pointer.md's table says; a local's name too, which 4D leaves out). Pointers to fields and
 * tables are not made here (pointers/pointer.ts).
 */
import { outArg } from '../arguments/out-parameter.js'
import { invalid, textArg, wrongType } from '../arguments/arguments.js'
import { elementPointer, isPointer } from '../pointers/pointer.js'
import type { CommandSpec } from './table.js'

export const POINTER_COMMANDS: readonly CommandSpec[] = [
  {
    number: 315,
    name: 'Is nil pointer',
    signature: '(aPointer: any): Boolean',
    impl: (_rt, p) => {
      if (p === null || p === undefined) return true
      return isPointer(p) ? false : wrongType('Is nil pointer', 'aPointer', 'Pointer', p)
    },
  },
  {
    number: 304,
    name: 'Get pointer',
    signature: '(varName: Text): any',
    impl: (rt, varName) => {
      const name = textArg('Get pointer', 'varName', varName).trim()
      const element = /^(.+?)\{(\d+)\}$/.exec(name)
      const variable = element?.[1] ?? name
      if (!/^[^\s$<>[\]{}]/.test(variable))
        return invalid('Get pointer', 'varName', `"${name}" names no process variable`)
      if (element === null) return rt.pvPointer(variable)
      return elementPointer(variable, rt.pvGet(variable), Number(element[2]))
    },
  },
  {
    number: 294,
    name: 'Is a variable',
    signature: '(aPointer: any): Boolean',
    // Every pointer made here points to a variable (or an element of one); Nil points to none.
    impl: (_rt, p) => isPointer(p),
  },
  {
    number: 394,
    name: 'RESOLVE POINTER',
    signature: '(aPointer: any; varName: any; tableNum: any; fieldNum: any)',
    writes: [1, 2, 3],
    impl: (_rt, p, varName, tableNum, fieldNum) => {
      const name = outArg('RESOLVE POINTER', 'varName', varName)
      const table = outArg('RESOLVE POINTER', 'tableNum', tableNum)
      const field = outArg('RESOLVE POINTER', 'fieldNum', fieldNum)
      if (p === null || p === undefined) {
        name.set('')
        table.set(0)
        return field.set(0)
      }
      if (!isPointer(p)) return wrongType('RESOLVE POINTER', 'aPointer', 'Pointer', p)
      name.set(p.name)
      table.set(p.element ?? -1)
      field.set(-1)
    },
  },
]
