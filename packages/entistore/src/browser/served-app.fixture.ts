/**
 * @module A front end's page in Chromium, served as a dev server serves it: its bundle, the MSW
 * worker script, and nothing else, so that every /rest/ call is the worker's to answer (the
 * tests of `entistore/msw` in a page, from the sources and from the packed tarballs).
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { launchChromium, root } from '../explorer/chromium.fixture.js'

/**
 * The shop's front end: its datastore (shop.json) behind `restHandlers` with a login required, a
 * class function, `ready` once the worker started and `reset` between tests.
 */
export const SHOP_APP = `
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

export type Answer = { status: number; body: any }

let browser: Browser | undefined
const chromium = async (): Promise<Browser> => (browser ??= await launchChromium())

/** Closes the Chromium the pages of a file shared (its afterAll). */
export async function closeBrowser(): Promise<void> {
  await browser?.close()
  browser = undefined
}

export interface ServedApp {
  readonly page: Page
  close(): Promise<void>
}

/**
 * A page running `app` (a bundle that sets `globalThis.ready` once its worker started; or its
 * files by path, `/app.js` the entry, for a bundler that splits), on a server of the page's
 * static files; `msw` is the folder of the msw package whose worker script it serves (the
 * repository's by default).
 */
export async function servedApp(
  app: string | Readonly<Record<string, string>>,
  msw: string = `${root}node_modules/msw`,
): Promise<ServedApp> {
  const worker = readFileSync(`${msw}/lib/mockServiceWorker.js`, 'utf8')
  const scripts = typeof app === 'string' ? { '/app.js': app } : app
  const served: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><title>app</title><script type="module" src="/app.js"></script>',
    ],
    ...Object.fromEntries(
      Object.entries(scripts).map(([path, code]) => [
        path,
        ['text/javascript', code] as [string, string],
      ]),
    ),
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
export const caller =
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
