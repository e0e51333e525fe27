/**
 * `entistore/msw` from the packed tarballs in Chromium (issue 81): the scratch project the pack
 * smoke installed (the four tarballs, msw, and the car rental written by the installed `entistore
 * bundle`), kept by CI for this test (PACK_SMOKE_KEEP, then ENTISTORE_PACKED_APP: Chromium is
 * installed after the pack smoke runs). Its front ends are bundled from that project's
 * node_modules by esbuild and by Vite, as its own bundler would, and answered by `setupWorker` with no server process:
 * the shop's login, filtered read and create, and the car rental's class function. Without
 * ENTISTORE_PACKED_APP (a run outside CI), it says it skips.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { chromiumAvailable } from '../explorer/chromium.fixture.js'
import { esbuildBundle, viteBundle } from './page-bundle.fixture.js'
import { caller, closeBrowser, servedApp, SHOP_APP } from './served-app.fixture.js'

const packed = process.env['ENTISTORE_PACKED_APP']

// The project module by its path: a bundler may write the app elsewhere (Vite, in its cache).
const PROJECT_APP = `
import project from ${JSON.stringify(join(packed ?? '.', 'project.js'))}
import { projectHandlers } from 'entistore/msw'
import { setupWorker } from 'msw/browser'
globalThis.ready = projectHandlers(project).then((handlers) => setupWorker(...handlers).start({ quiet: true }))
`

afterAll(closeBrowser)

// The shop by esbuild; the project by esbuild and by Vite (a Rollup build of the published
// bundles, the 4D language a chunk of its own, is what the sources' Vite build in
// msw-in-page.test.ts cannot show; the shop's Vite build there is the same as here).
describe.skipIf(!chromiumAvailable || packed === undefined).each([
  ['esbuild', esbuildBundle, [SHOP_APP, PROJECT_APP]],
  ['Vite', viteBundle, [PROJECT_APP]],
] as const)(
  'entistore/msw from the packed tarballs, bundled by %s, in Chromium through setupWorker',
  (_, bundler, apps) => {
    /** `app` bundled from the scratch project's packages, served in a page of its own. */
    const open = async (app: string) => {
      const { files, warnings } = await bundler(app, { resolveDir: packed! })
      expect(warnings).toEqual([])
      return servedApp(files, join(packed!, 'node_modules/msw'))
    }

    if (apps.includes(SHOP_APP))
      it('answers the shop: a login, then a filtered read and a create as its session', async () => {
        expect(existsSync(join(packed!, 'node_modules/entistore/package.json'))).toBe(true)
        const app = await open(SHOP_APP)
        try {
          const call = caller(() => app.page)
          expect((await call('/rest/Item')).status).toBe(401)
          const login = await call('/rest/$directory/login', {
            method: 'POST',
            body: '{}',
            headers: { 'username-4d': 'ada', 'password-4d': 'secret' },
          })
          expect(login.status).toBe(200)
          expect((await call(`/rest/Item?$filter="price<4"`)).body.__COUNT).toBe(2)
          const made = await call('/rest/Item?$method=update', {
            method: 'POST',
            body: JSON.stringify({ name: 'nib', price: 1 }),
          })
          expect(made.status).toBe(200)
        } finally {
          await app.close()
        }
      })

    it("runs the bundled car rental's class functions in the page", async () => {
      const app = await open(PROJECT_APP)
      try {
        const call = caller(() => app.page)
        const hello = await call('/rest/$catalog/sayHello', {
          method: 'POST',
          body: '["Ada","Lovelace"]',
        })
        expect([hello.status, String(hello.body.result)]).toEqual([
          200,
          expect.stringContaining('Ada'),
        ])
        const days = await call('/rest/$catalog/rentalDays', {
          method: 'POST',
          body: '["2024-01-01","2024-01-31"]',
        })
        expect(days.status).toBe(200)
      } finally {
        await app.close()
      }
    })
  },
)
