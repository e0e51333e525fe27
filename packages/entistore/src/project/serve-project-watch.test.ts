/**
 * `serve --project --watch`: a change to the structure file, a class file or a CSV file is served
 * on the same port, what a class file's change did to its functions is said in one line, and a
 * structure file that no longer reads or a class file that no longer parses keeps the previous
 * one served.
 * Each step waits for the reload it causes (no sleeps).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { message, nextOutcome, startServe } from '../commands/cli-serve.fixture.js'

const DOCS = fileURLToPath(new URL('test-projects/docs-company/Project', import.meta.url))

type Json = Record<string, unknown>

describe('serve --project --watch', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'entistore-project-watch-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('serves the changed structure, classes and CSV data, and keeps serving through a bad structure', async () => {
    const project = join(dir, 'Project')
    cpSync(DOCS, project, { recursive: true })
    const sources = join(project, 'Sources')
    const catalog = join(sources, 'catalog.4DCatalog')
    mkdirSync(join(sources, 'Classes'))
    const csv = join(dir, 'csv')
    mkdirSync(csv)
    writeFileSync(join(csv, 'Company.csv'), 'ID,name\n1,Acme\n')

    const s = await startServe(['serve', '--project', project, '--data', csv, '--watch'])
    const getJson = async (path: string): Promise<Json> =>
      (await fetch(`${s.url}/rest/${path}`)).json() as Promise<Json>
    const attributes = async (dc: string): Promise<string[]> =>
      ((await getJson(`$catalog/${dc}`)).attributes as Json[]).map((a) => String(a.name))
    try {
      expect(s.out).toContain(
        `Watching ${catalog}, ${join(sources, 'roles.json')}, ${join(sources, 'Classes')}, ${join(sources, 'Methods')} and ${csv} for changes`,
      )

      // A field added to the structure file.
      const structure = readFileSync(catalog, 'utf8')
      writeFileSync(
        catalog,
        structure.replace(
          '<primary_key field_name="ID" field_uuid="F0020001000000000000000000000000"/>',
          '<field name="country" uuid="F0020005000000000000000000000000" type="10" id="5"/>\n\t\t' +
            '<primary_key field_name="ID" field_uuid="F0020001000000000000000000000000"/>',
        ),
      )
      await nextOutcome(
        s.reloads,
        (o) =>
          o.kind === 'reloaded' &&
          o.ds.dataClass('Company').attributes.some((a) => a.name === 'country'),
      )
      expect(await attributes('Company')).toContain('country')

      // A class file added to the Classes folder: its exposed function is in the catalog.
      writeFileSync(
        join(sources, 'Classes', 'Company.4dm'),
        'Class extends DataClass\n\nexposed Function hello() : Text\n\treturn "hi"\n',
      )
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      const methods = (await getJson('$catalog/Company')).methods as Json[]
      expect(methods.map((m) => m.name)).toEqual(['hello'])
      expect(s.out).toContain('4D code reloaded: added Company.hello')

      // A function changed and one added: recompiled, and said in one line.
      const classFile = join(sources, 'Classes', 'Company.4dm')
      const hello = async (): Promise<unknown> =>
        ((await (await fetch(`${s.url}/rest/Company/hello`, { method: 'POST' })).json()) as Json)
          .result
      writeFileSync(
        classFile,
        'Class extends DataClass\n\nexposed Function hello() : Text\n\treturn "hello"\n\n' +
          'exposed Function bye() : Text\n\treturn "bye"\n',
      )
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      expect(s.out).toContain('4D code reloaded: added Company.bye; changed Company.hello')
      expect(await hello()).toBe('hello')

      // A class file saved half-written: the reload is refused at the line that does not parse,
      // and the last good version still answers.
      writeFileSync(
        classFile,
        'Class extends DataClass\n\nexposed Function hello() : Text\n\treturn "broken" +* )\n',
      )
      const broken = await nextOutcome(s.reloads, (o) => o.kind === 'failed')
      expect(message(broken)).toMatch(new RegExp(`^${classFile}:4:\\d+: `))
      expect(s.err.at(-1)).toMatch(
        new RegExp(`^entistore: reload failed, still serving the previous data: ${classFile}:4:`),
      )
      expect(await hello()).toBe('hello')
      // Mended: served again, what changed since the last good version said.
      writeFileSync(
        classFile,
        'Class extends DataClass\n\nexposed Function hello() : Text\n\treturn "mended"\n',
      )
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      expect(s.out).toContain('4D code reloaded: changed Company.hello; removed Company.bye')
      expect(await hello()).toBe('mended')

      // A row added to a CSV file.
      writeFileSync(join(csv, 'Company.csv'), 'ID,name,country\n1,Acme,FR\n2,Globex,US\n')
      await nextOutcome(
        s.reloads,
        (o) => o.kind === 'reloaded' && o.ds.dataClass('Company').length === 2,
      )
      expect(await getJson('Company(2)')).toMatchObject({ name: 'Globex', country: 'US' })

      // A structure file cut short: said with its place, and the previous model still served.
      writeFileSync(catalog, structure.slice(0, 400))
      const failed = await nextOutcome(s.reloads, (o) => o.kind === 'failed')
      expect(message(failed)).toMatch(new RegExp(`^${catalog}:\\d+:\\d+: `))
      expect(await attributes('Company')).toContain('country')
    } finally {
      expect(await s.stop()).toBe(0)
    }
  })
})
