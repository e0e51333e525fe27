/**
 * @module The components a project loads, found on disk as 4D finds them (docs/Project/
 * components.md, "Loading components"), in its order of priority:
 * 1. the project's `Components` folder (`<package>/Components/Name.4dbase`);
 * 2. the names `Project/Sources/dependencies.json` declares: at the path an `environment4d.json`
 *    (in the package folder or a folder above it) gives, else next to the package folder; a
 *    GitHub dependency (`"github": "owner/repo"`) in 4D's local cache of downloads, which here is
 *    the folders the caller names (`entistore serve --components`), looked up by the dependency's
 *    name or its repository's (`4D NetKit`, `4D-NetKit`);
 * 3. 4D's own components (4D NetKit, 4D AIKit, 4D SVG…), which 4D loads undeclared: they are not
 *    shipped with Entistore; the folders the caller names may hold them (`4D-NetKit`).
 *
 * A component's package holds a `Project` folder (interpreted: its code is read as the project's
 * is, by sources.ts) or a `.4DZ` (compiled: named, its code cannot run here). Its classes are
 * `cs.<namespace>.Name` for the host, the namespace its settings give
 * (`component_classStore_name`); its methods marked `"shared":true` the host calls by name.
 * Nothing here downloads: a dependency not found is told, as 4D's *Not found* status.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readProjectSources, type ProjectSource } from './sources.js'

/** A component found: interpreted (its code) or compiled (named only). */
export interface ComponentSources {
  /** Its name, as dependencies.json or its package folder names it. */
  readonly name: string
  /** Its package folder. */
  readonly folder: string
  /** `cs.<namespace>` in the host; null: its classes are not the host's to see. */
  readonly namespace: string | null
  /** Its code (none for a compiled component). */
  readonly files: readonly ProjectSource[]
  /** The names of its methods the host may call (`"shared":true`). */
  readonly shared: readonly string[]
  /** Its code is compiled (a `.4DZ`), which cannot run here. */
  readonly compiled: boolean
}

/** A component declared and not found, as 4D's Dependencies panel says *Not found*. */
export interface MissingComponent {
  readonly name: string
  /** Where it was looked for. */
  readonly looked: readonly string[]
}

export interface ProjectComponents {
  readonly found: readonly ComponentSources[]
  readonly missing: readonly MissingComponent[]
}

export interface ComponentSearch {
  /** Folders that hold downloaded components (4D's local cache), searched by name. */
  readonly folders?: readonly string[]
}

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory()

const readJsonText = (text: string): unknown => {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return undefined
  }
}

const readJson = (path: string): unknown =>
  existsSync(path) ? readJsonText(readFileSync(path, 'utf8')) : undefined

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** `<general component_classStore_name="NetKit"/>` of a component's settings. */
function namespaceOf(projectFolder: string): string | null {
  const settings = join(projectFolder, 'Sources', 'settings.4DSettings')
  if (!existsSync(settings)) return null
  const m = /component_classStore_name\s*=\s*"([^"]*)"/.exec(readFileSync(settings, 'utf8'))
  return m === null || m[1] === '' ? null : m[1]!
}

// `//%attributes = {"invisible":true,"shared":true}`, a method file's first line.
const ATTRIBUTES = /^\s*\/\/\s*%attributes\s*=\s*(\{.*\})\s*$/m

const isShared = (text: string): boolean => {
  const first = text.split('\n', 1)[0] ?? ''
  const m = ATTRIBUTES.exec(first)
  const attributes = m === null ? undefined : readJsonText(m[1]!)
  return isRecord(attributes) && attributes['shared'] === true
}

