/**
 * The explorer on a 4D project folder served as is (`serve --project` with CSV data): it lists the
 * dataclasses the project exposes and shows a table's rows, in Debian's Chromium as the other
 * explorer suites. Without Chromium the suite is skipped, except under CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startServe, type Started } from '../commands/cli-serve.fixture.js'
import { chromiumAvailable, launchChromium, root, SHOTS } from './chromium.fixture.js'

const RENTAL = `${root}examples/car-rental`

describe.skipIf(!chromiumAvailable)('the explorer on a 4D project folder, in Chromium', () => {
  const on = {} as { served: Started; browser: Browser; page: Page }
  beforeAll(async () => {
    on.served = await startServe([
      'serve',
      '--project',
      RENTAL,
      '--data',
      `${RENTAL}/csv`,
      '--quiet',
    ])
    on.browser = await launchChromium()
    on.page = await on.browser.newPage({ viewport: { width: 1280, height: 760 } })
  })
  afterAll(async () => {
    await on.browser?.close()
    await on.served?.stop()
  })

  it("lists the project's exposed tables and shows the rows of one from its CSV file", async () => {
    const errors: string[] = []
    on.page.on('pageerror', (e) => errors.push(e.message))
    await on.page.goto(`${on.served.url}/`)
    const classes = () => on.page.locator('#classes button').allTextContents()
    await expect.poll(classes).toContain('Car')
    // Hidden and trashed tables are not the explorer's to show: it reads the catalog.
    expect(await classes()).not.toContain('AuditLog')
    expect(await classes()).not.toContain('OldPricing')
    await on.page.locator('#classes button', { hasText: /^Car$/ }).click()
    await expect.poll(() => on.page.locator('#title').textContent()).toBe('Car')
    await expect.poll(() => on.page.locator('#status').textContent()).toBe('3 entities')
    const plates = await on.page.locator('#rows tbody td[data-attribute="plate"]').allTextContents()
    expect(plates).toEqual(['AB-123-CD', 'EF-456-GH', 'IJ-789-KL'])
    await on.page.screenshot({ path: `${SHOTS}project-car.png` })
    expect(errors).toEqual([])
  })
})
