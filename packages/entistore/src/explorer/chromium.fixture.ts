/**
 * @module For the explorer's browser tests: Debian's Chromium driven by playwright-core, and where
 * their screenshots go (test-results/explorer/, git-ignored, for a person to look at). Without
 * Chromium the browser suites are skipped, except under CI (`.ci/install-services.sh` installs it).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** The repository's root, with its trailing slash. */
export const root = fileURLToPath(new URL('../../../../', import.meta.url))
export const SHOTS = `${root}test-results/explorer/`
/** Whether the browser suites can run here. */
export const chromiumAvailable = existsSync(CHROMIUM)
if (!chromiumAvailable && process.env.CI)
  throw new Error(`the explorer's browser tests need ${CHROMIUM}`)

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true })
  const { chromium } = await import('playwright-core')
  // The flags the machine notes ask for: no sandbox as root, no background connections (the
  // network is closed), a fresh profile.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
