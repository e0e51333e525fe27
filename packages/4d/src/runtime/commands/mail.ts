/**
 * @module The Mail theme's commands: `SMTP New transporter` (docs/commands/smtp-new-transporter.md),
 * `MAIL New attachment` (MailAttachmentClass.md) and `MAIL Convert to MIME`
 * (EmailObjectClass.md): the mail as `send()` writes it, in the charsets `options` names
 * (`headerCharset`, `bodyCharset`: `mail mode UTF8` by default). The mail's objects live in
 * runtime/mail/.
 */
import { invalid } from '../arguments/arguments.js'
import { isPlainObject } from '../values/kinds.js'
import { readMail } from '../mail/email-parts.js'
import { newAttachment } from '../mail/mail-attachment.js'
import { DEFAULT_MAIL_MODE, MAIL_MODES, writeMime } from '../mail/mime-writer.js'
import { mimeOptions, newTransporter } from '../mail/smtp-transporter.js'
import type { CommandSpec } from './table.js'

const CONVERT = 'MAIL Convert to MIME'

/** A charset of MAIL Convert to MIME's options: one of 4D's modes. */
function mode(options: Record<string, unknown>, name: string): string {
  const v = options[name]
  if (v === undefined || v === null || v === '') return DEFAULT_MAIL_MODE
  const found = [...MAIL_MODES.keys()].find((m) => m.toLowerCase() === String(v).toLowerCase())
  return found ?? invalid(CONVERT, 'options', `${name}: "${String(v)}" is not a mail mode`)
}

export const MAIL_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1608,
    name: 'SMTP New transporter',
    signature: '(server: Object): Object',
    impl: (_rt, server) => newTransporter(server),
  },
  {
    number: 1644,
    name: 'MAIL New attachment',
    signature: '(file: any; name?: Text; cid?: Text; type?: Text; disposition?: Text): Object',
    impl: (rt, ...args) => newAttachment(rt, args),
  },
  {
    number: 1604,
    name: CONVERT,
    signature: '(mail: Object; options?: Object): Text',
    impl: (rt, mail, options) => {
      const given =
        options === undefined || options === null
          ? {}
          : isPlainObject(options)
            ? options
            : invalid(CONVERT, 'options', 'give an object')
      const read = readMail(CONVERT, mail, rt.now())
      return writeMime(
        read.parts,
        mimeOptions(mode(given, 'headerCharset'), mode(given, 'bodyCharset')),
      )
    },
  },
]
