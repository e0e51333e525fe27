/**
 * `entistore/msw` in a page (issue 81): the entry bundled for the browser with core and
 * `msw/browser` (by esbuild, and by Vite with Rollup: not a warning, no Node module), its handlers given to `setupWorker` in
 * Chromium, and a front end's calls answered by the service worker with no backend at all: the
 * page's static files are the only thing served. A login, then filtered reads, a create, a class
 * function and an entity set, the session kept between calls as the page's cookie would be. And a
 * 4D project bundled by `entistore bundle --project` given to `projectHandlers`: its class
 * functions run in the page, a login through its own `authentify` opening what its roles close.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, root } from '../explorer/chromium.fixture.js'
import { runCli } from '../commands/cli-serve.fixture.js'
import { FUNCTIONS } from '../project/four-d-rest.fixture.js'
import { bundleForPage } from './page-bundle.fixture.js'

const APP = `
import { createDatastore } from '@entistore/core'
import { restHandlers } from 'entistore/msw'
import { setupWorker } from 'msw/browser'
const { model, data } = ${readFileSync(new URL('./shop.json', import.meta.url), 'utf8')}
const functions = {
  dataClasses: {
    Item: { dataClass: { cheapest: { exposed: true, call() { return this.query('price < 4').length } } } },
  },
}
const handlers = restHandlers(createDatastore(model, { data, functions }), {
  authenticate: ({ user, password }) => (password === 'secret' ? { name: user } : null),
  forceLogin: true,
})
globalThis.ready = setupWorker(...handlers).start({ quiet: true }).then(() => true)
globalThis.reset = () => handlers.reset()
`

/** The app's bundle for the page by esbuild, and what esbuild warned of. */
const esbuildBundle = () => bundleForPage(APP, { source: true })

/** The same by Vite (Rollup underneath), with every warning its logger and Rollup gave. */
async function viteBundle(): Promise<{ text: string; warnings: unknown[] }> {
  const { build: viteBuild, createLogger } = await import('vite')
  // Inside the repository, where the packages resolve as they do for an app that installed them.
  const cache = join(root, 'node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'entistore-vite-'))
  const warnings: unknown[] = []
  const logger = createLogger('warn')
  logger.warn = (m) => warnings.push(m)
  logger.warnOnce = (m) => warnings.push(m)
  logger.error = (m) => warnings.push(m)
  try {
    writeFileSync(join(dir, 'app.js'), APP)
    const out = await viteBuild({
      root: dir,
      configFile: false,
      customLogger: logger,
      logLevel: 'warn',
      resolve: { conditions: ['source', 'module', 'browser', 'production'] },
      // What an app's build defines (a library build leaves it to the app): msw reads it.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        write: false,
        lib: { entry: join(dir, 'app.js'), formats: ['es'], fileName: 'app' },
        rollupOptions: { onwarn: (w) => warnings.push(w.message) },
      },
    })
    const chunk = (Array.isArray(out) ? out[0]! : out) as { output: { code?: string }[] }
    return { text: chunk.output[0]!.code!, warnings }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

type Answer = { status: number; body: any }

// One Chromium for every app, a page each (their own origin, so their own service worker).
let browser: Browser | undefined
const chromium = async (): Promise<Browser> => (browser ??= await launchChromium())
afterAll(async () => browser?.close())

interface ServedApp {
  readonly page: Page
  close(): Promise<void>
}

/**
 * A page running `app` (a bundle that sets `globalThis.ready` once its worker started), on a
 * server of the page's static files and nothing else: every /rest/ call is the worker's to answer.
 */
async function servedApp(app: string): Promise<ServedApp> {
  const worker = readFileSync(`${root}node_modules/msw/lib/mockServiceWorker.js`, 'utf8')
  const served: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><title>app</title><script type="module" src="/app.js"></script>',
    ],
    '/app.js': ['text/javascript', app],
    '/mockServiceWorker.js': ['text/javascript', worker],
  }
  const files: Server = createServer((req, res) => {
    const file = served[req.url ?? '']
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' })
    res.end(file?.[1] ?? 'not found')
  })
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
  const page = await (await chromium()).newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(`http://127.0.0.1:${(files.address() as AddressInfo).port}/`)
  await page.waitForFunction(() => (globalThis as { ready?: unknown }).ready !== undefined)
  await page.evaluate(() => (globalThis as unknown as { ready: Promise<boolean> }).ready)
  expect(pageErrors).toEqual([])
  return {
    page,
    async close() {
      await page.close()
      await new Promise((resolve) => files.close(resolve))
    },
  }
}

/** A `fetch` from the page, as a front end makes it: JSON sent, JSON read. */
const caller =
  (page: () => Page) =>
  (path: string, init?: { method: string; body?: string; headers?: object }) =>
    page().evaluate(
      async ([p, i]): Promise<Answer> => {
        const res = await fetch(p, {
          ...i,
          headers: { 'content-type': 'application/json', ...(i?.headers ?? {}) },
        })
        return { status: res.status, body: await res.json() }
      },
      [path, init] as const,
    )

describe.skipIf(!chromiumAvailable).each([
  ['esbuild', esbuildBundle],
  ['Vite', viteBundle],
])('entistore/msw bundled by %s, in Chromium through setupWorker', (_, bundle) => {
  let app: ServedApp
  let page: Page
  beforeAll(async () => {
    const { text, warnings } = await bundle()
    expect(warnings).toEqual([])
    app = await servedApp(text)
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
})

describe.skipIf(!chromiumAvailable)('a 4D project bundled by entistore bundle, in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-page-project-'))
  let app: ServedApp
  beforeAll(async () => {
    const out = join(dir, 'project.js')
    const wrote = await runCli(['bundle', '-p', FUNCTIONS, '-d', join(FUNCTIONS, 'csv'), '-o', out])
    expect(wrote.code, wrote.err.join('\n')).toBe(0)
    const { text, warnings } = await bundleForPage(
      `
import project from ${JSON.stringify(out)}
import { projectHandlers } from 'entistore/msw'
import { setupWorker } from 'msw/browser'
globalThis.ready = projectHandlers(project).then((handlers) => {
  globalThis.reset = () => handlers.reset()
  return setupWorker(...handlers).start({ quiet: true })
})
`,
      { source: true },
    )
    expect(warnings).toEqual([])
    // The 4D language went into the page, and nothing of Node's with it.
    expect(text).toContain('Wrong password')
    app = await servedApp(text)
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
