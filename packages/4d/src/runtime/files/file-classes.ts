/**
 * @module `4D.File` and `4D.Folder` as values of the class store `4D` (FileClass.md,
 * FolderClass.md): `new()` is the `File` or `Folder` command (the same confinement to the
 * project's folders), and `OB Instance of` knows their objects.
 */
import { builtinClass, OBJECT_CLASS } from '../classes/builtin-class.js'
import { fileOf, folderOf } from './file-of.js'
import { FileObject, FolderObject } from './file-objects.js'

export const FILE_CLASS = builtinClass(
  'File',
  OBJECT_CLASS,
  (v) => v instanceof FileObject,
  (rt, args) => fileOf(rt, args[0], args[1]),
)

export const FOLDER_CLASS = builtinClass(
  'Folder',
  OBJECT_CLASS,
  (v) => v instanceof FolderObject,
  (rt, args) => folderOf(rt, args[0], args[1]),
)
