/**
 * @module 4D's File and Folder objects (docs/API/FileClass.md, FolderClass.md) on the project's
 * folders (context/file-host.ts): the properties a server's code reads (`exists`, `name`, `extension`,
 * `fullName`, `path`, `platformPath`, `parent`, `isFile`, `isFolder`, `size`, `creationDate`,
 * `modificationDate`) and the functions it calls (`getText`, `getContent`, `setText`, `create`, `delete`,
 * `copyTo`, `moveTo`, `files`, `folders`, `file`, `folder`). `path` and `platformPath` are the
 * filesystem path (`/DATA/x.txt`): the server's own layout is not shown.
 */
import { blobBytes, blobObject } from '../values/blob-object.js'
import { FourDFunction } from '../context/function-object.js'
import type { Runtime } from '../context/runtime.js'
import { toText } from '../convert/conversions.js'
import { charsetOf, decodeText, encodeText } from '../arguments/charsets.js'
import { ERRORS } from '../errors/error-codes.js'
import { FourDError, raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { descend, pathText, type FileHost, type FsPath } from '../context/file-host.js'
import { withBreaks } from './line-breaks.js'
import { withinLimit } from '../values/limits.js'

/** `fk overwrite` (copyTo), `fk recursive` (files, folders), `Delete with contents` (delete). */
export const FK_OVERWRITE = 4
export const FK_RECURSIVE = 1
export const DELETE_WITH_CONTENTS = 1

abstract class Entry implements MemberHost {
  constructor(
    readonly host: FileHost,
    readonly at: FsPath,
  ) {}

  abstract get isFile(): boolean
  protected abstract get members(): ReadonlyMap<string, FourDFunction>

  get fullName(): string {
    return this.at.names.at(-1) ?? ''
  }

  get path(): string {
    return pathText(this.at, !this.isFile)
  }

  [GET_MEMBER](name: string): unknown {
    const stat = (): ReturnType<FileHost['stat']> => this.host.stat(this.at)
    switch (name) {
      case 'path':
      case 'platformPath':
        return this.path
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
        return statInside(this.host, this.at)?.kind === (this.isFile ? 'file' : 'folder')
      case 'parent':
        return this.at.names.length === 0
          ? null
          : new FolderObject(this.host, { fs: this.at.fs, names: this.at.names.slice(0, -1) })
      case 'size':
        return this.isFile ? (stat()?.size ?? 0) : undefined
      case 'creationDate':
      case 'modificationDate': {
        const s = stat()
        if (s === null) return DateValue.fromISO('0000-00-00')
        const ms = name === 'creationDate' ? s.created : s.modified
        return DateValue.fromISO(new Date(ms).toISOString().slice(0, 10))
      }
      default:
        return this.members.get(name)
    }
  }
}

export class FileObject extends Entry {
  get isFile(): boolean {
    return true
  }
  protected get members(): ReadonlyMap<string, FourDFunction> {
    return FILE_MEMBERS
  }
}

export class FolderObject extends Entry {
  get isFile(): boolean {
    return false
  }
  protected get members(): ReadonlyMap<string, FourDFunction> {
    return FOLDER_MEMBERS
  }
}

export type Impl<E> = (self: E, args: unknown[], rt: Runtime) => unknown

/** The class functions of a kind of object, each refusing to run on another kind. */
export function members<E extends object>(
  kind: abstract new (...args: never[]) => E,
  label: string,
  defs: Readonly<Record<string, Impl<E>>>,
): Map<string, FourDFunction> {
  return new Map(
    Object.entries(defs).map(([name, impl]) => [
      name,
      new FourDFunction(`${label}.${name}`, (rt, self, args) =>
        self instanceof kind ? impl(self, args, rt) : raise('UnknownMemberMethod', { name }),
      ),
    ]),
  )
}

/** A name given to `copyTo`/`moveTo`/`rename`: one name, no folder in it. */
function oneName(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback
  const name = toText(value)
  if (name.includes('/') || name === '..' || name === '.') raise('FileOutside', { path: name })
  return name
}

/** The destination of `copyTo`/`moveTo`: a Folder of the project, and the name in it. */
function destination(self: Entry, args: unknown[]): FsPath {
  const folder = args[0]
  if (!(folder instanceof FolderObject))
    return raise('WrongParameterType', {
      parameter: '1',
      command: self.isFile ? 'File.copyTo' : 'Folder.copyTo',
      expected: 'a 4D.Folder',
      actual: typeof folder,
    })
  const name = oneName(typeof args[1] === 'string' ? args[1] : undefined, self.fullName)
  return { fs: folder.at.fs, names: [...folder.at.names, name] }
}

function copyOrMove(self: Entry, args: unknown[], move: boolean): Entry {
  const to = destination(self, args)
  const overwrite = args.some((a) => typeof a === 'number' && (a & FK_OVERWRITE) !== 0)
  if (!overwrite && self.host.stat(to) !== null)
    raise('FileError', { action: 'write', path: pathText(to), detail: 'it exists already' })
  if (move) self.host.move(self.at, to)
  else self.host.copy(self.at, to)
  return self.isFile ? new FileObject(self.host, to) : new FolderObject(self.host, to)
}

const FILE_MEMBERS = members(FileObject, 'File', {
  // FileClass.md: `getText({charSet {; breakMode}})`, `setText(text {; charSet {; breakMode}})`.
  getText: (self, [charSet, breakMode]) =>
    withBreaks(
      charSet === undefined
        ? self.host.readText(self.at)
        : decodeText(self.host.readBytes(self.at), charsetOf('File.getText', charSet)),
      breakMode,
      'File',
    ),
  // A 4D.Blob (FileClass.md), over the file's bytes.
  getContent: (self) => blobObject(self.host.readBytes(self.at)),
  setText(self, [text, charSet, breakMode]) {
    const written = withBreaks(toText(text), breakMode, 'File')
    if (charSet === undefined) return self.host.writeText(self.at, written)
    const encoding = charsetOf('File.setText', charSet)
    self.host.writeBytes(self.at, encodeText('File.setText', written, encoding))
  },
  // FileClass.md: the BLOB's bytes (4D's handler page writes an uploaded body with it).
  setContent: (self, [blob]) => self.host.writeBytes(self.at, blobParameter(blob)),
  create(self) {
    if (self.host.stat(self.at) !== null) return false
    self.host.writeText(self.at, '')
    return true
  },
  delete: (self) => self.host.remove(self.at, false),
  copyTo: (self, args) => copyOrMove(self, args, false),
  moveTo: (self, args) => copyOrMove(self, args, true),
  rename: (self, [name]) =>
    copyOrMove(self, [new FolderObject(self.host, parentOf(self.at)), oneName(name, '')], true),
})

/** The bytes of `setContent`'s parameter: a BLOB (a 4D.Blob or a Blob variable). */
function blobParameter(value: unknown): Uint8Array {
  const bytes = blobBytes(value)
  if (bytes !== undefined) return bytes
  return raise('WrongParameterType', {
    parameter: 'content',
    command: 'File.setContent',
    expected: 'a BLOB',
    actual: value === null ? 'Null' : typeof value,
  })
}

const parentOf = (at: FsPath): FsPath => ({ fs: at.fs, names: at.names.slice(0, -1) })

const UNREACHABLE: readonly number[] = [ERRORS.FileOutside.errCode, ERRORS.FileError.errCode]

/**
 * The stat of an entry, null for one that cannot be reached (a link out of the project or to
 * nothing): such an entry does not exist for `exists` and a listing.
 */
function statInside(host: FileHost, at: FsPath): ReturnType<FileHost['stat']> {
  try {
    return host.stat(at)
  } catch (e) {
    if (FourDError.is(e) && UNREACHABLE.includes(e.errCode)) return null
    throw e
  }
}

/**
 * The entries of a folder, `fk recursive` going down its subfolders (not a link out). Each real
 * folder is gone down once: a link to a folder already met (`a -> .`) is listed, not entered,
 * so a cycle of links ends; the entries met are bounded (values/limits.ts' `fileEntries`).
 */
function entries(self: FolderObject, recursive: boolean, kind: 'file' | 'folder'): Collection {
  const out: Entry[] = []
  const seen = new Set<string>()
  const own = statInside(self.host, self.at)?.id
  if (own !== undefined) seen.add(own)
  let met = 0
  const visit = (at: FsPath): void => {
    for (const name of self.host.list(at).sort()) {
      if (name.startsWith('.')) continue
      withinLimit('fileEntries', 'A listing', ++met)
      const child = { fs: at.fs, names: [...at.names, name] }
      const stat = statInside(self.host, child)
      if (stat?.kind === kind)
        out.push(
          kind === 'file' ? new FileObject(self.host, child) : new FolderObject(self.host, child),
        )
      if (!recursive || stat?.kind !== 'folder') continue
      if (stat.id !== undefined) {
        if (seen.has(stat.id)) continue
        seen.add(stat.id)
      }
      visit(child)
    }
  }
  visit(self.at)
  return new Collection(out)
}

const FOLDER_MEMBERS = members(FolderObject, 'Folder', {
  files: (self, [options]) => entries(self, Number(options) === FK_RECURSIVE, 'file'),
  folders: (self, [options]) => entries(self, Number(options) === FK_RECURSIVE, 'folder'),
  file: (self, [path]) => new FileObject(self.host, descend(self.at, toText(path))),
  folder: (self, [path]) => new FolderObject(self.host, descend(self.at, toText(path))),
  create(self) {
    if (self.host.stat(self.at) !== null) return false
    self.host.makeFolder(self.at)
    return true
  },
  delete: (self, [option]) => self.host.remove(self.at, Number(option) === DELETE_WITH_CONTENTS),
  copyTo: (self, args) => copyOrMove(self, args, false),
  moveTo: (self, args) => copyOrMove(self, args, true),
  rename: (self, [name]) =>
    copyOrMove(self, [new FolderObject(self.host, parentOf(self.at)), oneName(name, '')], true),
})
