/**
 * @module `npm run test:durations`: rewrites tools/test-durations.json, the table that orders a
 * clean clone's test files (tools/test-order.ts), from this machine's last run of the suite
 * (vitest's cache). Run it after a whole `npm test` when files were added or got slower.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DURATIONS_FILE } from './test-order.ts'

/** Shorter files are left out: they keep the default place among the short ones. */
const KEPT_MS = 500

/** The cache's `[key, { duration, failed }]` entries as the table's `key → ms`, sorted by key. */
export function durationTable(
  results: ReadonlyArray<readonly [string, { readonly duration: number }]>,
): Record<string, number> {
  const kept = results
    .filter(([, r]) => r.duration >= KEPT_MS)
    .map(([key, r]) => [key, Math.round(r.duration / 100) * 100] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(kept)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../node_modules/.vite/vitest/', import.meta.url))
  const caches = readdirSync(root).map((d) => join(root, d, 'results.json'))
  if (caches.length !== 1)
    throw new Error(`expected one vitest cache under ${root}, found ${caches.length}`)
  const { results } = JSON.parse(readFileSync(caches[0]!, 'utf8')) as {
    results: [string, { duration: number }][]
  }
  const table = durationTable(results)
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(table, null, 2)}\n`)
  console.log(
    `tools/test-durations.json: ${Object.keys(table).length} files of ${KEPT_MS} ms or more`,
  )
}
