/**
 * The newcomer suite's page bundles build, for the browser and without a warning, from the
 * packages' builds: sizes are the bench's to judge (its goal), not this test's.
 */
import { describe, expect, it } from 'vitest'
import { PAGE_BUNDLES, weigh } from './page-bundles.ts'

describe('the page bundles the newcomer suite weighs', () => {
  it('build for a page, not a warning, each smaller gzipped than minified', async () => {
    for (const bundle of PAGE_BUNDLES) {
      const size = await weigh(bundle)
      expect(size.warnings, bundle.what).toEqual([])
      expect(size.gzipped, bundle.what).toBeGreaterThan(1000)
      expect(size.gzipped, bundle.what).toBeLessThan(size.minified)
    }
  })
})
