/**
 * @module Where a 4D project folder's files are (its Project folder, structure, roles, classes),
 * alone in its module: `serve` asks it for what --watch watches and for the quotas file, and a
 * start without --project then loads nothing of the structure's reading (load-project.ts), since
 * every module a start loads is start-up time.
 */
import { existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { FileError } from '../files/file-error.js'

/** The files of a project folder that Entistore reads. */
export interface ProjectFiles {
  /** The `Project` folder. */
  readonly project: string
  /** `Project/Sources/catalog.4DCatalog`. */
  readonly catalog: string
  /** `Project/Sources/roles.json`, when the project has one. */
  readonly roles: string | undefined
  /** `Project/Sources/Classes`, when the project has one. */
  readonly classes: string | undefined
}

const CATALOG = join('Sources', 'catalog.4DCatalog')

/**
 * The files of the project at `folder`: the `Project` folder itself, or the folder that holds it
 * (the one with the `.4DProject` file's folder in it, as 4D lays a project out).
 */
export function projectFiles(folder: string): ProjectFiles {
  const candidates = [folder, join(folder, 'Project')]
  const project = candidates.find((dir) => existsSync(join(dir, CATALOG)))
  if (project === undefined) {
    const why = !existsSync(folder)
      ? 'the project folder does not exist'
      : !statSync(folder).isDirectory()
        ? 'the project path is a file, not a folder'
        : `no ${CATALOG} in it nor in its Project folder: give the 4D project's Project folder, or the folder that holds it`
    throw new FileError(folder, why)
  }
  const sources = join(project, 'Sources')
  const roles = join(sources, 'roles.json')
  const classes = join(sources, 'Classes')
  return {
    project,
    catalog: join(project, CATALOG),
    roles: existsSync(roles) ? roles : undefined,
    classes: existsSync(classes) ? classes : undefined,
  }
}

/**
 * What `--watch` watches of the project at `folder` (serve, test, bundle): the structure file,
 * roles.json unless `roles` gives another file, the Classes and Methods folders (each standing for
 * the files in it: serve/watch.ts), and `more` files of Sources (test's folders.json).
 */
export function watchedSources(
  folder: string,
  roles: string | undefined,
  more: readonly string[] = [],
): string[] {
  const { catalog, classes } = projectFiles(folder)
  const sources = dirname(catalog)
  return [
    catalog,
    ...(roles === undefined ? [join(sources, 'roles.json')] : []),
    classes ?? join(sources, 'Classes'),
    // The project methods the class functions call.
    join(sources, 'Methods'),
    ...more.map((name) => join(sources, name)),
  ]
}
