/**
 * @module `entistore check --project`: the project taken through the start-up `serve --project`
 * takes (its structure, its code parsed and compiled once, its model checked, its roles, its HTTP
 * handlers and rules, its quotas, the REST handler made), without a port: what would stop `serve`
 * is an error, what `serve` would say it does not serve as 4D would is a warning, each at the
 * line of the file that caused it; then the code's problems. One a line (`file:line:column:
 * message`, the file as the folder given names it) with a summary, or as JSON; exit 1 when the
 * project would not start or some code would fail when it runs.
 */
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, join, relative } from 'node:path'
import type { CompiledProject } from '@entistore/4d'
import { FileError } from '../files/file-error.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import type { LoadedProject } from '../project/load-project.js'

/** How `check` says what it found: lines, JSON, GitHub annotations or a SARIF log. */
export type CheckFormat = 'text' | 'json' | 'github' | 'sarif'

export interface CheckOptions {
  readonly project: string
  readonly format: CheckFormat
  /** Folders of downloaded components (`--components`), as serve's. */
  readonly components?: readonly string[]
}

/** A problem of the project as a whole: its place when it has one. */
interface StartupProblem {
  readonly file: string
  readonly line?: number
  readonly column?: number
  readonly severity: 'error' | 'warning'
  readonly message: string
}

/** What `serve --project` would do at start-up: its error, and what it would say. */
async function startup(
  folder: string,
  components: readonly string[],
): Promise<{
  problems: StartupProblem[]
  project: LoadedProject | undefined
}> {
  const said: string[] = []
  let project: LoadedProject | undefined
  const problems: StartupProblem[] = []
  try {
    const ds = await loadDatastoreFiles({
      project: folder,
      components,
      onNote: (note) => said.push(note),
      onProject: (p) => (project = p),
    })
    const { projectHttpSettings } = await import('../project/http-settings.js')
    const { serveQuotas } = await import('../project/quota-file.js')
    const { projectFiles } = await import('../project/load-project.js')
    const http = await projectHttpSettings(folder)
    const quotas = await serveQuotas(undefined, folder, (f) => projectFiles(f).project)
    const { createRestHandler } = await import('@entistore/rest')
    createRestHandler(ds, { ...http, ...(quotas === undefined ? {} : { quotas }) })
  } catch (e) {
    if (!(e instanceof FileError)) throw e
    const message = e.message.slice(e.message.indexOf(': ', e.file.length) + 2)
    problems.push({
      file: e.file,
      ...(e.line === undefined ? {} : { line: e.line, column: e.column! }),
      severity: 'error',
      message,
    })
  }
  const grouped = new Set(project?.notes)
  // In the order of each file, as a developer reads them.
  const placed = [...(project?.placedNotes ?? [])].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
  )
  for (const n of placed) problems.push({ ...n, severity: 'warning' })
  for (const message of project?.unplacedNotes ?? [])
    problems.push({ file: folder, severity: 'warning', message })
  for (const note of said) {
    // The project's notes are listed at their places above; the code's summary is check's own.
    if (grouped.has(note) || / files? of 4D code: /.test(note)) continue
    const at = /^(.+?):(\d+):(\d+): (.*)$/.exec(note)
    if (at) {
      problems.push({
        file: at[1]!,
        line: Number(at[2]),
        column: Number(at[3]),
        severity: 'warning',
        message: at[4]!,
      })
      continue
    }
    // `file: message` when it names a file of the project, else the project's own.
    const colon = note.indexOf(': ')
    const file = colon > 0 && existsSync(note.slice(0, colon)) ? note.slice(0, colon) : undefined
    problems.push({
      file: file ?? folder,
      severity: 'warning',
      message: file === undefined ? note : note.slice(colon + 2),
    })
  }
  return { problems, project }
}

const lineOf = (p: StartupProblem): string =>
  `${p.file}${p.line === undefined ? '' : `:${p.line}:${p.column}`}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`

