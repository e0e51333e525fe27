/**
 * @module 4D's view of a ZIP archive (docs/API/ZipArchiveClass.md, ZipFileClass.md,
 * ZipFolderClass.md), over the entries zip-format.ts reads: a `4D.ZipArchive` whose `root` is a
 * `4D.ZipFolder`, the virtual folder of the whole archive, and in it `4D.ZipFile`s and
 * `4D.ZipFolder`s with the File and Folder members the pages list: `name`, `fullName`,
 * `extension`, `path` (relative to the archive: `/docs/a.txt`, a folder's ending in `/`, the
 * root's `/`), `platformPath` (the same), `isFile`, `isFolder`, `exists`, `hidden`, `isAlias`,
 * `isWritable` (False, as the page says), `isPackage`, `original`, `parent` (Null for the root),
 * `size`, `creationDate`/`modificationDate` and their times (the entry's MS-DOS time: a ZIP keeps
 * no creation time, so both are the modification's; the root and the folders the paths only
 * imply take the archive file's), `getContent()`, `getText()`, `files()`, `folders()`, `file()`,
 * `folder()` and `copyTo()`. `getIcon()` is not here (no icons on a server).
 *
 * `copyTo(destinationFolder {; newName} {; fk overwrite})` writes into the project's real
 * folders (a 4D.Folder): a file as one file, a folder with all it holds. The root has no name of
 * its own: copied without `newName` it extracts the archive into the destination folder itself,
 * as zip-read-archive.md's "extract all files" example does. Every entry of what is copied is
 * checked before anything is written: a path that would leave the destination (`..`, absolute:
 * "zip slip") is refused, and so is a file that exists already, unless `fk overwrite`. An entry
 * whose bytes turn out damaged stops the copy where it is.
 *
 * Nothing is decompressed until read (ZIP Read archive "does not uncompress the archive, it only
 * provides a view of its contents"); the archive's bytes are kept for that.
 */
import { invalid, wrongType } from '../arguments/arguments.js'
import { charsetOf, decodeText } from '../arguments/charsets.js'
import { builtinClass, OBJECT_CLASS } from '../classes/builtin-class.js'
import { descend, pathText, type FsPath } from '../context/file-host.js'
import type { FourDFunction } from '../context/function-object.js'
import { toText } from '../convert/conversions.js'
import { raise } from '../errors/fourd-error.js'
import { blobObject } from '../values/blob-object.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../values/host.js'
import { TimeValue } from '../values/time-value.js'
import { FK_OVERWRITE, FK_RECURSIVE, FileObject, FolderObject, members } from './file-objects.js'
import { withBreaks } from './line-breaks.js'
import { entryNames, readZip, safeEntryNames, ZipFormatError, type ZipEntry } from './zip-format.js'

/** `fk ignore invisible` (FolderClass.md `files()`, `folders()`). */
const FK_IGNORE_INVISIBLE = 8

/** A file (no children) or a folder of the archive; `entry` is undefined where a path implies it. */
class Node {
  constructor(
    public entry: ZipEntry | undefined,
    readonly children: Map<string, Node> | undefined,
  ) {}
}

interface Archive {
  readonly root: Node
  /** The archive file's path (`/DATA/a.zip`), for errors. */
  readonly path: string
  /** The archive file's modification (epoch ms): the root's date and the implied folders'. */
  readonly modified: number
}

/** What ZIP Read archive returns. */
export class ZipArchiveObject implements MemberHost {
  constructor(readonly root: ZipFolderObject) {}
  [GET_MEMBER](name: string): unknown {
    return name === 'root' ? this.root : undefined
  }
  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }
}

/** A ZipFormatError as the 4D error FileError on `path`; another error as it is. */
function asFileError(e: unknown, action: string, path: string): never {
  if (e instanceof ZipFormatError) return raise('FileError', { action, path, detail: e.message })
  throw e
}

/** The archive of `bytes` (the file at `path`, modified at `modified`), its folders made. */
export function openArchive(bytes: Uint8Array, path: string, modified: number): ZipArchiveObject {
  let entries: ZipEntry[] = []
  try {
    entries = readZip(bytes)
  } catch (e) {
    asFileError(e, 'read', path)
  }
  const root = new Node(undefined, new Map())
  for (const entry of entries) {
    const names = entryNames(entry.name)
    let parent: Node | undefined = root
    for (const name of names.slice(0, -1)) {
      const children: Map<string, Node> | undefined = parent?.children
      if (children === undefined) break
      if (!children.has(name)) children.set(name, new Node(undefined, new Map()))
      parent = children.get(name)
    }
    const last = names.at(-1)
    // An entry under a file's name, or a name given twice, keeps the first.
    if (last === undefined || parent?.children === undefined) continue
    const existing = parent.children.get(last)
    if (existing === undefined)
      parent.children.set(last, new Node(entry, entry.folder ? new Map() : undefined))
    else if (entry.folder && existing.children !== undefined) existing.entry ??= entry
  }
  return new ZipArchiveObject(new ZipFolderObject({ root, path, modified }, []))
}

