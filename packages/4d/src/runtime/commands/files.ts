/**
 * @module The `File` and `Folder` commands (docs/commands/file.md, folder.md): a 4D.File or
 * 4D.Folder of the project's folders, made as files/file-of.ts makes them (`4D.File.new()` is
 * the same).
 */
import { fileOf, folderOf } from '../files/file-of.js'
import type { CommandSpec } from './table.js'

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
