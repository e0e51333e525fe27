/**
 * @module The `File` and `Folder` commands (docs/commands/file.md, folder.md): a 4D.File or
 * 4D.Folder of the project's folders (runtime/files/), from a POSIX path of a filesystem
 * (`/RESOURCES/x.json`), a host path with `fk platform path` when it is inside them, or a folder
 * constant for the project's own folders (`fk resources folder`, `fk data folder`…). Anything
 * else — a path outside, a system folder — raises FileOutside; code that runs with no project
 * (no file host) too.
 */
import { raise } from '../errors/fourd-error.js'
import { FileObject, FolderObject } from '../files/file-objects.js'
import { parsePosix, type FileHost, type Filesystem, type FsPath } from '../files/file-host.js'
import { toText } from '../convert/conversions.js'
import type { CommandContext, CommandSpec } from './table.js'

export const FK_POSIX_PATH = 0
export const FK_PLATFORM_PATH = 1

/** The folder constants of the project's own folders (folder.md), as filesystems. */
const FOLDER_CONSTANTS: ReadonlyMap<number, Filesystem> = new Map([
  [4, 'PACKAGE'], // fk database folder
  [6, 'RESOURCES'], // fk resources folder
  [7, 'LOGS'], // fk logs folder
  [9, 'DATA'], // fk data folder
])

function hostOf(rt: CommandContext, what: unknown): FileHost {
  return rt.files ?? raise('FileOutside', { path: toText(what) })
}

function placeOf(rt: CommandContext, path: unknown, type: unknown, folder: boolean): FsPath {
  const host = hostOf(rt, path)
  if (typeof path === 'number') {
    const fs = folder ? FOLDER_CONSTANTS.get(path) : undefined
    return fs === undefined ? raise('FileOutside', { path: String(path) }) : { fs, names: [] }
  }
  const text = toText(path)
  if (type === FK_PLATFORM_PATH)
    return host.fromPlatform(text) ?? raise('FileOutside', { path: text })
  return parsePosix(text)
}

/** `File(path {; pathType})`, and `4D.File.new()`, which is the same (FileClass.md). */
export const fileOf = (rt: CommandContext, path: unknown, type: unknown): FileObject =>
  new FileObject(hostOf(rt, path), placeOf(rt, path, type, false))

/** `Folder(path {; pathType})`, and `4D.Folder.new()`. */
export const folderOf = (rt: CommandContext, path: unknown, type: unknown): FolderObject =>
  new FolderObject(hostOf(rt, path), placeOf(rt, path, type, true))

export const FILE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1566,
    name: 'File',
    signature: '(path: any; pathType?: Integer): Object',
    impl: fileOf,
  },
  {
    number: 1567,
    name: 'Folder',
    signature: '(path: any; pathType?: Integer): Object',
    impl: folderOf,
  },
]
