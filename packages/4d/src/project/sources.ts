/**
 * @module The 4D code of a project folder, read from disk: its class files
 * (`Project/Sources/Classes/*.4dm`) and method files (`Project/Sources/Methods/*.4dm`). The
 * folder given may be the one that holds `Project`, the `Project` folder, its `Sources` folder,
 * or a bare folder of class files (a 4D developer checks code before there is a structure).
 * With component-sources.ts, the only files of the package that read the disk: the rest takes
 * the texts.
 */
import { existsSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** One file of 4D code. */
export interface ProjectSource {
  /**
   * The file as errors and `entistore check` name it, from the project's `Project` folder
   * (`Sources/Classes/Car.4dm`), or from a bare folder of class files (`Car.4dm`).
   */
  readonly path: string
  readonly kind: 'class' | 'method'
  readonly text: string
}

export interface ProjectSources {
  /** The folder the paths are relative to (the `Project` folder, or the bare folder). */
  readonly root: string
  /** Class files first, then method files, each by name. */
  readonly files: readonly ProjectSource[]
}

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory()

const codeFiles = async (dir: string): Promise<string[]> =>
  isFolder(dir) ? (await readdir(dir)).filter((n) => n.toLowerCase().endsWith('.4dm')).sort() : []

/** Where the code of `folder` is: its root, and the Sources folder under it (null: a bare folder). */
function locate(folder: string): { root: string; sources: string | null } {
  const hasCode = (sources: string): boolean =>
    isFolder(join(sources, 'Classes')) || isFolder(join(sources, 'Methods'))
  for (const root of [join(folder, 'Project'), folder])
    if (hasCode(join(root, 'Sources'))) return { root, sources: 'Sources' }
  // The Sources folder itself: its paths are named from the folder above.
  if (hasCode(folder)) {
    const sources = resolve(folder)
    return { root: dirname(sources), sources: basename(sources) }
  }
  return { root: folder, sources: null }
}

/**
 * The 4D code of the project at `folder`.
 * @throws Error when `folder` is not a folder (its message says so, without the path)
 */
export async function readProjectSources(folder: string): Promise<ProjectSources> {
  if (!isFolder(folder))
    throw new Error(existsSync(folder) ? 'not a folder' : 'the folder does not exist')
  const { root, sources } = locate(folder)
  const read = async (dir: string, kind: ProjectSource['kind']): Promise<ProjectSource[]> =>
    Promise.all(
      (await codeFiles(join(root, dir))).map(async (name) => ({
        path: dir === '' ? name : join(dir, name),
        kind,
        text: (await readFile(join(root, dir, name))).toString('utf8'),
      })),
    )
  if (sources === null) return { root, files: await read('', 'class') }
  return {
    root,
    files: [
      ...(await read(join(sources, 'Classes'), 'class')),
      ...(await read(join(sources, 'Methods'), 'method')),
    ],
  }
}
