/**
 * The engine in a page (issue 81): `@entistore/core` and `@entistore/rest` bundled by esbuild for
 * the browser (no polyfill, no Node module, not a warning), then run in Chromium, where a web
 * `Request` handed to `createRestHandler(ds).fetch` reads, filters, pages, writes and refuses as
 * on Node. The general path's reply (chunks counted against their limit) and the quick lanes both.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium } from '../explorer/chromium.fixture.js'
import { bundleForPage } from './page-bundle.fixture.js'

const ENTRY = `
import { createDatastore } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
const model = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'city', type: 'string' },
        { name: 'photo', type: 'image' },
      ],
    },
  ],
}
const data = { Person: [{ name: 'Ada', city: 'Zürich' }, { name: 'Grace', city: 'Arlington' }, { name: 'Linus', city: 'Helsinki' }] }
const internal = []
const rest = createRestHandler(createDatastore(model, { data }), {
  onInternalError: (e) => internal.push(String(e?.stack ?? e)),
})
globalThis.ask = async (path, init) => {
  const res = await rest.fetch(new Request(new URL(path, 'http://localhost'), init))
  return { status: res.status, body: await res.json(), internal }
}
`

type Answer = { status: number; body: Record<string, unknown>; internal: string[] }

describe.skipIf(!chromiumAvailable)('the engine bundled for a page, in Chromium', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    const { text, warnings } = await bundleForPage(ENTRY, { source: true })
    expect(warnings).toEqual([])
    browser = await launchChromium()
    page = await browser.newPage()
    await page.setContent('<!doctype html><title>entistore</title>')
    await page.addScriptTag({ content: text, type: 'module' })
    await page.waitForFunction(() => typeof (globalThis as { ask?: unknown }).ask === 'function')
  })
  afterAll(async () => browser?.close())

  const ask = (path: string, init?: { method: string; body: string }): Promise<Answer> =>
    page.evaluate(
      ([p, i]) =>
        (globalThis as unknown as { ask: (p: string, i?: RequestInit) => Promise<Answer> }).ask(
          p,
          i && { ...i, headers: { 'content-type': 'application/json' } },
        ),
      [path, init] as const,
    )

  it('reads, filters, orders and pages through the general path and the quick lanes', async () => {
    const all = await ask('/rest/Person')
    expect(all.status).toBe(200)
    expect(all.body.__COUNT).toBe(3)
    const ordered = await ask(`/rest/Person?$filter="city>'A'"&$orderby="name desc"&$top=2`)
    expect((ordered.body.__ENTITIES as { name: string }[]).map((e) => e.name)).toEqual([
      'Linus',
      'Grace',
    ])
    const one = await ask(`/rest/Person?$filter="name='ada'"`)
    expect((one.body.__ENTITIES as { city: string }[])[0]!.city).toBe('Zürich')
    expect((await ask('/rest/Person(2)')).body.name).toBe('Grace')
    expect((await ask('/rest/Person/ID?$compute=sum')).body as unknown).toBe(6)
    expect(all.internal).toEqual([])
  })

  it('writes, refuses what is wrong with the real server’s errors, and loses nothing', async () => {
    const made = await ask('/rest/Person?$method=update', {
      method: 'POST',
      body: JSON.stringify({ name: 'Margaret', city: 'Boston' }),
    })
    expect(made.status).toBe(200)
    expect(made.body.__KEY).toBe('4')
    const stale = await ask('/rest/Person?$method=update', {
      method: 'POST',
      body: JSON.stringify({ __KEY: '4', __STAMP: 99, city: 'Paoli' }),
    })
    expect(stale.status).toBe(409)
    expect(await ask('/rest/Nobody')).toMatchObject({ status: 404 })
    expect((await ask('/rest/Person(4)')).body.city).toBe('Boston')
    // A picture's conversion needs sharp, which a page has not: the stored picture is not asked.
    expect(made.internal).toEqual([])
  })
})
