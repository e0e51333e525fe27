/**
 * The commands and the fixture that take a 4D project folder as `serve --project` does, on the
 * car-rental project: `types --project`, `openapi --project`, `clone --project` and
 * `startFixture({ project })`, each reading the project with load-project.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../commands/cli-serve.fixture.js'
import { startFixture } from '../fixture.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import { RENTAL } from './four-d-rest.fixture.js'

const CSV = `${RENTAL}/csv`
const dir = mkdtempSync(join(tmpdir(), 'entistore-workflow-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('entistore types --project', () => {
  it("writes the types of the project's model, never-null fields without null", async () => {
    const r = await runCli(['types', '--project', RENTAL])
    expect([r.code, r.err]).toEqual([0, []])
    const text = r.out.join('\n')
    expect(r.out[0]).toContain(`entistore types --project ${RENTAL}`)
    expect(text).toContain('export type Customer = entistore.Entity<Model, ')
    // Customer.notes maps null to blank: it reads a text, never null; phone may be null.
    expect(text).toMatch(/\bnotes: string\n/)
    expect(text).toMatch(/\bphone: string \| null\n/)
  })

  it('names the project folder it cannot read', async () => {
    const r = await runCli(['types', '--project', join(dir, 'nowhere')])
    expect(r.code).toBe(1)
    expect(r.err[0]).toContain('the project folder does not exist')
  })
})

describe('entistore openapi --project', () => {
  it("describes the project's REST interface with its class functions", async () => {
    const r = await runCli(['openapi', '--project', RENTAL])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.out.join('\n')) as {
      paths: object
      components: { schemas: Record<string, { properties: Record<string, object> }> }
    }
    const paths = Object.keys(doc.paths)
    expect(paths).toContain('/rest/Customer')
    expect(paths.filter((p) => p.endsWith('/sayHello'))).toHaveLength(1)
    // An Alpha's length is the schema's maxLength; a never_null field reads no null.
    const { Agency, Customer } = doc.components.schemas
    expect(Agency!.properties.name).toMatchObject({ type: 'string', maxLength: 80 })
    expect(Customer!.properties.notes).toMatchObject({ type: 'string' })
    expect(Agency!.properties.phone).toMatchObject({ type: ['string', 'null'], maxLength: 20 })
  })
})

describe('entistore clone --project', () => {
  it('writes the model and data files that serve --model --data loads, the same rows', async () => {
    const out = join(dir, 'clone')
    const r = await runCli(['clone', '--project', RENTAL, '--data', CSV, '--out', out])
    expect(r.code).toBe(0)
    expect(r.out[0]).toMatch(new RegExp(`^Cloned car-rental \\(Agency 2, .*\\) from ${RENTAL}$`))
    const copy = await loadDatastoreFiles({
      model: join(out, 'model.json'),
      data: join(out, 'data.json'),
    })
    const served = await loadDatastoreFiles({ project: RENTAL, data: CSV })
    for (const dc of ['Customer', 'Car', 'Rental']) {
      const rows = (ds: typeof copy) =>
        ds
          .dataClass(dc)
          .all()
          .toCollection()
          .map((e) => JSON.stringify(e))
      expect(rows(copy)).toEqual(rows(served))
    }
    const model = JSON.parse(readFileSync(join(out, 'model.json'), 'utf8')) as {
      dataClasses: { name: string; attributes: { name: string; maxLength?: number }[] }[]
    }
    const agency = model.dataClasses.find((d) => d.name === 'Agency')!
    expect(agency.attributes.find((a) => a.name === 'name')!.maxLength).toBe(80)
  })

  it('refuses a URL with --project, and --data without it', async () => {
    const both = await runCli(['clone', 'http://x', '--project', RENTAL, '--out', dir])
    expect([both.code, both.err[0]]).toEqual([
      2,
      'entistore: clone takes the URL of a server or --project <folder>, not both',
    ])
    const data = await runCli(['clone', 'http://x', '--data', CSV, '--out', dir])
    expect([data.code, data.err[0]]).toEqual([2, 'entistore: --data goes with --project'])
  })
})

describe('startFixture({ project })', () => {
  it('serves the project with its data, its 4D code running, and resets the data', async () => {
    const notes: string[] = []
    const fx = await startFixture({ project: RENTAL, data: CSV, onNote: (n) => notes.push(n) })
    try {
      const hello = await fetch(`${fx.url}/rest/$catalog/sayHello`, {
        method: 'POST',
        body: JSON.stringify(['Ada', 'Lovelace']),
      })
      expect(await hello.json()).toEqual({ result: 'Hello Ada Lovelace!' })
      const update = await fetch(`${fx.url}/rest/Agency?$method=update`, {
        method: 'POST',
        body: JSON.stringify({ __KEY: '1', city: 'Nice' }),
      })
      expect(update.status).toBe(200)
      fx.reset()
      const agency = (await (await fetch(`${fx.url}/rest/Agency(1)`)).json()) as { city: string }
      expect(agency.city).toBe('Lyon')
      expect(notes.some((n) => n.startsWith('triggers are not run'))).toBe(true)
    } finally {
      await fx.close()
    }
  })

  it('refuses a model and a project together', async () => {
    await expect(startFixture({ project: RENTAL, model: 'model.json' } as never)).rejects.toThrow(
      'fixture: give `model` or `project`, not both',
    )
  })
})
