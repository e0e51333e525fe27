/**
 * @module The command table (table.ts), assembled from one list of entries a theme. A new theme is
 * a file exporting its `CommandSpec[]` and one line below.
 */
import { DATE_TIME_COMMANDS } from './date-time.js'
import { LANGUAGE_COMMANDS } from './language.js'
import { OBJECT_COMMANDS } from './objects.js'
import { STRING_COMMANDS } from './strings.js'
import { buildCommandTable } from './table.js'

export const COMMANDS = buildCommandTable([
  LANGUAGE_COMMANDS,
  STRING_COMMANDS,
  OBJECT_COMMANDS,
  DATE_TIME_COMMANDS,
])

export { constantValue } from './constants.js'
export { parseSignature, type ResultKind, type Signature } from './signature.js'
export {
  SYMBOLS,
  buildCommandTable,
  type CommandContext,
  type CommandEntry,
  type CommandImpl,
  type CommandSpec,
  type CommandTable,
} from './table.js'
