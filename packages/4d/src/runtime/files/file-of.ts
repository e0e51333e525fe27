/**
 * @module A 4D.File or 4D.Folder of the project's folders from what code names it by (file.md,
 * folder.md): a POSIX path of a filesystem (`/RESOURCES/x.json`), a host path with `fk platform
 * path` when it is inside them, or a folder constant for the project's own folders (`fk resources
 * folder`, `fk data folder`, `fk web root folder`…: project-folders.ts). A platform path may also
 * be one of the filesystems' paths, which is what `platformPath` and `Get 4D folder` give.
 * Anything else — a path outside, a system folder — raises FileOutside; code that runs with no
 * project (no file host) too. The commands `File` and `Folder` (commands/files.ts) and the
 * classes' `new()` (file-classes.ts) are both this, so it lives with the objects it makes, below
 * both.
 */
import { toText } from '../convert/conversions.js'
import { raise } from '../errors/fourd-error.js'
import type { CommandContext } from '../context/command-context.js'
import { isFilesystemPath, parsePosix, type FileHost, type FsPath } from '../context/file-host.js'
import { FileObject, FolderObject } from './file-objects.js'
import { projectFolder } from './project-folders.js'

/** What making one reads of the running context: the project's folders, when it has them. */
export type FileContext = Pick<CommandContext, 'files'>

export const FK_POSIX_PATH = 0
export const FK_PLATFORM_PATH = 1

function hostOf(rt: FileContext, what: unknown): FileHost {
  return rt.files ?? raise('FileOutside', { path: toText(what) })
}

function placeOf(rt: FileContext, path: unknown, type: unknown, folder: boolean): FsPath {
  const host = hostOf(rt, path)
  if (typeof path === 'number') {
    const place = folder ? projectFolder(path) : undefined
    return place ?? raise('FileOutside', { path: String(path) })
  }
  const text = toText(path)
  // The host paths Entistore gives code (`platformPath`, `Get 4D folder`, `Temporary folder`)
  // are the filesystems' own: taken back as platform paths, they name the same place.
  if (type === FK_PLATFORM_PATH && !isFilesystemPath(text))
    return host.fromPlatform(text) ?? raise('FileOutside', { path: text })
  return parsePosix(text)
}

/** `File(path {; pathType})`, and `4D.File.new()`, which is the same (FileClass.md). */
export const fileOf = (rt: FileContext, path: unknown, type: unknown): FileObject =>
  new FileObject(hostOf(rt, path), placeOf(rt, path, type, false))

/** `Folder(path {; pathType})`, and `4D.Folder.new()`. */
export const folderOf = (rt: FileContext, path: unknown, type: unknown): FolderObject =>
  new FolderObject(hostOf(rt, path), placeOf(rt, path, type, true))

/**
 * The file a classic document command names (`READ PICTURE FILE`, `BLOB TO DOCUMENT`): a system
 * path of the project's folders; an empty name, which opens a dialog in 4D, cannot run here.
 */
export function documentOf(rt: CommandContext, command: string, name: unknown): FileObject {
  const path = toText(name)
  if (path === '')
    raise('NotImplemented', { name: `${command} with an empty name (a file dialog)` })
  return fileOf(rt, path, FK_PLATFORM_PATH)
}
