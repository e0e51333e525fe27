/**
 * @module 4D's pointers to variables (dt_pointer.md): `->$name`, `->name`, `->$array{3}` make one,
 * `$p->` reads what it points to and `$p->:=v` assigns it, as the variable's own assignment does
 * (its declared type converts). A pointer holds the variable's reader and writer, which compiled
 * code makes over the variable itself: a local's is made once a call, a process or interprocess
 * variable's once a run, so that two pointers to one variable are one object and compare equal,
 * as 4D's do. A pointer to a field or a table is not made here (there are no current records).
 */
import { elem, setElem } from '../arrays/four-d-array.js'
import { raise } from '../errors/fourd-error.js'
import { typeName } from '../values/kinds.js'

export class Pointer {
  constructor(
    /** The variable's name as 4D writes it (`$count`, `<>shared`, `$a{3}`): RESOLVE POINTER's. */
    readonly name: string,
    readonly read: () => unknown,
    readonly write: (v: unknown) => void,
    /** A pointer to an element: its number in the array. */
    readonly element?: number,
  ) {}
}

export const isPointer = (v: unknown): v is Pointer => v instanceof Pointer

/** `$p`'s pointer, or 4D's error for a nil one or another value. */
function pointerOf(p: unknown): Pointer {
  if (p instanceof Pointer) return p
  if (p === null || p === undefined) return raise('NilPointer', {})
  return raise('NotAPointer', { type: typeName(p) })
}

/** `$p->`: what `$p` points to. */
export const deref = (p: unknown): unknown => pointerOf(p).read()

/** `$p->:=v`: `v` into what `$p` points to. */
export function derefSet(p: unknown, v: unknown): void {
  pointerOf(p).write(v)
}

/** The pointer `pointers` keeps under `key` (one a variable), made at its first use. */
export function keptPointer(
  pointers: Map<string, Pointer>,
  key: string,
  name: string,
  read: () => unknown,
  write: (v: unknown) => void,
): Pointer {
  const k = key.toLowerCase()
  let p = pointers.get(k)
  if (p === undefined) pointers.set(k, (p = new Pointer(name, read, write)))
  return p
}

/** `->$local`: made once a call by the compiled code, over the local's reader and writer. */
export const pointer = (name: string, read: () => unknown, write: (v: unknown) => void): Pointer =>
  new Pointer(name, read, write)

/** `->$a{i}`: a pointer to element `i` of `array` (the array itself, not the variable's next). */
export const elementPointer = (name: string, array: unknown, i: unknown): Pointer =>
  new Pointer(
    name,
    () => elem(array, i),
    (v) => setElem(array, i, v),
    typeof i === 'number' ? i : undefined,
  )