/** The component whose package is `folder`, or null when it holds no component. */
async function componentAt(name: string, folder: string): Promise<ComponentSources | null> {
  const project = join(folder, 'Project')
  if (isFolder(join(project, 'Sources'))) {
    const { files } = await readProjectSources(folder)
    return {
      name,
      folder,
      namespace: namespaceOf(project),
      files,
      shared: files
        .filter((f) => f.kind === 'method' && isShared(f.text))
        .map((f) => basename(f.path, '.4dm')),
      compiled: false,
    }
  }
  const compiled = [folder, join(folder, 'Contents')].some(
    (dir) => isFolder(dir) && readdirSync(dir).some((n) => n.toLowerCase().endsWith('.4dz')),
  )
  return compiled ? { name, folder, namespace: null, files: [], shared: [], compiled: true } : null
}

/** The components 4D ships and loads in every project, declared or not. */
const FOUR_D_OWN = [
  '4D AIKit',
  '4D NetKit',
  '4D Progress',
  '4D SVG',
  '4D ViewPro',
  '4D Widgets',
  '4D WritePro Interface',
]

/** The folders a dependency named `name` may be in, under `parent`. */
const candidates = (parent: string, name: string, repo?: string): string[] =>
  // `4D NetKit` is the repository `4D-NetKit`.
  [...new Set([name, name.replace(/ /g, '-'), ...(repo === undefined ? [] : [repo])])]
    .flatMap((n) => [n, `${n}.4dbase`])
    .map((n) => join(parent, n))

/** `environment4d.json`'s paths, from the package folder up. */
function environmentPaths(pkg: string): Map<string, string> {
  const paths = new Map<string, string>()
  for (let dir = resolve(pkg); ; dir = dirname(dir)) {
    const env = readJson(join(dir, 'environment4d.json'))
    const deps = isRecord(env) ? env['dependencies'] : undefined
    if (isRecord(deps))
      for (const [name, v] of Object.entries(deps)) {
        if (paths.has(name) || typeof v !== 'string') continue
        const path = v.startsWith('file://') ? fileURLToPath(v) : v
        paths.set(name, isAbsolute(path) ? path : resolve(dir, path))
      }
    if (dirname(dir) === dir) return paths
  }
}

/**
 * The components of the project whose `Project` folder is `projectFolder`.
 */
export async function readProjectComponents(
  projectFolder: string,
  search: ComponentSearch = {},
): Promise<ProjectComponents> {
  const pkg = dirname(resolve(projectFolder))
  const found: ComponentSources[] = []
  const missing: MissingComponent[] = []
  const seen = new Set<string>()
  const add = (c: ComponentSources): void => {
    seen.add(c.name.toLowerCase())
    found.push(c)
  }
  const own = join(pkg, 'Components')
  if (isFolder(own))
    for (const entry of readdirSync(own).sort()) {
      const c = await componentAt(entry.replace(/\.4dbase$/i, ''), join(own, entry))
      if (c !== null) add(c)
    }
  const declared = readJson(join(projectFolder, 'Sources', 'dependencies.json'))
  const deps = isRecord(declared) ? declared['dependencies'] : undefined
  const environment = environmentPaths(pkg)
  for (const [name, spec] of Object.entries(isRecord(deps) ? deps : {})) {
    if (seen.has(name.toLowerCase())) continue
    const github = isRecord(spec) && typeof spec['github'] === 'string' ? spec['github'] : undefined
    const repo = github?.split('/').pop()
    const at = environment.get(name)
    const looked =
      at !== undefined
        ? [at]
        : github !== undefined
          ? (search.folders ?? []).flatMap((f) => candidates(f, name, repo))
          : [
              ...candidates(dirname(pkg), name),
              ...(search.folders ?? []).flatMap((f) => candidates(f, name)),
            ]
    let c: ComponentSources | null = null
    for (const folder of looked)
      if (c === null && isFolder(folder)) c = await componentAt(name, folder)
    if (c !== null) add(c)
    else missing.push({ name, looked })
  }
  for (const name of FOUR_D_OWN) {
    if (seen.has(name.toLowerCase())) continue
    for (const folder of (search.folders ?? []).flatMap((f) => candidates(f, name))) {
      const c = isFolder(folder) ? await componentAt(name, folder) : null
      if (c !== null) {
        add(c)
        break
      }
    }
  }
  return { found, missing }
}
