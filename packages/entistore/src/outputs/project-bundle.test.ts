/**
 * `entistore bundle --project` (issue 81): the module it writes, opened with nothing of Node's
 * (`openProject`), answers as `serve --project` answers for the same folder and data: the same
 * requests, the same replies, class functions, computed attributes, roles and events included.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Datastore } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
import { afterAll, describe, expect, it } from 'vitest'
import { openProject, type BundledProject } from '../browser/project-in-page.js'
import { main } from '../cli.js'
import { Queue, runCli } from '../commands/cli-serve.fixture.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import { FUNCTIONS, RENTAL } from '../project/four-d-rest.fixture.js'

const dir = mkdtempSync(join(tmpdir(), 'entistore-bundle-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let made = 0
/** Bundles `argv`'s project with the CLI and imports the module it wrote. */
async function bundled(argv: string[]): Promise<{ bundle: BundledProject; out: string }> {
  const out = join(dir, `project-${++made}.js`)
  const run = await runCli(['bundle', ...argv, '--out', out])
  expect(run.code, run.err.join('\n')).toBe(0)
  expect(run.out.at(-1)).toMatch(new RegExp(`^Wrote ${out} \\(\\d+ dataclasses, \\d+ files`))
  const module = (await import(pathToFileURL(out).href)) as { default: BundledProject }
  return { bundle: module.default, out }
}

/** `method path body` through the REST handler of `ds`; time stamps and the store's id left out. */
async function ask(ds: Datastore, request: string): Promise<{ status: number; body: string }> {
  const [method, path, body] = request.split(' ') as [string, string, string | undefined]
  const reply = await createRestHandler(ds).fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    }),
  )
  return {
    status: reply.status,
    body: (await reply.text()).replace(/"(__TIMESTAMP|__UNIQID)":"[^"]*"/g, ''),
  }
}

/** The same requests to the bundle opened as a page opens it and to the folder as serve loads it. */
async function sameAsServe(
  project: string,
  data: string,
  requests: readonly string[],
): Promise<Map<string, { status: number; body: string }>> {
  const { bundle } = await bundled(['--project', project, '--data', data])
  const page = await openProject(bundle)
  const served = await loadDatastoreFiles({ project, data })
  const answers = new Map<string, { status: number; body: string }>()
  for (const request of requests) {
    const answer = await ask(page, request)
    expect(answer, request).toEqual(await ask(served, request))
    answers.set(request, answer)
  }
  return answers
}

