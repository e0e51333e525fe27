/**
 * @module The command table (table.ts), assembled from one list of entries a theme. A new theme is
 * a file exporting its `CommandSpec[]` and one line below.
 */
import { ARRAY_COMMANDS } from './arrays.js'
import { BLOB_COMMANDS } from './blob.js'
import { DATE_TIME_COMMANDS } from './date-time.js'
import { ENVIRONMENT_COMMANDS } from './environment.js'
import { FILE_COMMANDS } from './files.js'
import { FORMULA_COMMANDS } from './formulas.js'
import { JSON_COMMANDS } from './json.js'
import { JSON_VALIDATE_COMMANDS } from './json-validate.js'
import { LANGUAGE_COMMANDS } from './language.js'
import { MATH_COMMANDS } from './math.js'
import { OBJECT_COMMANDS } from './objects.js'
import { PROCESS_COMMANDS } from './processes.js'
import { PROJECT_PATH_COMMANDS } from './project-paths.js'
import { SESSION_COMMANDS } from './sessions.js'
import { STRING_COMMANDS } from './strings.js'
import { STRUCTURE_COMMANDS } from './structure.js'
import { TRANSACTION_COMMANDS } from './transactions.js'
import { KEYS_DOWN_COMMANDS } from './keys-down.js'
import { DATABASE_PARAMETER_COMMANDS } from './database-parameters.js'
import { SYSTEM_FORMAT_COMMANDS } from './system-format.js'
import { buildCommandTable } from './table.js'
import { TOOLS_COMMANDS } from './tools.js'
import { PASSWORD_HASH_COMMANDS } from './password-hash.js'
import { DOCUMENT_COMMANDS } from './documents.js'
import { EXTERNAL_PROCESS_COMMANDS } from './external-process.js'
import { HTTP_CLIENT_COMMANDS } from './http-client.js'
import { LOG_EVENT_COMMANDS } from './log-event.js'
import { MAIL_COMMANDS } from './mail.js'
import { PICTURE_COMMANDS } from './pictures.js'
import { POINTER_COMMANDS } from './pointers.js'
import { PROCESS_4D_TAGS_COMMANDS } from './process-4d-tags.js'
import { UI_COMMANDS } from './ui.js'
import { WEB_FORM_COMMANDS } from './web-form.js'
import { WEB_SERVER_COMMANDS } from './web-server.js'
import { ZIP_COMMANDS } from './zip.js'

export const COMMANDS = buildCommandTable([
  LANGUAGE_COMMANDS,
  FORMULA_COMMANDS,
  STRING_COMMANDS,
  MATH_COMMANDS,
  OBJECT_COMMANDS,
  ARRAY_COMMANDS,
  JSON_COMMANDS,
  JSON_VALIDATE_COMMANDS,
  DATE_TIME_COMMANDS,
  TOOLS_COMMANDS,
  PASSWORD_HASH_COMMANDS,
  PROCESS_COMMANDS,
  ENVIRONMENT_COMMANDS,
  SYSTEM_FORMAT_COMMANDS,
  SESSION_COMMANDS,
  FILE_COMMANDS,
  PROJECT_PATH_COMMANDS,
  BLOB_COMMANDS,
  UI_COMMANDS,
  STRUCTURE_COMMANDS,
  TRANSACTION_COMMANDS,
  KEYS_DOWN_COMMANDS,
  DATABASE_PARAMETER_COMMANDS,
  WEB_SERVER_COMMANDS,
  WEB_FORM_COMMANDS,
  PICTURE_COMMANDS,
  LOG_EVENT_COMMANDS,
  HTTP_CLIENT_COMMANDS,
  MAIL_COMMANDS,
  POINTER_COMMANDS,
  DOCUMENT_COMMANDS,
  EXTERNAL_PROCESS_COMMANDS,
  PROCESS_4D_TAGS_COMMANDS,
  ZIP_COMMANDS,
])

export { constantValue } from './constants.js'
export { parseSignature, type ResultKind, type Signature } from '../arguments/signature.js'
export {
  SYMBOLS,
  buildCommandTable,
  type CommandContext,
  type CommandEntry,
  type CommandImpl,
  type CommandSpec,
  type CommandTable,
} from './table.js'
