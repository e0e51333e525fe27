/**
 * @module `4D.MailAttachment` (docs/API/MailAttachmentClass.md), as `MAIL New attachment(source {;
 * name {; cid {; type {; disposition}}}})` and `4D.MailAttachment.new()` make it: a file of the
 * project's folders (a 4D.File, or its path: a system path, or a name alone for a file beside the
 * project file, in /PROJECT/), a 4D.ZipFile (its `getContent()`), or a BLOB. Its content is read when it is made; its read-only
 * properties are `name` (the file's, or a random one for a BLOB), `type` (given, else by the
 * name's extension, the page's table), `cid`, `disposition` (given, else `inline` with a cid,
 * `attachment` without), `path` and `platformPath` (a file's), and `getContent()` gives a 4D.Blob.
 */
import { hexOf, randomBytes } from '../platform/bytes.js'
import { builtinClass, OBJECT_CLASS } from '../classes/builtin-class.js'
import type { CommandContext } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import { toText } from '../convert/conversions.js'
import { invalid, wrongType } from '../arguments/arguments.js'
import { raise } from '../errors/fourd-error.js'
import { fileOf, FK_PLATFORM_PATH, FK_POSIX_PATH } from '../files/file-of.js'
import { FileObject } from '../files/file-objects.js'
import { blobBytes, blobObject } from '../values/blob-object.js'
import { GET_MEMBER, isMemberHost, SET_MEMBER, TO_JSON, type MemberHost } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import type { AttachmentPart } from './mime-writer.js'

const COMMAND = 'MAIL New attachment'

/** The page's table of types by extension; any other is application/octet-stream. */
const TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  zip: 'application/zip',
  gz: 'application/gzip',
  json: 'application/json',
  js: 'application/javascript',
  ps: 'application/postscript',
  xml: 'application/xml',
  htm: 'text/html',
  html: 'text/html',
  mp3: 'audio/mpeg',
}

export class FourDMailAttachment implements MemberHost {
  constructor(
    readonly part: AttachmentPart,
    /** The file's path, when made from one. */
    readonly path: string | undefined,
  ) {}

  [GET_MEMBER](name: string): unknown {
    switch (name) {
      case 'name':
        return this.part.name
      case 'type':
        return this.part.type
      case 'cid':
        return this.part.cid
      case 'disposition':
        return this.part.disposition
      case 'path':
      case 'platformPath':
        return this.path
      case 'getContent':
        return GET_CONTENT
      default:
        return undefined
    }
  }

  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }

  [TO_JSON](): unknown {
    const o = newObject()
    for (const key of ['name', 'type', 'cid', 'disposition', 'path'] as const) {
      const v = this[GET_MEMBER](key)
      if (v !== undefined) o[key] = v
    }
    return o
  }
}

const GET_CONTENT = new FourDFunction('MailAttachment.getContent', (_rt, self) =>
  self instanceof FourDMailAttachment
    ? blobObject(self.part.bytes)
    : raise('UnknownMemberMethod', { name: 'getContent' }),
)

/** An optional text parameter: undefined when not given or empty. */
function optionalText(parameter: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') return wrongType(COMMAND, parameter, 'Text', v)
  return v.trim() === '' ? undefined : v
}

/** The bytes, the file's path and its name, from what `source` names. */
function sourceOf(
  rt: CommandContext,
  source: unknown,
): { bytes: Uint8Array; path?: string; name?: string } {
  const bytes = blobBytes(source)
  if (bytes !== undefined) return { bytes }
  let file: FileObject
  if (source instanceof FileObject) file = source
  else if (typeof source === 'string') {
    if (source === '') return invalid(COMMAND, 'path', 'give a file path')
    // A name alone is looked for beside the project file, as 4D does.
    file = /[/\\:]/.test(source)
      ? fileOf(rt, source, FK_PLATFORM_PATH)
      : fileOf(rt, `/PROJECT/${source}`, FK_POSIX_PATH)
  } else return zipFileOf(rt, source)
  return { bytes: file.host.readBytes(file.at), path: file.path, name: file.fullName }
}

/** A 4D.ZipFile, or any file object whose `getContent()` gives its bytes: they, its name, its path. */
function zipFileOf(
  rt: CommandContext,
  source: unknown,
): { bytes: Uint8Array; path?: string; name?: string } {
  const member = (name: string): unknown =>
    typeof source === 'object' && source !== null && isMemberHost(source)
      ? source[GET_MEMBER](name)
      : undefined
  const bytes =
    member('getContent') instanceof FourDFunction
      ? blobBytes(rt.call(source, 'getContent', []))
      : undefined
  if (bytes === undefined)
    return wrongType(COMMAND, 'file', '4D.File, 4D.ZipFile, 4D.Blob, BLOB or Text', source)
  const [name, path] = [member('fullName'), member('path')]
  return {
    bytes,
    ...(typeof name === 'string' && name !== '' ? { name } : {}),
    ...(typeof path === 'string' ? { path } : {}),
  }
}

/** `MAIL New attachment`, and `4D.MailAttachment.new()`. */
export function newAttachment(rt: CommandContext, args: readonly unknown[]): FourDMailAttachment {
  const [source, nameArg, cidArg, typeArg, dispositionArg] = args
  const { bytes, path, name: fileName } = sourceOf(rt, source)
  const name = optionalText('name', nameArg) ?? fileName ?? hexOf(randomBytes(8))
  const cid = optionalText('cid', cidArg)?.trim()
  if (cid !== undefined && !/^[\x21-\x7e]+$/.test(cid.replace(/^<|>$/g, '')))
    invalid(COMMAND, 'cid', `"${cid}" is not a content ID (printable US-ASCII, no space)`)
  const given = optionalText('type', typeArg)
  if (given !== undefined && !/^[\x20-\x7e]+$/.test(given))
    invalid(COMMAND, 'type', `"${given}" is not a media type`)
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''
  const type = given ?? TYPES[extension] ?? 'application/octet-stream'
  const disposition = (optionalText('disposition', dispositionArg) ?? '').toLowerCase()
  if (disposition !== '' && disposition !== 'inline' && disposition !== 'attachment')
    invalid(COMMAND, 'disposition', `"${toText(dispositionArg)}" is neither inline nor attachment`)
  const part: AttachmentPart = {
    name,
    type,
    bytes,
    ...(cid === undefined ? {} : { cid: cid.replace(/^<|>$/g, '') }),
    disposition: disposition === '' ? (cid === undefined ? 'attachment' : 'inline') : disposition,
  }
  return new FourDMailAttachment(part, path)
}

/** `4D.MailAttachment`: `new()` is `MAIL New attachment`; `OB Instance of` knows its objects. */
export const MAIL_ATTACHMENT_CLASS = builtinClass(
  'MailAttachment',
  OBJECT_CLASS,
  (v) => v instanceof FourDMailAttachment,
  (rt, args) => newAttachment(rt, args),
)
