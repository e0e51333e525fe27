/**
 * @module The corpus of public 4D and Qodly projects Entistore is judged on: which repository, at
 * which commit, which folder of it is the project, and the SHA-256 of the files Entistore reads
 * there. The projects themselves are third-party code: they are reconstructed into a temporary
 * folder (reconstruct.ts) and never committed; only this manifest is. So are the components the
 * projects' dependencies.json names that 4D downloads from GitHub (4D's own NetKit and AIKit): they
 * are reconstructed beside the projects, the folder `entistore serve --components` is given.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

export type ProjectKind = 'qodly-app' | '4d-app' | '4d-demo' | '4d-sample'

export interface CorpusEntry {
  /** `owner/name` on GitHub. */
  readonly repo: string
  readonly commit: string
  /** The folder of the repository that holds `Project/` (`.` for the repository's root). */
  readonly root: string
  readonly kind: ProjectKind
  readonly note?: string
  /**
   * The creates that fail in 4D as well, by dataclass, and why (the application's code, read by a
   * person): they are counted apart, never as Entistore's failures.
   */
  readonly failsIn4D?: Readonly<Record<string, string>>
  /** How many files Entistore reads there (digest()), and their SHA-256 as one digest. */
  readonly files: number
  readonly sha256: string
}

/** A component the projects load, as 4D downloads it: the whole repository. */
export interface CorpusComponent {
  readonly repo: string
  readonly commit: string
  readonly note?: string
  readonly files: number
  readonly sha256: string
}

const MANIFEST = new URL('./manifest.json', import.meta.url)

interface Manifest {
  readonly projects: CorpusEntry[]
  readonly components?: CorpusComponent[]
}

const manifest = (): Manifest => JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest

export function readManifest(): CorpusEntry[] {
  return manifest().projects
}

export function readComponents(): CorpusComponent[] {
  return manifest().components ?? []
}

export const manifestPath = (): URL => MANIFEST

/** Where the projects are reconstructed: `ENTISTORE_CORPUS`, else a folder of the temp folder. */
export const corpusDir = (): string =>
  process.env.ENTISTORE_CORPUS ?? join(tmpdir(), 'entistore-corpus')

/** Where the components are: a folder of the corpus folder, each by its repository's name. */
export const componentsDir = (): string => join(corpusDir(), '.components')

/** A component's folder: `4D-NetKit`, as 4D's cache names it after its repository. */
export const componentFolder = (c: Pick<CorpusComponent, 'repo'>): string =>
  join(componentsDir(), c.repo.split('/')[1]!)

/** The repository's folder in the corpus: `owner+name`. */
export const repoFolder = (e: Pick<CorpusEntry, 'repo'>): string =>
  join(corpusDir(), e.repo.replace('/', '+'))

/** The project's folder (the one holding `Project/`). */
export const projectFolder = (e: Pick<CorpusEntry, 'repo' | 'root'>): string =>
  join(repoFolder(e), e.root)

/** A short name for tables and `--only`: `owner/name`, with the root when it is not the repo's. */
export const label = (e: Pick<CorpusEntry, 'repo' | 'root'>): string =>
  e.root === '.' ? e.repo : `${e.repo}:${e.root}`

/**
 * The files Entistore reads in a project folder, relative and sorted: the structure, roles.json
 * and every 4D code file under Project/Sources.
 */
export function sourceFiles(folder: string): string[] {
  const sources = join(folder, 'Project', 'Sources')
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.4dm') || name === 'catalog.4DCatalog' || name === 'roles.json')
        out.push(relative(folder, path).split('\\').join('/'))
    }
  }
  if (existsSync(sources)) walk(sources)
  return out.sort()
}

/** The digest of the files Entistore reads: SHA-256 over `path NUL sha256(file) LF`, sorted. */
export function digest(folder: string): { files: number; sha256: string } {
  const files = sourceFiles(folder)
  const all = createHash('sha256')
  for (const file of files) {
    const one = createHash('sha256')
      .update(readFileSync(join(folder, file)))
      .digest('hex')
    all.update(`${file}\0${one}\n`)
  }
  return { files: files.length, sha256: all.digest('hex') }
}
