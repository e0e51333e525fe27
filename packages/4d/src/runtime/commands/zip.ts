/**
 * @module The ZIP commands (docs/commands/zip-read-archive.md, zip-create-archive.md; the objects
 * are files/zip-objects.ts, the bytes files/zip-format.ts), on the project's folders:
 * - `ZIP Read archive(zipFile {; password})`: a 4D.ZipArchive whose `root` is the archive's
 *   4D.ZipFolder. Encryption is not read here: the password is taken, and reading an encrypted
 *   entry raises FileError, whatever it is;
 * - `ZIP Create archive(fileToZip | folderToZip | zipStructure; destinationFile {; options})`:
 *   writes the archive and returns the page's status object (`success`, `status`,
 *   `statusText`). A folder is zipped with itself as the enclosing folder unless `ZIP Without
 *   enclosing folder`; `ZIP Ignore invisible files` (in `options` too) leaves out the names
 *   starting with a dot. A zipStructure's `files` holds 4D.File and 4D.Folder objects or
 *   `{source; destination; option}` objects (`destination` a relative path in the archive, which
 *   may not climb out of it); its `compression` is `ZIP Compression standard` (deflate, the
 *   default) or `ZIP Compression none`, its `level` 1 to 10 (zlib's 1 to 9, 10 as 9; 6 by
 *   default). LZMA and XZ are not written here: another `compression` raises InvalidArgument.
 *   A `password` raises NotSupported (AES encryption is not written here), so that no archive
 *   meant to be encrypted is ever written in clear; an `encryption` other than `ZIP Encryption
 *   none` without a password is the page's "Password is required for encryption". The
 *   `callback` formula is ignored: the archive is made at once, in memory, with no progress to
 *   report.
 *
 * The status codes are not documented: 0 success, 1 "Cannot create ZIP archive" (a source that
 * cannot be read, the destination that cannot be written, two entries of one path, an archive
 * that would need ZIP64), 2 "Password is required for encryption". Nor are the constants' values
 * (constants.ts, `ZIP`).
 */
import { integerArg, invalid, wrongType } from '../arguments/arguments.js'
import type { FileHost, FsPath } from '../context/file-host.js'
import { toText } from '../convert/conversions.js'
import { ERRORS } from '../errors/error-codes.js'
import { FourDError, raise } from '../errors/fourd-error.js'
import { FileObject, FolderObject } from '../files/file-objects.js'
import { safeEntryNames, writeZip, ZipFormatError, type ZipInput } from '../files/zip-format.js'
import { openArchive } from '../files/zip-objects.js'
import { Collection } from '../values/collection.js'
import { isPlainObject, newObject } from '../values/kinds.js'
import type { CommandSpec } from './table.js'
import { withinLimit } from '../values/limits.js'

const CREATE = 'ZIP Create archive'
// The constants as constants.ts gives them.
const ZIP_COMPRESSION_NONE = 0
const ZIP_COMPRESSION_STANDARD = -1
const ZIP_WITHOUT_ENCLOSING_FOLDER = 1
const ZIP_IGNORE_INVISIBLE_FILES = 2
const ZIP_ENCRYPTION_NONE = 0
// zip-create-archive.md: "ZIP Compression standard: 6".
const DEFAULT_LEVEL = 6

/** A file or folder to put in the archive, and where. */
interface Source {
  readonly item: FileObject | FolderObject
  /** Its path in the archive; undefined: its own name (a folder's, unless without enclosing). */
  readonly names: readonly string[] | undefined
  readonly enclosing: boolean
  readonly ignoreInvisible: boolean
}

interface Plan {
  readonly sources: readonly Source[]
  /** zlib's level, 0 to store. */
  readonly level: number
}

const status = (code: number, text: string): Record<string, unknown> =>
  Object.assign(newObject(), { success: code === 0, status: code, statusText: text })

const isPlan = (p: Plan | Record<string, unknown>): p is Plan => 'sources' in p

const isItem = (v: unknown): v is FileObject | FolderObject =>
  v instanceof FileObject || v instanceof FolderObject

/** A `destination`'s names in the archive; one that climbs out of it is refused. */
function destinationNames(value: unknown): string[] {
  try {
    return safeEntryNames(toText(value))
  } catch (e) {
    if (e instanceof ZipFormatError) return invalid(CREATE, 'destination', e.message)
    throw e
  }
}