export async function runCheckCommand(
  options: CheckOptions,
  io: { out(line: string): void },
): Promise<number> {
  const fourD = await import('@entistore/4d')
  // A folder of class files with no structure yet is checked as code alone.
  const { problems, project } = (await hasStructure(options.project))
    ? await startup(options.project, options.components ?? [])
    : { problems: [], project: undefined }
  // The code as serve compiled it; read and compiled here only when the start-up stopped before.
  let code: CompiledProject
  let root: string
  if (project !== undefined) {
    code = project.code
    root = project.files.project
  } else {
    let sources
    try {
      sources = await fourD.readProjectSources(options.project)
    } catch (e) {
      throw new FileError(options.project, (e as Error).message, { cause: e })
    }
    // A bare folder of class files has no components: a project's Project folder may.
    const components =
      basename(sources.root) === 'Project'
        ? (await fourD.readProjectComponents(sources.root, { folders: options.components ?? [] }))
            .found
        : []
    code = fourD.compileProject(sources.files, { components })
    root = sources.root
  }
  const name = (file: string): string => join(root, file)
  const report = fourD.checkReport(code.files, name)
  const stops = problems.some((p) => p.severity === 'error')
  const skipped = await uncheckedFiles(root, code)
  if (options.format === 'github' || options.format === 'sarif') {
    const { codeFindings, githubLines, sarifLog } = await import('./check-formats.js')
    const findings = [
      ...problems.map((p) => ({ ...p, rule: 'startup' })),
      ...codeFindings(code.files, name),
    ]
    if (options.format === 'github') for (const line of githubLines(findings)) io.out(line)
    else io.out(JSON.stringify(sarifLog(findings, await entistoreVersion()), null, 2))
  } else if (options.format === 'json')
    io.out(
      JSON.stringify(
        {
          ...(problems.length === 0 ? {} : { startup: problems }),
          ...report,
          ...(skipped.length === 0 ? {} : { unchecked: skipped }),
        },
        null,
        2,
      ),
    )
  else {
    for (const p of problems) io.out(lineOf(p))
    for (const line of fourD.problemLines(code.files, name)) io.out(line)
    for (const s of skipped)
      io.out(`${join(root, s.folder)}: not checked: ${s.files} ${s.what} (${s.why})`)
    const warnings = problems.filter((p) => p.severity === 'warning').length
    const head = stops
      ? 'serve --project would not start; '
      : warnings > 0
        ? `${warnings} warning${warnings === 1 ? '' : 's'} of what is not served as 4D serves it; `
        : ''
    io.out(head + fourD.checkSummary(report))
  }
  return stops || fourD.wouldFail(report) ? 1 : 0
}

/** The version of the entistore package, for the SARIF log's tool. */
async function entistoreVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8')
  return (JSON.parse(text) as { version: string }).version
}

/** Whether `folder` is a project with a structure file, not a bare folder of class files. */
async function hasStructure(folder: string): Promise<boolean> {
  const { projectFiles } = await import('../project/load-project.js')
  try {
    projectFiles(folder)
    return true
  } catch {
    return false
  }
}

/** Code files of a project that Entistore neither checks nor runs, by folder. */
interface Unchecked {
  readonly folder: string
  readonly files: number
  readonly what: string
  readonly why: string
}

const UNCHECKED: readonly Omit<Unchecked, 'files'>[] = [
  { folder: 'Sources/Forms', what: 'form and object methods', why: 'no forms here' },
  { folder: 'Sources/TableForms', what: 'table form methods', why: 'no forms here' },
  {
    folder: 'Sources/DatabaseMethods',
    what: 'database methods',
    why: "4D's start-up and connection events are not run here",
  },
  { folder: 'Sources/Triggers', what: 'triggers', why: 'triggers are not run here' },
]

/**
 * The `.4dm` files under each folder of UNCHECKED in the Project folder `root`, and the components
 * `code` loaded, whose own code is theirs to check (those not found, or compiled, are start-up
 * warnings).
 */
async function uncheckedFiles(root: string, code: CompiledProject): Promise<Unchecked[]> {
  const out: Unchecked[] = []
  for (const c of code.components)
    if (!c.compiled)
      out.push({
        folder: relative(root, c.folder),
        files: c.classes.length,
        what: `class files of the component ${c.name}${c.namespace === null ? '' : `, cs.${c.namespace}`}`,
        why: "a component's code is its authors' to check; it runs as 4D runs it",
      })
  for (const u of UNCHECKED) {
    let files = 0
    try {
      const entries = await readdir(join(root, u.folder), { recursive: true })
      files = entries.filter((e) => e.toLowerCase().endsWith('.4dm')).length
    } catch {
      continue
    }
    if (files > 0) out.push({ ...u, files })
  }
  return out
}