describe('entistore bundle --project', () => {
  it('answers what serve answers: the catalog, reads, class functions, roles (docs-functions)', async () => {
    const answers = await sameAsServe(FUNCTIONS, join(FUNCTIONS, 'csv'), [
      'GET /rest/$catalog',
      'GET /rest/$catalog/City',
      'GET /rest/City?$top=3&$orderby=name',
      'POST /rest/$catalog/getName []',
      'POST /rest/$catalog/kind [3]',
      'POST /rest/$catalog/nextDay ["2024-02-28"]',
      'POST /rest/City/getCity ["Aguada"]',
      'POST /rest/City/getCities ["Aguada","Adjuntas"]',
      // roles.json: City.count needs the manager privilege.
      'POST /rest/City/count []',
      'GET /rest/Students?$attributes=firstname,lastname',
    ])
    // What was compared is the code's work, not two alike refusals.
    expect(answers.get('POST /rest/$catalog/nextDay ["2024-02-28"]')).toEqual({
      status: 200,
      body: '{"result":"2024-02-29"}',
    })
    expect(answers.get('POST /rest/City/getCity ["Aguada"]')!.body).toContain('"name":"Aguada"')
    expect(answers.get('POST /rest/City/count []')!.status).toBe(403)
  })

  it('answers what serve answers for the car rental: computed attributes, selections, events', async () => {
    const answers = await sameAsServe(RENTAL, join(RENTAL, 'csv'), [
      'GET /rest/Car?$top=2&$attributes=label,brand',
      'POST /rest/$catalog/sayHello ["Ada","Lovelace"]',
      'POST /rest/$catalog/rentalDays ["2024-01-01","2024-01-31"]',
      'POST /rest/$catalog/priceByDay [40,3]',
      'POST /rest/$catalog/getFirstCar []',
      'GET /rest/Agency?$top=2&$attributes=description',
      'POST /rest/Pricing/quote [1,3]',
      // validateSave refuses a negative mileage.
      'POST /rest/Car?$method=update {"__KEY":1,"mileage":-5}',
      'POST /rest/Car?$method=update {"__KEY":1,"mileage":5}',
      'GET /rest/Car(1)?$attributes=mileage',
    ])
    expect(answers.get('POST /rest/$catalog/sayHello ["Ada","Lovelace"]')!.body).toContain('Ada')
    expect(answers.get('POST /rest/Car?$method=update {"__KEY":1,"mileage":-5}')!.body).toContain(
      'negative mileage',
    )
    expect(answers.get('GET /rest/Car(1)?$attributes=mileage')!.body).toContain('"mileage":5')
  })

  it('writes the same bytes for the same files, and a declaration beside the module', async () => {
    const [a, b] = [await bundled(['-p', FUNCTIONS]), await bundled(['-p', FUNCTIONS])]
    const text = readFileSync(a.out, 'utf8')
    expect(readFileSync(b.out, 'utf8')).toBe(text)
    expect(text).toMatch(/^\/\/ The 4D project docs-functions, bundled by/)
    expect(text).not.toContain('"data"')
    expect(readFileSync(a.out.replace(/\.js$/, '.d.ts'), 'utf8')).toContain(
      "import('entistore/msw').BundledProject",
    )
    // No data file: an empty datastore, the model and code whole.
    const ds = await openProject(a.bundle)
    expect(ds.dataClass('City').all().length).toBe(0)
    expect((await ask(ds, 'POST /rest/$catalog/getName []')).body).toContain('US cities')
  })

  it('refuses what is no bundle, and a bundle of another format', async () => {
    await expect(openProject({} as BundledProject)).rejects.toThrow(/not a bundled project/)
    const { bundle } = await bundled(['-p', FUNCTIONS])
    await expect(
      openProject({ ...bundle, format: 'entistore-project/0' as never }),
    ).rejects.toThrow(/format is entistore-project\/0; this version reads entistore-project\/1/)
  })

  it('says a usage mistake in one line, and a project that cannot be read at its file', async () => {
    const none = await runCli(['bundle', '-p', FUNCTIONS])
    expect([none.code, none.err[0]]).toEqual([2, 'entistore: --out <project.js> is required'])
    const ts = await runCli(['bundle', '-p', FUNCTIONS, '-o', 'x.ts'])
    expect(ts.err[0]).toBe('entistore: --out names an ES module (.js or .mjs), got "x.ts"')
    const missing = await runCli(['bundle', '-p', join(dir, 'nowhere'), '-o', join(dir, 'x.js')])
    expect(missing.code).toBe(1)
    expect(missing.err[0]).toMatch(/nowhere: the project folder does not exist/)
    expect(existsSync(join(dir, 'x.js'))).toBe(false)
  })

  it('writes the module again when a class file changes (--watch), keeping it when one does not load', async () => {
    const copy = join(dir, 'watched')
    cpSync(FUNCTIONS, copy, { recursive: true })
    const out = join(dir, 'watched.js')
    const runs = new Queue<number>()
    const err: string[] = []
    let stop!: () => void
    const done = main(['bundle', '--watch', '-p', copy, '-o', out], {
      out: () => {},
      err: (l) => err.push(l),
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onWatchRun: runs.push,
      watchDebounceMs: 20,
    })
    expect(await runs.next()).toBe(0)
    const file = join(copy, 'Project/Sources/Classes/DataStore.4dm')
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('US cities and zip codes manager', 'Changed'),
    )
    expect(await runs.next()).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('Changed')
    const catalog = join(copy, 'Project/Sources/catalog.4DCatalog')
    writeFileSync(catalog, '<base')
    expect(await runs.next()).toBe(1)
    expect(err.at(-1)).toMatch(/not valid XML.*\(.*watched\.js is left as it was\)$/)
    expect(readFileSync(out, 'utf8')).toContain('Changed')
    stop()
    expect(await done).toBe(1)
  })
})