/** The sources and level of a zipStructure object, or the status that refuses it. */
function structurePlan(zip: Record<string, unknown>): Plan | Record<string, unknown> {
  if (zip.password !== undefined && zip.password !== null && zip.password !== '')
    return raise('NotSupported', { construct: `${CREATE} with a password (AES encryption)` })
  if (zip.encryption != null && zip.encryption !== ZIP_ENCRYPTION_NONE)
    return status(2, 'Password is required for encryption')
  const compression = zip.compression ?? ZIP_COMPRESSION_STANDARD
  if (compression !== ZIP_COMPRESSION_STANDARD && compression !== ZIP_COMPRESSION_NONE)
    invalid(
      CREATE,
      'compression',
      `${String(compression)}: only ZIP Compression standard and ZIP Compression none are written here`,
    )
  const level = zip.level === undefined ? DEFAULT_LEVEL : integerArg(CREATE, 'level', zip.level)
  if (level < 1 || level > 10) invalid(CREATE, 'level', `${level} is not 1 to 10`)
  if (!(zip.files instanceof Collection))
    return invalid(CREATE, 'zipStructure', '"files" must be a collection')
  const sources = zip.files.items.map((entry): Source => {
    if (isItem(entry))
      return { item: entry, names: undefined, enclosing: true, ignoreInvisible: false }
    if (!isPlainObject(entry) || !isItem(entry.source))
      return invalid(CREATE, 'files', 'each element is a 4D.File, a 4D.Folder or {source; …}')
    const names = entry.destination === undefined ? undefined : destinationNames(entry.destination)
    if (names?.length === 0 && entry.source instanceof FileObject)
      invalid(CREATE, 'destination', 'a file needs a name in the archive')
    const option = entry.option === undefined ? 0 : integerArg(CREATE, 'option', entry.option)
    return {
      item: entry.source,
      names,
      enclosing: true,
      ignoreInvisible: (option & ZIP_IGNORE_INVISIBLE_FILES) !== 0,
    }
  })
  return { sources, level: compression === ZIP_COMPRESSION_NONE ? 0 : Math.min(level, 9) }
}

/** What the first parameter and the options say to archive. */
function planOf(what: unknown, options: unknown): Plan | Record<string, unknown> {
  if (isItem(what)) {
    const bits = options === undefined ? 0 : integerArg(CREATE, 'options', options)
    const enclosing = (bits & ZIP_WITHOUT_ENCLOSING_FOLDER) === 0
    const ignoreInvisible = (bits & ZIP_IGNORE_INVISIBLE_FILES) !== 0
    const source = { item: what, names: undefined, enclosing, ignoreInvisible }
    return { sources: [source], level: DEFAULT_LEVEL }
  }
  if (isPlainObject(what)) return structurePlan(what)
  return wrongType(CREATE, 'fileToZip', 'a 4D.File, a 4D.Folder or an object', what)
}

/**
 * A folder's entries under `names` (its own first, when it has a path), by name, going down each
 * real folder once (a link back to one met is a cycle: left out) and bounded as a listing is.
 */
function addFolder(
  host: FileHost,
  at: FsPath,
  names: readonly string[],
  source: Source,
  level: number,
  out: ZipInput[],
  walk: { readonly seen: Set<string>; met: number } = { seen: new Set(), met: 0 },
): void {
  const stat = host.stat(at)
  if (stat?.id !== undefined) {
    if (walk.seen.has(stat.id)) return
    walk.seen.add(stat.id)
  }
  const modified = stat?.modified ?? Date.now()
  if (names.length > 0) out.push({ name: `${names.join('/')}/`, modified, level: 0 })
  for (const name of host.list(at).sort()) {
    if (source.ignoreInvisible && name.startsWith('.')) continue
    withinLimit('fileEntries', 'An archive', ++walk.met)
    const child = { fs: at.fs, names: [...at.names, name] }
    const stat = host.stat(child)
    if (stat?.kind === 'folder') addFolder(host, child, [...names, name], source, level, out, walk)
    else
      out.push({
        name: [...names, name].join('/'),
        bytes: host.readBytes(child),
        modified: stat?.modified ?? Date.now(),
        level,
      })
  }
}

function inputsOf(plan: Plan): ZipInput[] {
  const out: ZipInput[] = []
  for (const source of plan.sources) {
    const { item } = source
    const own = item.fullName === '' ? [] : [item.fullName]
    if (item instanceof FileObject)
      out.push({
        name: (source.names ?? own).join('/'),
        bytes: item.host.readBytes(item.at),
        modified: item.host.stat(item.at)?.modified ?? Date.now(),
        level: plan.level,
      })
    else {
      if (item.host.stat(item.at)?.kind !== 'folder')
        raise('FileError', { action: 'read', path: item.path, detail: 'no such folder' })
      const names = source.names ?? (source.enclosing ? own : [])
      addFolder(item.host, item.at, names, source, plan.level, out)
    }
  }
  return out
}

// The errors of the disk (a source missing or out of reach, a destination not writable).
const DISK_ERRORS: readonly number[] = [ERRORS.FileError.errCode, ERRORS.FileOutside.errCode]

export const ZIP_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1637,
    name: 'ZIP Read archive',
    signature: '(zipFile: Object; password?: Text): Object',
    impl: (_rt, zipFile) => {
      if (!(zipFile instanceof FileObject))
        return wrongType('ZIP Read archive', 'zipFile', 'a 4D.File', zipFile)
      const bytes = zipFile.host.readBytes(zipFile.at)
      const modified = zipFile.host.stat(zipFile.at)?.modified ?? Date.now()
      return openArchive(bytes, zipFile.path, modified)
    },
  },
  {
    number: 1640,
    name: CREATE,
    signature: '(source: any; destinationFile: Object; options?: Integer): Object',
    impl: (_rt, what, destination, options) => {
      if (!(destination instanceof FileObject))
        return wrongType(CREATE, 'destinationFile', 'a 4D.File', destination)
      const plan = planOf(what, options)
      if (!isPlan(plan)) return plan
      try {
        destination.host.writeBytes(destination.at, writeZip(inputsOf(plan)))
      } catch (e) {
        if (e instanceof ZipFormatError || (FourDError.is(e) && DISK_ERRORS.includes(e.errCode)))
          return status(1, 'Cannot create ZIP archive')
        throw e
      }
      return status(0, '')
    },
  },
]
