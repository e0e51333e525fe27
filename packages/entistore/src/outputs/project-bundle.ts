/**
 * @module `entistore bundle --project <folder> [--data …] --out project.js`: a 4D project as one ES
 * module that `projectHandlers` of `entistore/msw` serves in a page or a test (issue 81). The
 * project is read as `serve --project` reads it (loadDatastoreFiles: the structure, the class
 * files, roles.json, the data, a JSON file or a folder of CSV files), so that what a page serves
 * is what the server would: the same model, the same notes. The module holds the model, the code's
 * source texts (compiled when the page opens the bundle: the compiler is the same in both places,
 * and the texts are smaller than the trees), the roles, the HTTP request handlers and rules, and the data as the datastore holds them
 * once loaded (core's dumpData), written one row a line. A `.d.ts` beside it types it for a
 * TypeScript front end. With `--watch`, the module is written again when the project or the
 * data changes; a change that does not load keeps the last module and says why.
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { dumpData, Roles, type DataFile, type DataRow, type RolesJson } from '@entistore/core'
import { BUNDLE_FORMAT, type BundledProject } from '../browser/project-in-page.js'
import { CLOSED, loadDatastoreFiles } from '../load/load-files.js'
import type { LoadedProject } from '../project/load-project.js'
import { projectHttpSettings } from '../project/http-settings.js'
import { dataFileText, writeFileAtomic } from '../persist/save.js'

export interface BundleOptions {
  /** The project folder (its `Project` folder, or the one that holds it). */
  readonly project: string
  /** A JSON data file, or a folder of CSV files (one a table). */
  readonly data?: string
  /** A roles file instead of the project's roles.json. */
  readonly roles?: string
  /** Folders of downloaded components (`serve --components`). */
  readonly components?: readonly string[]
}

/** A bundle, and what reading the project said (as `serve --project` says it on stderr). */
export interface MadeBundle {
  readonly text: string
  readonly notes: readonly string[]
  readonly dataClasses: number
  readonly files: number
  readonly entities: number
}

/** Reads the project as `serve --project` does and writes it as a bundle module's text. */
export async function makeBundle(options: BundleOptions): Promise<MadeBundle> {
  const notes: string[] = []
  let loaded: LoadedProject | undefined
  const ds = await loadDatastoreFiles({
    project: options.project,
    clock: LOAD_CLOCK,
    ...(options.data === undefined ? {} : { data: options.data }),
    ...(options.roles === undefined ? {} : { roles: options.roles }),
    ...(options.components === undefined ? {} : { components: options.components }),
    onProject: (p) => (loaded = p),
    onNote: (n) => notes.push(n),
  })
  const project = loaded!
  const { code } = project
  if (code.components.some((c) => !c.compiled && c.classes.length + c.shared.length > 0))
    notes.push(
      `components are not bundled: their classes and shared methods do not run in a page (${code.components.map((c) => c.name).join(', ')})`,
    )
  const roles = rolesOf(options.roles ?? project.files.roles)
  const data = withoutLoadStamps(dumpData(ds))
  const http = await projectHttpSettings(options.project)
  const bundle: Omit<BundledProject, 'data'> = {
    format: BUNDLE_FORMAT,
    project: basename(dirname(project.files.project)),
    model: project.model,
    sources: [
      ...code.classes.map((c) => ({ path: c.file, kind: 'class' as const, text: c.text })),
      ...code.methods.map((m) => ({ path: m.file, kind: 'method' as const, text: m.text })),
    ],
    computed: project.computed,
    shadowed: [...project.shadowed],
    restricts: project.restricts,
    ...(roles === undefined ? {} : { roles }),
    ...http,
  }
  return {
    text: moduleText(bundle, options.data === undefined ? undefined : dataFileText(data)),
    notes,
    dataClasses: project.model.dataClasses.length,
    files: bundle.sources.length,
    entities: Object.values(data).reduce((n, rows) => n + rows.length, 0),
  }
}

// The load's time, far from any a data file holds: the rows it stamps are told apart, and their
// stamps left out, so that the bundle of the same files is the same bytes (a page stamps them
// when it loads them, as serve does).
const LOAD_TIME = Date.UTC(1999, 0, 1, 0, 0, 0, 7)
const LOAD_CLOCK = { now: () => LOAD_TIME }
const LOAD_TIMESTAMP = new Date(LOAD_TIME).toISOString()

/** `data` without the `__STAMP` and `__TIMESTAMP` the load gave rows that had none. */
function withoutLoadStamps(data: DataFile): DataFile {
  const out: Record<string, DataRow[]> = {}
  for (const [name, rows] of Object.entries(data))
    out[name] = (rows as readonly DataRow[]).map((row) => {
      if (row.__TIMESTAMP !== LOAD_TIMESTAMP || row.__STAMP !== 1) return row
      const { __STAMP: _stamp, __TIMESTAMP: _time, ...values } = row
      return values
    })
  return out
}

/**
 * The roles file as the datastore took it: a project's roles.json that is no permissions closes
 * everything, as `serve` does (the loader said so in a note); a `--roles` file that is none
 * stopped the loader before.
 */
function rolesOf(file: string | undefined): RolesJson | undefined {
  if (file === undefined || !existsSync(file)) return undefined
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as RolesJson
    new Roles(json)
    return json
  } catch {
    return CLOSED as unknown as RolesJson
  }
}

/** The module: a comment saying what it is, then the bundle, each member on its lines. */
function moduleText(bundle: Omit<BundledProject, 'data'>, data: string | undefined): string {
  const members = Object.entries(bundle).map(
    ([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`,
  )
  if (data !== undefined) members.push(`  "data": ${data.trimEnd()}`)
  return [
    `// The 4D project ${bundle.project}, bundled by \`entistore bundle --project\` for entistore/msw:`,
    '//   const handlers = await projectHandlers(project)',
    '// Its model, its 4D code (compiled when a page opens it), its roles and its data. Written',
    '// again by the command: an edit here is lost.',
    'const project = {',
    members.join(',\n'),
    '}',
    'export default project',
    '',
  ].join('\n')
}

/** The declaration beside the module: its default export is a BundledProject. */
export const PROJECT_DECLARATION = `declare const project: import('entistore/msw').BundledProject
export default project
`

/** `project.js` → `project.d.ts` (the name TypeScript looks for beside it). */
const declarationFile = (out: string): string =>
  join(dirname(out), `${basename(out).replace(/\.(m?js)$/, '')}.d.ts`)

/** Writes the bundle and its declaration (each atomically); answers the line that says so. */
export async function writeBundle(options: BundleOptions, out: string): Promise<MadeBundle> {
  const made = await makeBundle(options)
  await writeFileAtomic(out, [made.text])
  await writeFileAtomic(declarationFile(out), [PROJECT_DECLARATION])
  return made
}

/** `Wrote project.js (2 dataclasses, 9 files of 4D code, 120 entities, 48 KB)`. */
export function wroteLine(out: string, made: MadeBundle): string {
  const kb = Math.max(1, Math.round(Buffer.byteLength(made.text) / 1024))
  return `Wrote ${out} (${made.dataClasses} dataclasses, ${made.files} files of 4D code, ${made.entities} entities, ${kb} KB)`
}
