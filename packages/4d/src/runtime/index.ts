/**
 * @module The runtime of compiled 4D code, and its main entry: it gives the running context the
 * parts of the rooms above it (context/runtime-parts.ts), the commands, the collection's functions
 * and the built-in classes, and hands out the Runtime so assembled. Code that makes a Runtime
 * imports it from here; a type is named where it is declared.
 *
 * Its rooms import one way (tools/layers.ts checks it), lowest first:
 * - errors/: 4D's errors, their codes and texts, `throw`;
 * - values/: the values of the language (dates, times, collections, BLOBs, shared marks) and the
 *   symbols by which a host object shows its members;
 * - arguments/: what a call's arguments are: the bare `*` `>` `<`, the variables a command writes,
 *   the checking of their types, a signature in the table's short form (commands and collection
 *   functions both check with them);
 * - convert/: conversions between values, typed assignment, JSON;
 * - arrays/: 4D's arrays, whose elements convert as an assignment does;
 * - ops/, then operators.ts: the operators compiled code calls (`rt.add`, `rt.get`…);
 * - context/: the running context (Runtime) and what its signatures name and what names it back:
 *   function objects, class objects and stores, the method registry, the interface commands see
 *   (CommandContext), the hosts' parts; what it needs of the rooms above comes in through
 *   runtime-parts.ts;
 * - classes/: the built-in classes (`4D.Blob`, the messages…) and the collection's functions;
 * - files/: `4D.File` and `4D.Folder` on the project's folders;
 * - mail/: outgoing mail: the MIME writer, `4D.SMTPTransporter`, `4D.MailAttachment`;
 * - commands/: the command table and the commands, theme by theme;
 * - this file, which assembles them.
 *
 * Assembling is this module's side effect, and package.json's `sideEffects` names it: a bundler
 * that trusts the field keeps the module only for a binding of its own, and a re-export is not
 * one (Vite, bundling the sources for a page, dropped it: the page's first 4D call failed).
 */
import { BLOB_CLASS } from './classes/blob.js'
import { FUNCTION_CLASS, OBJECT_CLASS } from './classes/builtin-class.js'
import { COLLECTION_FUNCTIONS, COLLECTION_STEPS } from './classes/collection-functions.js'
import { HTTP_REQUEST_CLASS } from './classes/http-request.js'
import { INCOMING_MESSAGE_CLASS } from './classes/incoming-message.js'
import { OUTGOING_MESSAGE_CLASS } from './classes/outgoing-message.js'
import { SIGNAL_CLASS } from './classes/signal.js'
import { WEB_FORM_CLASS, WEB_FORM_ITEM_CLASS } from './classes/web-form.js'
import { COMMANDS } from './commands/index.js'
import { provideRuntimeParts } from './context/runtime-parts.js'
import { Runtime } from './context/runtime.js'
import { STEP_CALLS } from './context/step-calls.js'
import { SITE_CALLS } from './context/site-calls.js'
import { COMPARE_STEPS } from './ops/compare-steps.js'
import { FILE_CLASS, FOLDER_CLASS } from './files/file-classes.js'
import { MAIL_ATTACHMENT_CLASS } from './mail/mail-attachment.js'
import { SMTP_TRANSPORTER_CLASS } from './mail/smtp-transporter.js'
import { ZIP_ARCHIVE_CLASS, ZIP_FILE_CLASS, ZIP_FOLDER_CLASS } from './files/zip-objects.js'

provideRuntimeParts({
  commands: COMMANDS.impls,
  commandSteps: COMMANDS.steps,
  notRunnable: (name) => COMMANDS.byName(name)?.notRunnable,
  collectionFunctions: COLLECTION_FUNCTIONS,
  collectionSteps: COLLECTION_STEPS,
  // `4D.Object`, the class every object inherits from (classes.md), first.
  builtinClasses: [
    ['Object', OBJECT_CLASS],
    ['Function', FUNCTION_CLASS],
    ['File', FILE_CLASS],
    ['Folder', FOLDER_CLASS],
    ['ZipArchive', ZIP_ARCHIVE_CLASS],
    ['ZipFile', ZIP_FILE_CLASS],
    ['ZipFolder', ZIP_FOLDER_CLASS],
    ['OutgoingMessage', OUTGOING_MESSAGE_CLASS],
    ['IncomingMessage', INCOMING_MESSAGE_CLASS],
    ['Blob', BLOB_CLASS],
    ['WebForm', WEB_FORM_CLASS],
    ['WebFormItem', WEB_FORM_ITEM_CLASS],
    ['HTTPRequest', HTTP_REQUEST_CLASS],
    ['Signal', SIGNAL_CLASS],
    ['SMTPTransporter', SMTP_TRANSPORTER_CLASS],
    ['MailAttachment', MAIL_ATTACHMENT_CLASS],
  ],
})

// The calls a generator of 4D code makes (context/step-calls.ts), its comparisons of long texts
// (ops/compare-steps.ts) and the calls at a site (context/site-calls.ts), beside the operators.
Object.assign(Runtime.prototype, STEP_CALLS, COMPARE_STEPS, SITE_CALLS)

export { Runtime, type RuntimeOptions } from './context/runtime.js'
