/**
 * @module One corpus project tried as a 4D team tries a tool: `check`, then `serve`, then over
 * REST the catalog against the structure, a read of every dataclass, a create on every dataclass
 * whose key the server generates, and every exposed computed attribute and alias. A project whose
 * guests may not read (forceLogin, privileges) is served a second time with a user who holds every
 * privilege of its roles.json, so that its data paths are tried too.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, said } from './client.ts'
import {
  classFiles,
  expectedTables,
  sampleValue,
  type ExpectedField,
  type ExpectedTable,
} from './expectations.ts'
import { label, projectFolder, type CorpusEntry } from './manifest.ts'
import {
  runCheck,
  runTests,
  startServer,
  StartFailure,
  type CheckRun,
  type Server,
  type TestRun,
} from './processes.ts'

export interface Tally {
  readonly tried: number
  readonly failed: readonly string[]
  /**
   * Of those tried, what the application's own rules refuse, as 4D would refuse it: a create its
   * roles.json grants no one, a mandatory attribute it hides from REST.
   */
  readonly refused?: readonly string[]
  /**
   * Of those that worked, the creates that failed empty (the application's code reads a field the
   * create left null) and worked with the fields a user's form fills: `Name: the empty one's error`.
   */
  readonly filled?: readonly string[]
  /** Of those tried, what fails in 4D as well (the manifest's `failsIn4D`): `Name: why`. */
  readonly asIn4D?: readonly string[]
  /**
   * Of those tried, what a project whose roles.json is not valid refuses: Entistore closes
   * everything there, where 4D would serve it unprotected (compat.md). Entistore's choice.
   */
  readonly closed?: readonly string[]
}

export interface ProjectResult {
  readonly label: string
  readonly kind: CorpusEntry['kind']
  readonly tables: number
  readonly check: {
    readonly exitCode: number | null
    readonly ms: number
    readonly timedOut: boolean
  }
  /** `entistore test --project`: the project's own tests (none found in most). */
  readonly tests?: TestRun
  readonly started: boolean
  /** Why `serve` did not start, as it said it. */
  readonly startError?: string
  readonly startMs?: number
  /** What `serve` said of the project that `check` did not: check and serve disagree there. */
  readonly unchecked: readonly string[]
  readonly catalog: Tally
  readonly reads: Tally & { readonly as: 'guest' | 'user' }
  readonly creates: Tally
  readonly declared: Tally
  readonly classes: {
    readonly total: number
    readonly parse: number
    /** Class files that use nothing that cannot run here but a user interface. */
    readonly runnable: number
    /** What the others use, by name: how many class files each keeps out. */
    readonly blockers: Readonly<Record<string, number>>
    /**
     * Of the others, those kept out by components alone that neither the repository holds, nor its
     * `dependencies.json` names, nor 4D ships: 4D cannot run them from the repository either.
     */
    readonly componentOnly?: number
  }
}

// Qodly's page API (`Web Form`, `Web Event`) is listed with the user interface's commands, but a
// server runs it: it counts as what must run.
const isUi = (p: { name: string; message: string }): boolean =>
  /needs a user interface/.test(p.message) && p.name !== 'Web Form' && p.name !== 'Web Event'

// 4D's own components, which 4D ships or installs for any project (the names its dependencies.json
// files give them, less "4D "): `cs.NetKit`, `cs.AIKit`…
const FOUR_D_COMPONENTS = ['NetKit', 'AIKit', 'SVG', 'Progress', 'ViewPro', 'WritePro', 'Widgets']

/**
 * Whether `name` (`component bspkComponent`) is a component nothing gives: not one of 4D's own,
 * and its namespace is not a dependency's name less its "4D " (`4D NetKit` gives `NetKit`).
 */
function absent(folder: string, name: string): boolean {
  if (!name.startsWith('component ')) return false
  const file = join(folder, 'Project', 'Sources', 'dependencies.json')
  let names: string[] = []
  try {
    const deps = JSON.parse(readFileSync(file, 'utf8')) as {
      dependencies?: Record<string, unknown>
    }
    names = Object.keys(deps.dependencies ?? {}).map((d) =>
      d.replace(/^4D /, '').replace(/\s/g, ''),
    )
  } catch {
    // No dependencies.json, or not JSON: it names nothing.
  }
  const namespace = name.slice('component '.length)
  return !FOUR_D_COMPONENTS.includes(namespace) && !names.includes(namespace)
}