abstract class ZipItem implements MemberHost {
  constructor(
    readonly archive: Archive,
    readonly names: readonly string[],
  ) {}

  abstract get isFile(): boolean
  protected abstract get members(): ReadonlyMap<string, FourDFunction>

  /** The node at this path, if the archive has one of this kind there. */
  node(): Node | undefined {
    let node: Node | undefined = this.archive.root
    for (const name of this.names) node = node?.children?.get(name)
    return node !== undefined && (node.children === undefined) === this.isFile ? node : undefined
  }

  get fullName(): string {
    return this.names.at(-1) ?? ''
  }

  /** The path inside the archive, for errors: the archive's path and this one. */
  get where(): string {
    return `${this.archive.path}${this.names.map((n) => `/${n}`).join('')}`
  }

  [GET_MEMBER](name: string): unknown {
    switch (name) {
      case 'path':
      case 'platformPath':
        return `/${this.names.join('/')}${!this.isFile && this.names.length > 0 ? '/' : ''}`
      case 'fullName':
        return this.fullName
      case 'name':
        return this.isFile ? this.fullName.replace(/\.[^.]*$/, '') : this.fullName
      case 'extension': {
        const dot = this.fullName.lastIndexOf('.')
        return this.isFile && dot > 0 ? this.fullName.slice(dot) : ''
      }
      case 'isFile':
        return this.isFile
      case 'isFolder':
        return !this.isFile
      case 'exists':
        return this.node() !== undefined
      case 'hidden':
        return this.fullName.startsWith('.')
      case 'isAlias':
      case 'isWritable':
        return false
      case 'isPackage':
        return this.isFile ? undefined : false
      case 'original':
        return this
      case 'parent':
        return this.names.length === 0
          ? null
          : new ZipFolderObject(this.archive, this.names.slice(0, -1))
      case 'size':
        return this.isFile ? (this.node()?.entry?.size ?? 0) : undefined
      case 'creationDate':
      case 'modificationDate':
      case 'creationTime':
      case 'modificationTime':
        return this.dateOrTime(name.endsWith('Date'))
      default:
        return this.members.get(name)
    }
  }

  [SET_MEMBER](name: string): void {
    raise('ReadOnlyMember', { property: name })
  }

  private dateOrTime(date: boolean): DateValue | TimeValue {
    const node = this.node()
    if (node === undefined) return date ? DateValue.NULL : TimeValue.ZERO
    const d = new Date(node.entry?.modified ?? this.archive.modified)
    return date
      ? DateValue.of(d.getFullYear(), d.getMonth() + 1, d.getDate())
      : TimeValue.hms(d.getHours(), d.getMinutes(), d.getSeconds())
  }
}

export class ZipFileObject extends ZipItem {
  get isFile(): boolean {
    return true
  }
  protected get members(): ReadonlyMap<string, FourDFunction> {
    return ZIP_FILE_MEMBERS
  }
}

export class ZipFolderObject extends ZipItem {
  get isFile(): boolean {
    return false
  }
  protected get members(): ReadonlyMap<string, FourDFunction> {
    return ZIP_FOLDER_MEMBERS
  }
}

/** An entry's bytes, inflated now; what zip-format.ts refuses is FileError on `where`. */
function readEntry(entry: ZipEntry, where: string): Uint8Array {
  try {
    return entry.read()
  } catch (e) {
    return asFileError(e, 'read', where)
  }
}

/** A file's bytes; FileError for a missing or unreadable entry. */
function bytesOf(self: ZipFileObject): Uint8Array {
  const entry = self.node()?.entry
  if (entry === undefined)
    return raise('FileError', { action: 'read', path: self.where, detail: 'no such file' })
  return readEntry(entry, self.where)
}

interface Step {
  readonly at: FsPath
  /** The file's entry; undefined for a folder to make. */
  readonly file: ZipEntry | undefined
}

/** What copying `node` to `at` writes, parents first; a path leaving `at` is refused. */
function plan(node: Node, at: FsPath, out: Step[]): Step[] {
  if (node.entry !== undefined) {
    try {
      safeEntryNames(node.entry.name)
    } catch (e) {
      asFileError(e, 'write', pathText(at))
    }
  }
  out.push({ at, file: node.children === undefined ? node.entry : undefined })
  for (const [name, child] of node.children ?? [])
    plan(child, { fs: at.fs, names: [...at.names, name] }, out)
  return out
}

