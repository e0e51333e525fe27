/**
 * @module The names of the types 4D code declares: `var $x : Text` (without case; `Longint` is
 * an Integer) and the classic `C_` commands (tokenized or not; `C_INTEGER` and `C_STRING`, older,
 * are an Integer and a Text). The compiler reads declarations with them, and so does the code of
 * 4D tags (commands/four-d-tags-code.ts), which the compiler does not see.
 */
import type { DeclaredType } from './assign.js'

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

/** The type `name` names (`Text`, `longint`); undefined for a name 4D does not have. */
export const typeNamed = (name: string): DeclaredType | undefined => NAMES[name.toLowerCase()]

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
