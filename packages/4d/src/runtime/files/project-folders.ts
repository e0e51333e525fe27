/**
 * @module The folders of 4D's environment that are the project's own, by the numbers 4D gives
 * them: `Folder(fk web root folder)` (folder.md) and `Get 4D folder(HTML Root folder)`
 * (get-4d-folder.md) use the same ones (4 the database folder, 6 resources, 7 logs, 8 the web
 * root, 9 data, 10 mobile apps), so both read this table. Each is a path of the project's
 * filesystems (context/file-host.ts); a folder that is not the project's (the user preferences,
 * the licenses, a remote client's) is not here, and the commands refuse it as they refuse a path
 * outside. Where 4D's place for a folder is a setting, the table holds 4D's default:
 * docs/Project/architecture.md puts `WebFolder` ("Default root folder of the 4D Web server") in
 * the project's root folder, get-4d-folder.md the MobileApps folder "at the same level as the
 * current 4D data file", and docs/settings/database.md the temporary files in a "temporary files"
 * folder beside the data file ("Data File Folder (default option)").
 */
import type { FsPath } from '../context/file-host.js'

/** The folders of `Folder(constant)` and `Get 4D folder(constant)` that are the project's. */
const PROJECT_FOLDERS: ReadonlyMap<number, FsPath> = new Map<number, FsPath>([
  [4, { fs: 'PACKAGE', names: [] }], // fk database folder, Database folder
  [6, { fs: 'RESOURCES', names: [] }], // fk resources folder, Current resources folder
  [7, { fs: 'LOGS', names: [] }], // fk logs folder, Logs folder
  [8, { fs: 'PACKAGE', names: ['WebFolder'] }], // fk web root folder, HTML Root folder
  [9, { fs: 'DATA', names: [] }], // fk data folder, Data folder
  [10, { fs: 'DATA', names: ['MobileApps'] }], // fk mobileApps folder, MobileApps folder
])

/** The project's folder of a folder constant, if it is one of the project's. */
export const projectFolder = (constant: number): FsPath | undefined => PROJECT_FOLDERS.get(constant)

/** Where `Temporary folder` points: 4D's default place for temporary files, beside the data. */
export const TEMPORARY_FOLDER: FsPath = { fs: 'DATA', names: ['temporary files'] }
