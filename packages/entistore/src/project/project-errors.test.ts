/**
 * A project folder that cannot be served: `serve --project` and `model --from-project` say why in
 * one line naming the file and the place, exit 1, and serve nothing (no URL line). Each case is a
 * copy of the small test project with one mistake written into it.
 */
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startServe } from '../commands/cli-serve.fixture.js'

const DOCS = fileURLToPath(new URL('test-projects/docs-company', import.meta.url))
const root = fileURLToPath(new URL('../../../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'entistore-project-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let copies = 0
/** A copy of the small project, its structure file changed by `edit`; its Project folder. */
function project(edit: (xml: string) => string = (x) => x): string {
  const to = join(dir, `p${++copies}`)
  cpSync(DOCS, to, { recursive: true })
  const catalog = join(to, 'Project/Sources/catalog.4DCatalog')
  writeFileSync(catalog, edit(readFileSync(catalog, 'utf8')))
  return join(to, 'Project')
}

/** A CSV folder holding `files` (name → text). */
function csv(files: Record<string, string>): string {
  const to = join(dir, `csv${++copies}`)
  mkdirSync(to)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(to, name), text)
  return to
}

/** Runs the command in process, a serve on a free port and without its request log. */
const run = (argv: string[]) =>
  runCli(argv[0] === 'serve' ? [...argv, '--port', '0', '--quiet'] : argv)

/** The one line `serve --project` stops with (its notes, which come first, left out). */
async function refusal(folder: string, ...more: string[]): Promise<string> {
  const r = await run(['serve', '--project', folder, ...more])
  expect(r.code).toBe(1)
  expect(r.out).toEqual([])
  const last = r.err.at(-1)!
  expect(last).not.toMatch(/\n\s+at /)
  return last
}

const catalogOf = (folder: string): string => join(folder, 'Sources/catalog.4DCatalog')

describe('serve --project with a structure file it cannot serve', () => {
  it('names the place where a truncated file ends', async () => {
    const p = project((xml) => xml.slice(0, xml.indexOf('<relation')))
    expect(await refusal(p)).toBe(
      `entistore: ${catalogOf(p)}:22:2: the structure file is not valid XML: the file ends inside <base> (opened at line 6, column 1): it is truncated`,
    )
  })

  it('names the place of malformed XML', async () => {
    const p = project((xml) => xml.replace('<field name="revenues"', '<field name=revenues'))
    expect(await refusal(p)).toBe(
      `entistore: ${catalogOf(p)}:18:15: the structure file is not valid XML: the value of "name" must be in quotes`,
    )
  })

  it('names the type attribute of an unknown field type code', async () => {
    const p = project((xml) =>
      xml.replace(
        'name="revenues" uuid="F0020003000000000000000000000000" type="6"',
        'name="revenues" uuid="F0020003000000000000000000000000" type="99"',
      ),
    )
    expect(await refusal(p)).toMatch(
      new RegExp(
        `^entistore: ${catalogOf(p).replace(/[.]/g, '\\.')}:18:66: field Company\\.revenues: unknown field type code "99" \\(4D's codes: 1 Boolean, 2 Byte, 3 Integer, 4 Long Integer,`,
      ),
    )
  })

  it('names the table_ref of a relation to a table the structure does not have', async () => {
    const p = project((xml) =>
      xml.replace(
        'uuid="A0020000000000000000000000000000" name="Company"/>',
        'uuid="A0090000000000000000000000000000" name="Firm"/>',
      ),
    )
    expect(await refusal(p)).toBe(
      `entistore: ${catalogOf(p)}:30:5: relation employer names a table the structure does not have: Firm`,
    )
  })

  it('leaves out a relation named like a field of its table, with its 1→N, and says where', async () => {
    // Found in public projects (a field `employee` beside a relation `employee`): the field keeps
    // the name, as ORDA reaches one name once; check says it at the relation's line.
    const p = project((xml) => xml.replace('name_Nto1="employer"', 'name_Nto1="lastname"'))
    const r = await run(['check', '--project', p])
    expect(r.code).toBe(0)
    const what =
      'warning: relation attributes named like another attribute of their table are left out (the other keeps the name)'
    expect(r.out).toContain(`${catalogOf(p)}:22:2: ${what}: Employee.lastname`)
    expect(r.out).toContain(`${catalogOf(p)}:22:2: ${what}: Company.staff (its N→1 is)`)
  })

  it('says what a folder without a structure file is missing', async () => {
    expect(await refusal(dir)).toBe(
      `entistore: ${dir}: no Sources/catalog.4DCatalog in it nor in its Project folder: give the 4D project's Project folder, or the folder that holds it`,
    )
  })

  it('takes the folder that holds the Project folder as well as the Project folder', async () => {
    const r = await run(['serve', '--project', DOCS, '--no-explorer'])
    expect(r.code).toBe(0)
    expect(r.out[0]).toMatch(/^Entistore serving docsCompany \(Employee 0, Company 0\) at /)
  })
})

describe('serve --project --data with a CSV folder it cannot load', () => {
  const p = project()

  it('names the header cell of an unknown field', async () => {
    const data = csv({ 'Company.csv': 'ID,name,turnover\n1,Acme,3\n' })
    expect(await refusal(p, '--data', data)).toBe(
      `entistore: ${join(data, 'Company.csv')}:1:9: "turnover" is no field of table Company (its fields: ID, name, revenues, url)`,
    )
  })

  it('names the cell of a value of the wrong type', async () => {
    const data = csv({ 'Company.csv': 'ID,name,revenues\n1,Acme,3\n2,"Big, Inc.",lots\n' })
    expect(await refusal(p, '--data', data)).toBe(
      `entistore: ${join(data, 'Company.csv')}:3:15: Company.revenues: "lots" is not a number`,
    )
  })

  it('names a file that names no table', async () => {
    const data = csv({ 'Firm.csv': 'ID\n1\n' })
    expect(await refusal(p, '--data', data)).toBe(
      `entistore: ${join(data, 'Firm.csv')}: no table is named Firm: a CSV file is named after its table (Employee.csv, Company.csv)`,
    )
  })

  describe('names the cell of a picture or BLOB path that leads out of the CSV folder', () => {
    // The small project with a Picture field, Company.logo.
    const withLogo = project((xml) =>
      xml.replace(
        '<field name="url" uuid="F0020004000000000000000000000000" type="10" id="4"/>',
        '$&<field name="logo" uuid="F0020005000000000000000000000000" type="12" id="5"/>',
      ),
    )
    const outside = join(dir, 'outside.png')
    writeFileSync(outside, 'not for clients')
    const WHY = '(a picture or BLOB cell names a file inside the CSV folder, as files/logo.png)'

    it.each([
      ['an absolute path', '/etc/passwd', 'is an absolute path'],
      ['a path up and out', '../outside.png', 'leads out of the CSV folder'],
    ])('%s', async (_, cell, why) => {
      const data = csv({ 'Company.csv': `ID,name,logo\n1,Acme,${cell}\n` })
      expect(await refusal(withLogo, '--data', data)).toBe(
        `entistore: ${join(data, 'Company.csv')}:2:8: Company.logo: "${cell}" ${why} ${WHY}`,
      )
    })

    it('a symbolic link inside the folder to a file outside it', async () => {
      const data = csv({ 'Company.csv': 'ID,name,logo\n1,Acme,logo.png\n' })
      symlinkSync(outside, join(data, 'logo.png'))
      expect(await refusal(withLogo, '--data', data)).toBe(
        `entistore: ${join(data, 'Company.csv')}:2:8: Company.logo: "logo.png" leads out of the CSV folder through a symbolic link ${WHY}`,
      )
    })

    it('serves a file of a subfolder', async () => {
      const data = csv({ 'Company.csv': 'ID,name,logo\n1,Acme,files/logo.png\n' })
      mkdirSync(join(data, 'files'))
      cpSync(
        join(root, 'examples/car-rental/csv/files/agency-lyon.png'),
        join(data, 'files/logo.png'),
      )
      const s = await startServe(['serve', '--project', withLogo, '--data', data, '--no-explorer'])
      try {
        const company = (await (await fetch(`${s.url}/rest/Company(1)`)).json()) as {
          logo: { __deferred: { uri: string } }
        }
        const res = await fetch(`${s.url}${company.logo.__deferred.uri}`)
        expect(Buffer.from(await res.arrayBuffer())).toEqual(
          readFileSync(join(data, 'files/logo.png')),
        )
      } finally {
        await s.stop()
      }
    })
  })

  it('names the line of a row the datastore refuses', async () => {
    const data = csv({
      'Company.csv': 'ID,name\n1,Acme\n',
      'Employee.csv': 'ID,lastname,companyID\n1,Smith,1\n2,Jones,7\n',
    })
    expect(await refusal(p, '--data', data)).toBe(
      `entistore: ${join(data, 'Employee.csv')}:3:1: Invalid data: Employee[1].companyID: there is no Company with the key 7`,
    )
  })
})

describe('model --from-project', () => {
  it('writes the model of the project, as serve --project serves it', async () => {
    const r = await run(['model', '--from-project', DOCS])
    expect(r.code).toBe(0)
    const model = JSON.parse(r.out.join('\n')) as {
      __NAME: string
      dataClasses: { name: string; attributes: { name: string; maxLength?: number }[] }[]
    }
    expect([model.__NAME, model.dataClasses.map((d) => d.name)]).toEqual([
      'docsCompany',
      ['Employee', 'Company'],
    ])
    // The Alpha lengths are the model's maxLength: nothing this structure holds is left unsaid.
    const lengths = model.dataClasses.flatMap((d) =>
      d.attributes.filter((a) => a.maxLength).map((a) => `${d.name}.${a.name} ${a.maxLength}`),
    )
    expect(lengths).toEqual(['Employee.firstname 255', 'Employee.lastname 255', 'Company.name 255'])
    expect(r.err).toEqual([])
  })

  it('refuses --from with --from-project', async () => {
    const r = await run(['model', '--from', 'db.json', '--from-project', DOCS])
    expect([r.code, r.err[0]]).toEqual([
      2,
      'entistore: --from and --from-project cannot go together',
    ])
  })
})
