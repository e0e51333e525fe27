/**
 * A project whose DataClass class declares `Function event restrict` on a line that does not
 * compile, served with `serve --project`: no restrict reaches core, so the dataclass is served
 * closed rather than open (every read path sees no entity of it, updates and drops answer as for
 * a missing one), the start-up says so at the event's file, line and column, and a `--functions`
 * module's own restrict opens it again. A restrict that compiles runs (four-d-code.events.test.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startServe, type Started } from '../commands/cli-serve.fixture.js'

const DOCS = fileURLToPath(new URL('test-projects/docs-company', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'entistore-restrict-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The small project with an Employee DataClass class whose restrict does not compile. */
function restrictedProject(): string {
  const to = join(dir, 'project')
  cpSync(DOCS, to, { recursive: true })
  const classes = join(to, 'Project/Sources/Classes')
  mkdirSync(classes)
  writeFileSync(
    join(classes, 'Employee.4dm'),
    [
      'Class extends DataClass',
      '// Function event restrict() : cs.EmployeeSelection (a comment: not the declaration)',
      '',
      '// Each user sees the staff of their own company (a stray parenthesis ends the line).',
      '\tFunction event restrict() : cs.EmployeeSelection)',
      '\t\treturn This.query("employer.name = :1"; Session.storage.company)',
      '',
    ].join('\n'),
  )
  writeFileSync(
    join(classes, 'EmployeeEntity.4dm'),
    'Class extends Entity\n\nFunction event validateSave($event : Object) : Object\n',
  )
  return join(to, 'Project')
}

const PROJECT = restrictedProject()
const CLASS_FILE = join(PROJECT, 'Sources/Classes/Employee.4dm')
const DATA = join(dir, 'csv')
mkdirSync(DATA)
writeFileSync(join(DATA, 'Company.csv'), 'ID,name\n1,Acme\n2,Globex\n')
writeFileSync(
  join(DATA, 'Employee.csv'),
  'ID,firstname,lastname,companyID\n1,Ada,Smith,1\n2,Bob,Jones,1\n3,Cy,Smith,2\n',
)

type Json = Record<string, unknown>
const CLOSED = `${CLASS_FILE}:5:2: the restrict event of Employee does not compile: Employee is served closed (no entity of it is read, updated or dropped) until it compiles or a --functions module gives dataClasses.Employee.restrict`

describe('serve --project with a restrict event that does not compile', () => {
  let s: Started
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${s.url}/rest/${path}`)
    return { status: res.status, body: (await res.json()) as Json }
  }
  const post = async (path: string, body: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${s.url}/rest/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as Json }
  }
  const errCode = (body: Json): unknown => (body.__ERROR as Json[])[0]!.errCode

  beforeAll(async () => {
    s = await startServe(['serve', '--project', PROJECT, '--data', DATA, '--no-explorer'])
  })
  afterAll(() => s?.stop())

  it("says at start-up, at the event's file, line and column, that the dataclass is closed", () => {
    expect(s.err).toContain(`entistore: ${PROJECT}: ${CLOSED}`)
    // Entity events run: none is said not to.
    expect(s.err.filter((l) => l.includes('entity events'))).toEqual([])
  })

  it('reads, queries, counts and sets of the dataclass see none of it', async () => {
    expect((await get('Employee')).body).toMatchObject({ __COUNT: 0, __ENTITIES: [] })
    expect((await get(`Employee?$filter="lastname='Smith'"`)).body.__COUNT).toBe(0)
    expect((await get('Employee/ID?$compute=count')).body).toBe(0)
    expect((await get('Employee/lastname?$distinct=true')).body).toEqual([])
    const one = await get('Employee(1)')
    expect([one.status, errCode(one.body)]).toEqual([404, 1542])
    const set = await get('Employee?$method=entityset')
    expect(set.body.__COUNT).toBe(0)
    const members = await get((set.body.__ENTITYSET as string).slice('/rest/'.length))
    expect(members.body.__COUNT).toBe(0)
  })

  it('relations, $expand and projections into it see none of it; the others are served', async () => {
    expect((await get('Company')).body.__COUNT).toBe(2)
    expect((await get('Company(1)/staff')).body.__COUNT).toBe(0)
    expect((await get(`Company?$filter="staff.lastname='Smith'"`)).body.__COUNT).toBe(0)
    const expanded = JSON.stringify((await get('Company(1)?$expand=staff')).body)
    const projected = JSON.stringify((await get('Company?$attributes=staff.lastname')).body)
    for (const text of [expanded, projected]) expect(text).not.toMatch(/Smith|Jones/)
  })

  it('answers an update or a drop as for a missing entity', async () => {
    const update = await post('Employee?$method=update', { __KEY: '1', lastname: 'Changed' })
    expect([update.status, errCode(update.body)]).toEqual([404, 1542])
    const drop = await post('Employee(2)?$method=delete', {})
    expect([drop.status, errCode(drop.body)]).toEqual([404, 1542])
  })

  it('sends no change of it to a live feed', async () => {
    const abort = new AbortController()
    const res = await fetch(`${s.url}/rest/$changes?$dataClasses=Employee,Company`, {
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    })
    // Created (a create is accepted, then not read), then a visible change: the feed's order
    // puts the employee's first, if it were sent.
    expect((await post('Employee?$method=update', { lastname: 'New' })).status).toBe(200)
    expect((await post('Company?$method=update', { __KEY: '2', name: 'Globex 2' })).status).toBe(
      200,
    )
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    while (!text.includes('Globex 2')) {
      const chunk = await reader.read()
      if (chunk.done) break
      text += chunk.value
    }
    abort.abort()
    expect(text).toContain('Globex 2')
    expect(text).not.toContain('"Employee"')
    expect((await get('Employee')).body.__COUNT).toBe(0)
  })
})

describe('serve --project with a --functions module that gives the restrict', () => {
  it('runs the module restrict, and says nothing is closed', async () => {
    const module = join(dir, 'functions.mjs')
    writeFileSync(
      module,
      `export default { dataClasses: { Employee: { restrict() { return this.query("lastname = 'Smith'") } } } }\n`,
    )
    const s = await startServe([
      'serve',
      '--project',
      PROJECT,
      '--data',
      DATA,
      '--functions',
      module,
      '--no-explorer',
    ])
    try {
      const body = (await (await fetch(`${s.url}/rest/Employee`)).json()) as Json
      expect(body.__COUNT).toBe(2)
      expect(s.err.filter((l) => l.includes('restrict event'))).toEqual([])
    } finally {
      await s.stop()
    }
  })
})

describe('model --from-project of a project with a restrict event', () => {
  it('says the model file does not hold it', async () => {
    const r = await runCli(['model', '--from-project', PROJECT])
    expect(r.code).toBe(0)
    expect(r.err).toContain(
      `entistore: ${PROJECT}: ${CLASS_FILE}:5:2: the restrict event of Employee is not in the model file: serve --project runs it; serve --model without a --functions module giving dataClasses.Employee.restrict serves Employee unrestricted`,
    )
  })
})
