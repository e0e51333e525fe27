/**
 * `entistore/msw` in a page (issue 81): the entry bundled for the browser with core and
 * `msw/browser` by esbuild (not a warning, no Node module), its handlers given to `setupWorker`
 * in Chromium, and a front end's calls answered by the service worker with no backend at all: the
 * page's static files are the only thing served. A login, then filtered reads, a create, a class
 * function and an entity set, the session kept between calls as the page's cookie would be. And a
 * 4D project bundled by `entistore bundle --project` given to `projectHandlers`, bundled by
 * esbuild and by Vite (Rollup underneath: the same entry, core and rest, and the 4D language as a
 * chunk of its own): its class functions run in the page, a login through its own `authentify`
 * opening what its roles close. (The shop's flows do not depend on the bundler: its Vite build,
 * 8 s of CI, said no more than the project's.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable } from '../explorer/chromium.fixture.js'
import { runCli } from '../commands/cli-serve.fixture.js'
import { FUNCTIONS } from '../project/four-d-rest.fixture.js'
import { esbuildBundle, viteBundle } from './page-bundle.fixture.js'
import { caller, closeBrowser, servedApp, SHOP_APP, type ServedApp } from './served-app.fixture.js'

// One Chromium for every app of this file, a page each (their own origin and service worker).
afterAll(closeBrowser)

describe.skipIf(!chromiumAvailable).each([['esbuild', esbuildBundle]])(
  'entistore/msw bundled by %s, in Chromium through setupWorker',
  (_, bundler) => {
    const bundle = (app: string) => bundler(app, { source: true })
    let app: ServedApp
    let page: Page
    beforeAll(async () => {
      const { files, warnings } = await bundle(SHOP_APP)
      expect(warnings).toEqual([])
      app = await servedApp(files)
      page = app.page
    })
    afterAll(async () => app?.close())
    const call = caller(() => page)

    const login = () =>
      call('/rest/$directory/login', {
        method: 'POST',
        body: '{}',
        headers: { 'username-4d': 'ada', 'password-4d': 'secret' },
      })

    it('refuses a read before the login, then answers as the session the login opened', async () => {
      await page.evaluate(() => (globalThis as unknown as { reset: () => void }).reset())
      expect((await call('/rest/Item')).status).toBe(401)
      expect((await login()).status).toBe(200)
      const cheap = await call(`/rest/Item?$filter="price<4"&$orderby="name"`)
      expect(cheap.body.__ENTITIES.map((e: { name: string }) => e.name)).toEqual(['pad', 'pen'])
      const made = await call('/rest/Item?$method=update', {
        method: 'POST',
        body: JSON.stringify({ name: 'nib', price: 1 }),
      })
      expect(made.status).toBe(200)
      expect((await call(`/rest/Item(${made.body.__KEY})`)).body.name).toBe('nib')
      expect((await call('/rest/Item/cheapest', { method: 'POST', body: '[]' })).body).toEqual({
        result: 3,
      })
      const set = await call(`/rest/Item?$filter="price>2"&$method=entityset`)
      const uri: string = set.body.__ENTITYSET
      expect((await call(uri.slice(uri.indexOf('/rest/')))).body.__COUNT).toBe(2)
    })

    it('puts the data back and forgets the session at reset', async () => {
      await page.evaluate(() => (globalThis as unknown as { reset: () => void }).reset())
      expect((await call('/rest/Item')).status).toBe(401)
      await login()
      expect((await call('/rest/Item')).body.__COUNT).toBe(3)
    })
  },
)

describe.skipIf(!chromiumAvailable).each([
  ['esbuild', esbuildBundle],
  ['Vite', viteBundle],
])('a 4D project bundled by entistore bundle, then by %s, in Chromium', (by, bundler) => {
  const bundle = (app: string) => bundler(app, { source: true })
  const dir = mkdtempSync(join(tmpdir(), 'entistore-page-project-'))
  let app: ServedApp
  beforeAll(async () => {
    const out = join(dir, 'project.js')
    const wrote = await runCli(['bundle', '-p', FUNCTIONS, '-d', join(FUNCTIONS, 'csv'), '-o', out])
    expect(wrote.code, wrote.err.join('\n')).toBe(0)
    const { text, files, warnings } = await bundle(`
import project from ${JSON.stringify(out)}
import { projectHandlers } from 'entistore/msw'
import { setupWorker } from 'msw/browser'
globalThis.ready = projectHandlers(project).then((handlers) => {
  globalThis.reset = () => handlers.reset()
  return setupWorker(...handlers).start({ quiet: true })
})
`)
    expect(warnings).toEqual([])
    // The 4D language went into the page (a 4D error's text: For each's), and nothing of Node's with it; a
    // bundler that splits makes it a chunk of its own, which only a project's page loads.
    const language = Object.values(files).filter((code) =>
      code.includes('For each cannot loop over'),
    )
    expect(language).toHaveLength(1)
    if (by === 'Vite') expect(text).not.toContain('For each cannot loop over')
    app = await servedApp(files)
  })
  afterAll(async () => {
    await app?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const call = caller(() => app.page)
  const post = (path: string, body: unknown) =>
    call(path, { method: 'POST', body: JSON.stringify(body) })

  it("runs the project's class functions in the page: the datastore's, a dataclass's, an entity's", async () => {
    expect((await post('/rest/$catalog/getName', [])).body).toEqual({
      result: 'US cities and zip codes manager',
    })
    expect((await post('/rest/$catalog/nextDay', ['2024-02-28'])).body).toEqual({
      result: '2024-02-29',
    })
    const city = await post('/rest/City/getCity', ['Aguada'])
    expect([city.status, city.body.name]).toEqual([200, 'Aguada'])
    expect((await call(`/rest/City?$filter="name='Aguada'"`)).body.__COUNT).toBe(1)
  })

  it("logs in through the project's authentify, which opens what its roles.json closes", async () => {
    await app.page.evaluate(() => (globalThis as unknown as { reset: () => void }).reset())
    expect((await post('/rest/City/count', [])).status).toBe(403)
    expect(
      (await post('/rest/$catalog/authentify', [{ name: 'ada', password: 'no' }])).body,
    ).toEqual({ result: 'Wrong password' })
    expect(
      (await post('/rest/$catalog/authentify', [{ name: 'ada', password: 'secret' }])).body,
    ).toEqual({ result: 'Welcome ada' })
    expect((await post('/rest/$catalog/whoAmI', [])).body).toEqual({
      result: { user: 'ada', manager: true },
    })
    const count = await post('/rest/City/count', [])
    expect([count.status, typeof count.body.result]).toEqual([200, 'number'])
  })
})