/** `copyTo(destinationFolder {; newName} {; overwrite})` (FileClass.md, FolderClass.md). */
function copyTo(self: ZipItem, args: unknown[]): FileObject | FolderObject {
  const command = self.isFile ? 'ZipFile.copyTo' : 'ZipFolder.copyTo'
  const [folder, newName] = args
  if (!(folder instanceof FolderObject))
    return wrongType(command, 'destinationFolder', 'a 4D.Folder', folder)
  const given = typeof newName === 'string' && newName !== '' ? newName : undefined
  if (given !== undefined && (given.includes('/') || given === '.' || given === '..'))
    invalid(command, 'newName', `"${given}" is not one name`)
  const overwrite = args.some((a) => typeof a === 'number' && (a & FK_OVERWRITE) !== 0)
  const node = self.node()
  if (node === undefined)
    return raise('FileError', { action: 'read', path: self.where, detail: 'no such entry' })
  // The root, unnamed, goes into the folder itself; anything else under its name.
  const name = given ?? (self.names.length === 0 ? undefined : self.fullName)
  const to =
    name === undefined ? folder.at : { fs: folder.at.fs, names: [...folder.at.names, name] }
  const steps = plan(node, to, [])
  const host = folder.host
  if (!overwrite)
    for (const step of steps)
      if ((step.file !== undefined || (step.at === to && name !== undefined)) && host.stat(step.at))
        raise('FileError', {
          action: 'write',
          path: pathText(step.at),
          detail: 'it exists already',
        })
  for (const step of steps) {
    if (step.file === undefined) host.makeFolder(step.at)
    else host.writeBytes(step.at, readEntry(step.file, `${self.archive.path}/${step.file.name}`))
  }
  return self.isFile ? new FileObject(host, to) : new FolderObject(host, to)
}

/** `files()` or `folders()`: by name, `fk recursive` going down, `fk ignore invisible` (bits). */
function listing(self: ZipFolderObject, options: unknown, files: boolean): Collection {
  const bits = options === undefined ? 0 : Number(options)
  const out: ZipItem[] = []
  const visit = (node: Node, names: readonly string[]): void => {
    for (const name of [...(node.children?.keys() ?? [])].sort()) {
      if ((bits & FK_IGNORE_INVISIBLE) !== 0 && name.startsWith('.')) continue
      const child = node.children!.get(name)!
      const at = [...names, name]
      const isFile = child.children === undefined
      if (isFile === files)
        out.push(
          isFile ? new ZipFileObject(self.archive, at) : new ZipFolderObject(self.archive, at),
        )
      if ((bits & FK_RECURSIVE) !== 0 && !isFile) visit(child, at)
    }
  }
  const node = self.node()
  if (node !== undefined) visit(node, self.names)
  return new Collection(out)
}

// `file(path)`, `folder(path)`: relative names, `..` going up but not above the root (whose
// names, as a filesystem's root, descend() keeps inside).
const below = (self: ZipFolderObject, path: unknown): string[] => [
  ...descend({ fs: 'PACKAGE', names: self.names }, toText(path)).names,
]

const ZIP_FILE_MEMBERS = members(ZipFileObject, 'ZipFile', {
  getContent: (self) => blobObject(bytesOf(self)),
  // FileClass.md `getText({charSet {; breakMode}})`: UTF-8 unless a set is given.
  getText: (self, [charSet, breakMode]) =>
    withBreaks(
      decodeText(
        bytesOf(self),
        charSet === undefined ? 'utf-8' : charsetOf('ZipFile.getText', charSet),
      ),
      breakMode,
      'ZipFile.getText',
    ),
  copyTo,
})

const ZIP_FOLDER_MEMBERS = members(ZipFolderObject, 'ZipFolder', {
  files: (self, [options]) => listing(self, options, true),
  folders: (self, [options]) => listing(self, options, false),
  file: (self, [path]) => new ZipFileObject(self.archive, below(self, path)),
  folder: (self, [path]) => new ZipFolderObject(self.archive, below(self, path)),
  copyTo,
})

// The classes of the store `4D` (`OB Instance of($x; 4D.ZipFile)`): made by ZIP Read archive
// only, so without `new()`.
export const ZIP_ARCHIVE_CLASS = builtinClass(
  'ZipArchive',
  OBJECT_CLASS,
  (v) => v instanceof ZipArchiveObject,
)
export const ZIP_FILE_CLASS = builtinClass(
  'ZipFile',
  OBJECT_CLASS,
  (v) => v instanceof ZipFileObject,
)
export const ZIP_FOLDER_CLASS = builtinClass(
  'ZipFolder',
  OBJECT_CLASS,
  (v) => v instanceof ZipFolderObject,
)