function classFigures(folder: string, check: CheckRun): ProjectResult['classes'] {
  const files = classFiles(folder)
  const blockers: Record<string, number> = {}
  let syntax = 0
  let blocked = 0
  let componentOnly = 0
  for (const f of check.files) {
    if (!/[/\\]Classes[/\\][^/\\]+\.4dm$/.test(f.file)) continue
    const names = new Set(f.notRunnable.filter((p) => !isUi(p)).map((p) => p.name))
    for (const n of names) blockers[n] = (blockers[n] ?? 0) + 1
    if (f.syntaxErrors.length > 0) syntax++
    if (f.syntaxErrors.length > 0 || names.size > 0) blocked++
    if (f.syntaxErrors.length === 0 && names.size > 0 && [...names].every((n) => absent(folder, n)))
      componentOnly++
  }
  return {
    total: files.length,
    parse: files.length - syntax,
    runnable: files.length - blocked,
    blockers,
    componentOnly,
  }
}

/** What serve said at start-up, without its own lines (the functions list, the model's origin). */
function projectNotes(server: { said: readonly string[] }): string[] {
  return (
    server.said
      .filter((l) => l.startsWith('entistore: '))
      // `entistore: <folder>: <file>: note`: the note without the paths before it, as check's
      // `<file>: warning: note` says it.
      .map((l) => l.replace(/^entistore: /, '').replace(/^(?:\/\S*?: )+/, ''))
      .filter((l) => !/files? of 4D code: /.test(l))
  )
}

/** The privileges and roles of roles.json, all of them: the harness's user holds them all. */
function everyPrivilege(folder: string): { privileges: string[]; roles: string[] } {
  const file = join(folder, 'Project', 'Sources', 'roles.json')
  if (!existsSync(file)) return { privileges: [], roles: [] }
  try {
    const roles = JSON.parse(readFileSync(file, 'utf8')) as {
      privileges?: { privilege: string }[]
      roles?: { role: string }[]
    }
    return {
      privileges: (roles.privileges ?? []).map((p) => p.privilege),
      roles: (roles.roles ?? []).map((r) => r.role),
    }
  } catch {
    return { privileges: [], roles: [] }
  }
}

async function reads(client: Client, tables: readonly ExpectedTable[]): Promise<Tally> {
  const failed: string[] = []
  for (const t of tables) {
    const a = await client.get(`/rest/${encodeURIComponent(t.name)}?$top=1`)
    if (a.status !== 200 || a.error) failed.push(`${t.name}: ${said(a)}`)
  }
  return { tried: tables.length, failed }
}

async function creates(
  client: Client,
  tables: readonly ExpectedTable[],
  failsIn4D: Readonly<Record<string, string>>,
): Promise<{ tally: Tally; keys: Map<string, unknown> }> {
  const failed: string[] = []
  const refused: string[] = []
  const filled: string[] = []
  const asIn4D: string[] = []
  const keys = new Map<string, unknown>()
  const generated = tables.filter((t) => t.generatedKey)
  let n = 1
  const create = (t: ExpectedTable, fields: readonly ExpectedField[]) =>
    client.post(
      `/rest/${encodeURIComponent(t.name)}?$method=update`,
      Object.fromEntries(fields.map((f) => [f.name, sampleValue(f, n++)])),
    )
  const made = (a: Awaited<ReturnType<typeof create>>): boolean =>
    a.status === 200 && !a.error && a.body?.__KEY !== undefined
  for (const t of generated) {
    let a = await create(t, t.mandatory)
    // Empty, the application's own code may fail on a null it reads (`Uppercase(This.name)`):
    // then as a user's first create, its form's fields filled.
    if (!made(a) && a.status === 422 && a.error?.errCode !== 1559) {
      const empty = said(a)
      const b = await create(t, [...new Set([...t.mandatory, ...t.fillable])])
      if (made(b)) {
        filled.push(`${t.name}: ${empty}`)
        a = b
      } else if (said(b) !== empty && failsIn4D[t.name] === undefined) {
        failed.push(`${t.name}: ${empty}; filled: ${said(b)}`)
        continue
      }
    }
    if (made(a)) keys.set(t.name, a.body.__KEY)
    else if (failsIn4D[t.name] !== undefined)
      asIn4D.push(`${t.name}: ${failsIn4D[t.name]} (${said(a)})`)
    else if (t.hiddenMandatory !== undefined && a.error?.errCode === 1570)
      refused.push(`${t.name}: its mandatory ${t.hiddenMandatory} is hidden from REST`)
    // The harness's user holds every privilege of roles.json: a 1559 is a create it grants no one.
    else if (a.error?.errCode === 1559) refused.push(`${t.name}: roles.json grants no create`)
    else failed.push(`${t.name}: ${said(a)}`)
  }
  return { tally: { tried: generated.length, failed, refused, filled, asIn4D }, keys }
}

