/**
 * @module Declared types as the compiler reads them: a `TypeRef` (`Text`, `cs.Employee`,
 * `4D.File`) or a `C_` command, made one of the runtime's DeclaredType (class types are
 * Objects). The names are the runtime's (convert/declared-types.ts), which 4D tags read too.
 */
import type { TypeRefNode } from '../ast/statements.js'
import type { DeclaredType } from '../runtime/convert/assign.js'
import { typeNamed } from '../runtime/convert/declared-types.js'

export { classicDeclarationType } from '../runtime/convert/declared-types.js'

/** The type of a TypeRef; undefined for a name 4D does not have. */
export function declaredType(ref: TypeRefNode): DeclaredType | undefined {
  if (ref.path.length > 1) return 'Object'
  return typeNamed(ref.path[0]!)
}
