/**
 * @module Declared types as the compiler reads them: a `TypeRef` (`Text`, `cs.Employee`,
 * `4D.File`) or a `C_` command, made one of the runtime's DeclaredType (class types are
 * Objects).
 */
import type { TypeRefNode } from '../ast/statements.js'
import type { DeclaredType } from '../runtime/convert/assign.js'

const NAMES: Readonly<Record<string, DeclaredType>> = {
  integer: 'Integer',
  longint: 'Integer',
  real: 'Real',
  text: 'Text',
  boolean: 'Boolean',
  date: 'Date',
  time: 'Time',
  object: 'Object',
  collection: 'Collection',
  variant: 'Variant',
  picture: 'Picture',
  blob: 'Blob',
  pointer: 'Pointer',
}

/** The type of a TypeRef; undefined for a name 4D does not have. */
export function declaredType(ref: TypeRefNode): DeclaredType | undefined {
  if (ref.path.length > 1) return 'Object'
  return NAMES[ref.path[0]!.toLowerCase()]
}

/** The `C_` commands (tokenized or not; C_INTEGER and C_STRING, older, parse as methods). */
const C_COMMANDS: Readonly<Record<string, DeclaredType>> = {
  c_blob: 'Blob',
  c_boolean: 'Boolean',
  c_collection: 'Collection',
  c_date: 'Date',
  c_longint: 'Integer',
  c_integer: 'Integer',
  c_object: 'Object',
  c_picture: 'Picture',
  c_pointer: 'Pointer',
  c_real: 'Real',
  c_text: 'Text',
  c_string: 'Text',
  c_time: 'Time',
  c_variant: 'Variant',
}

/** The type a `C_` command declares, undefined for any other name. */
export const classicDeclarationType = (name: string): DeclaredType | undefined =>
  C_COMMANDS[name.toLowerCase()]
