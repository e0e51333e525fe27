/**
 * @module The commands that give 4D code the pathname of one of its application's folders or
 * files: `Get 4D folder` (get-4d-folder.md), `Structure file` (structure-file.md) and `Temporary
 * folder` (temporary-folder.md). Each answers with a path of the project's filesystems
 * (context/file-host.ts: `/RESOURCES/`, `/PROJECT/car-rental.4DProject`), never the server's own
 * layout: a path code passes to `File` and `Folder`, as a POSIX path or with `fk platform path`
 * (files/file-of.ts takes both), and that `Folder separator` ("/") joins. A folder's path ends
 * with the separator, as 4D's do.
 *
 * The folders that are the project's are files/project-folders.ts's (4D's defaults where 4D has a
 * setting: `WebFolder` for the web root, a "temporary files" folder beside the data for the
 * temporary folder, made when it is asked for, as the system's always exists; the resources and
 * logs folders are made too, as get-4d-folder.md says). One that is not
 * (the active 4D folder, the licenses, a remote client's folder), and any of them when the code
 * runs without a project, raise 9430 as `File` and `Folder` do; a number that names no folder
 * gives "" and sets OK to 0 (get-4d-folder.md, "System variables and sets"). There are no
 * components, so the `*` of the host database changes nothing.
 */
import { pathText, type FileHost, type FsPath } from '../context/file-host.js'
import type { CommandContext } from '../context/command-context.js'
import { raise } from '../errors/fourd-error.js'
import { projectFolder, TEMPORARY_FOLDER } from '../files/project-folders.js'
import { integerArg, withoutStar } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

/** `Database folder Unix syntax` (5): the database folder, whose path is POSIX already. */
const DATABASE_FOLDER_UNIX = 5
const DATABASE_FOLDER = 4

/**
 * The folders `Get 4D folder` makes when they do not exist (get-4d-folder.md: "executing the Get
 * 4D folder command with the Current resources folder constant will create it", and the Logs
 * folder's).
 */
const MADE: ReadonlySet<number> = new Set([6, 7])

/** The folders of `Get 4D folder` that are not the project's, named in the error. */
const ELSEWHERE: ReadonlyMap<number, string> = new Map([
  [0, 'Active 4D Folder'],
  [1, 'Licenses folder'],
  [3, '4D Client database folder'],
])

/** The project's folders, or the error `File` raises without them. */
const hostOf = (rt: CommandContext, what: string): FileHost =>
  rt.files ?? raise('FileOutside', { path: what })

function get4DFolder(rt: CommandContext, args: unknown[]): string {
  const [folder] = withoutStar(args).args
  const n = folder === undefined ? 0 : integerArg('Get 4D folder', 'folder', folder)
  const place = projectFolder(n === DATABASE_FOLDER_UNIX ? DATABASE_FOLDER : n)
  if (place === undefined) {
    const elsewhere = ELSEWHERE.get(n)
    if (elsewhere !== undefined) return raise('FileOutside', { path: elsewhere })
    rt.pvSet('OK', 0)
    return ''
  }
  const path = pathText(place, true)
  if (MADE.has(n)) existing(hostOf(rt, path), place)
  else hostOf(rt, path)
  rt.pvSet('OK', 1)
  return path
}

/** The folder, made when it does not exist yet. */
function existing(host: FileHost, place: FsPath): void {
  if (host.stat(place)?.kind !== 'folder') host.makeFolder(place)
}

/** The project's `.4DProject` file, in its `Project` folder (docs/Project/architecture.md). */
function structureFile(rt: CommandContext): string {
  const project: FsPath = { fs: 'PROJECT', names: [] }
  const host = hostOf(rt, pathText(project, true))
  const name = host.list(project).find((n) => /\.4DProject$/i.test(n))
  if (name === undefined)
    return raise('FileError', {
      action: 'find the structure file in',
      path: pathText(project, true),
      detail: 'it holds no .4DProject file',
    })
  return pathText({ fs: 'PROJECT', names: [name] })
}

function temporaryFolder(rt: CommandContext): string {
  const path = pathText(TEMPORARY_FOLDER, true)
  existing(hostOf(rt, path), TEMPORARY_FOLDER)
  return path
}

export const PROJECT_PATH_COMMANDS: readonly CommandSpec[] = [
  {
    number: 485,
    name: 'Get 4D folder',
    signature: '(folder?: Integer; options?: any; star?: any): Text',
    impl: (rt, ...args) => get4DFolder(rt, args),
  },
  {
    number: 489,
    name: 'Structure file',
    signature: '(star?: any): Text',
    impl: (rt) => structureFile(rt),
  },
  {
    number: 486,
    name: 'Temporary folder',
    signature: '(): Text',
    impl: (rt) => temporaryFolder(rt),
  },
]
