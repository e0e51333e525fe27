/**
 * Takes the README's picture of the explorer, docs/images/explorer.png, again: the company demo
 * (as `npm start` serves it) in Debian's Chromium, a 1280×760 window drawn at 0.75 so that the
 * picture is 960×570, stored with a palette to stay small. Run it when the page's look changes:
 *
 *   npx tsx --conditions=source tools/explorer-screenshot.ts
 *
 * CHROMIUM_PATH names another Chromium, as for the explorer's browser tests.
 */
import { writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { startFixture } from 'entistore/fixture'

const root = new URL('../', import.meta.url).pathname
const OUT = `${root}docs/images/explorer.png`

const fixture = await startFixture({
  model: `${root}examples/company/model.json`,
  data: `${root}examples/company/data.json`,
  functions: `${root}examples/company/functions.js`,
  explorer: true,
})
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 760 },
    deviceScaleFactor: 0.75,
    colorScheme: 'light',
  })
  await page.goto(`${fixture.url}/`, { waitUntil: 'networkidle' })
  // The first dataclass with its figures computed and its logos drawn.
  await page.locator('#compute dd[data-figure=max]').waitFor()
  const logos = page.locator('#rows img')
  while (!(await logos.evaluateAll((imgs) => imgs.every((img) => img.complete))))
    await page.waitForTimeout(50)
  const png = await page.screenshot()
  writeFileSync(OUT, await withPalette(png))
  console.log(`wrote ${OUT}`)
} finally {
  await browser.close()
  await fixture.close()
}

/** The picture with a palette (a third of the size), if sharp is installed; as it is otherwise. */
async function withPalette(png: Buffer): Promise<Buffer> {
  try {
    const { default: sharp } = await import('sharp')
    return await sharp(png).png({ palette: true, compressionLevel: 9 }).toBuffer()
  } catch {
    return png
  }
}