async function declaredAttributes(
  client: Client,
  tables: readonly ExpectedTable[],
  catalog: any,
  keys: ReadonlyMap<string, unknown>,
): Promise<Tally> {
  const failed: string[] = []
  let tried = 0
  for (const t of tables) {
    const served = (catalog?.dataClasses ?? []).find((dc: any) => dc.name === t.name)
    for (const d of t.declared) {
      tried++
      if (!served?.attributes?.some((a: any) => a.name === d.name)) {
        failed.push(`${t.name}.${d.name}: not in $catalog`)
        continue
      }
      const key = keys.get(t.name)
      const target =
        key === undefined
          ? `/rest/${encodeURIComponent(t.name)}?$top=1&$attributes=${d.name}`
          : `/rest/${encodeURIComponent(t.name)}(${encodeURIComponent(String(key))})?$attributes=${d.name}`
      const a = await client.get(target)
      if (a.status !== 200 || a.error) failed.push(`${t.name}.${d.name}: ${said(a)}`)
    }
  }
  return { tried, failed }
}

const refused = (t: Tally): boolean => t.failed.some((f) => /: 40[13] /.test(f))

export async function probeProject(e: CorpusEntry): Promise<ProjectResult> {
  const folder = projectFolder(e)
  const tables = expectedTables(folder)
  const check = await runCheck(folder)
  const checked = check.output
  const tests = await runTests(folder)
  const base = {
    label: label(e),
    kind: e.kind,
    tables: tables.length,
    check: { exitCode: check.exitCode, ms: Math.round(check.ms), timedOut: check.timedOut },
    tests,
    classes: classFigures(folder, check),
  }
  const none: Tally = { tried: 0, failed: [] }
  let server: Server
  try {
    server = await startServer(folder)
  } catch (e) {
    if (!(e instanceof StartFailure)) throw e
    const error = e.message.replace(/^entistore: /, '')
    const agreed = check.problems.some((p) => error.includes(p.message))
    return {
      ...base,
      started: false,
      startError: error,
      unchecked: agreed ? [] : [error],
      catalog: none,
      reads: { ...none, as: 'guest' },
      creates: none,
      declared: none,
    }
  }
  // A kind of note serve says in one line (`what: a, b`) check says at each place (`what: a`):
  // the same words open both, to the first place's end.
  const opening = (note: string): string => note.slice(0, Math.min(80, (note + ', ').indexOf(', ')))
  const unchecked = projectNotes(server).filter((note) => !checked.includes(opening(note)))
  const guest = new Client(server.origin)
  const all = await guest.get('/rest/$catalog/$all')
  const served = new Set<string>((all.body?.dataClasses ?? []).map((dc: any) => dc.name))
  const catalog: Tally = {
    tried: tables.length,
    failed: tables.filter((t) => !served.has(t.name)).map((t) => `${t.name}: not in $catalog`),
  }
  let read = await reads(guest, tables)
  let as: 'guest' | 'user' = 'guest'
  let client = guest
  if (refused(read)) {
    // Guests are refused: the same project again, with a user who holds every privilege.
    await server.stop()
    const dir = mkdtempSync(join(tmpdir(), 'corpus-users-'))
    const users = join(dir, 'users.json')
    writeFileSync(
      users,
      JSON.stringify({ corpus: { password: 'corpus', ...everyPrivilege(folder) } }),
    )
    try {
      server = await startServer(folder, ['--users', users])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    client = new Client(server.origin)
    await client.request(
      'POST',
      '/rest/$directory/login',
      {},
      { 'username-4D': 'corpus', 'password-4D': 'corpus' },
    )
    read = await reads(client, tables)
    as = 'user'
  }
  let made = await creates(client, tables, e.failsIn4D ?? {})
  // A roles.json that is not valid closes everything: its refusals are that choice's, not the app's.
  if (server.said.some((l) => l.includes('is closed until it is fixed'))) {
    const closed = [...(made.tally.refused ?? [])].map((r) =>
      r.replace(/: .*$/, ': closed, its roles.json not being valid'),
    )
    made = { ...made, tally: { ...made.tally, refused: [], closed } }
  }
  const declared = await declaredAttributes(client, tables, all.body, made.keys)
  await server.stop()
  return {
    ...base,
    started: true,
    startMs: Math.round(server.startMs),
    unchecked,
    catalog,
    reads: { ...read, as },
    creates: made.tally,
    declared,
  }
}
