/**
 * Every way `entistore` makes a datastore gives it the HNSW index (hnswlib-node, an optional
 * dependency): `serve` with and without `--persist`, `serve --project`, and the fixture. A search
 * with `"approximate": true` plans the index, never "no approximate index package installed".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { Datastore } from '@entistore/core'
import { startServe } from '../commands/cli-serve.fixture.js'
import { createFixture } from '../fixture.js'
import { DOCS_MODEL } from './docs-model.fixture.js'

const missing = (() => {
  try {
    createRequire(import.meta.url)('hnswlib-node')
    return undefined
  } catch (e) {
    return (e as Error).message.split('\n')[0]
  }
})()
if (missing)
  console.warn(`approximate-serve.test.ts skipped: hnswlib-node not loadable (${missing})`)

const folder = mkdtempSync(join(tmpdir(), 'entistore-approximate-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const model = join(folder, 'model.json')
const data = join(folder, 'data.json')
const DATA = {
  Doc: [
    [1, 0, 0],
    [0, 1, 0],
    [0.9, 0.1, 0],
  ].map((embedding) => ({ embedding })),
}
writeFileSync(model, JSON.stringify(DOCS_MODEL))
writeFileSync(data, JSON.stringify(DATA))

/** A search asking for approximation, on the `embedding` of `dataClass`. */
const search = (dataClass: string, vector: number[]) =>
  `/${dataClass}?$filter="embedding>=:1"&$orderby="embedding desc"&$queryplan=true&$params=` +
  encodeURIComponent(JSON.stringify([{ vector, threshold: 0.5, approximate: true }]))

/**
 * The keys and plan of the search, asked twice: the first starts the index's build, awaited
 * before the second.
 */
async function plan(
  ds: Datastore,
  get: (path: string) => Promise<Response>,
  dataClass = 'Doc',
  vector = [1, 0, 0],
): Promise<{ keys: string[]; plan: string }> {
  await get(search(dataClass, vector))
  const def = ds.dataClass(dataClass).def
  await ds.nearest.ready(
    def,
    def.storage.find((a) => a.name === 'embedding')!,
    'cosine',
  )
  const res = await get(search(dataClass, vector))
  const body = (await res.json()) as { __queryPlan: unknown; __ENTITIES: { __KEY: string }[] }
  return { keys: body.__ENTITIES.map((e) => e.__KEY), plan: JSON.stringify(body.__queryPlan) }
}

const HNSW = 'approximate: HNSW (hnswlib-node, M=16, efConstruction=200), ef 100'

describe.skipIf(missing !== undefined)(
  'the approximate index, wherever the datastore is made',
  () => {
    it.each([
      ['serve', [] as string[]],
      ['serve --persist', ['--persist', join(folder, 'store')]],
    ])('%s plans HNSW for "approximate": true', async (_, extra) => {
      const s = await startServe(['serve', '-m', model, '-d', data, ...extra])
      try {
        expect(await plan(s.server.ds, (path) => fetch(`${s.url}/rest${path}`))).toEqual({
          keys: ['1', '3'],
          plan: expect.stringContaining(HNSW),
        })
      } finally {
        expect(await s.stop()).toBe(0)
      }
    })

    it('a fixture made from objects plans HNSW too', async () => {
      const f = await createFixture({ model: DOCS_MODEL, data: DATA as never })
      const found = await plan(f.ds, (path) => f.fetch(new Request(`http://localhost/rest${path}`)))
      expect(found).toEqual({ keys: ['1', '3'], plan: expect.stringContaining(HNSW) })
    })

    it('serve --project (car-rental, its CSV data) plans HNSW too', async () => {
      const rental = fileURLToPath(new URL('../../../../examples/car-rental', import.meta.url))
      const s = await startServe([
        'serve',
        '--project',
        rental,
        '--data',
        `${rental}/csv`,
        '--no-explorer',
        '--quiet',
      ])
      try {
        const found = await plan(
          s.server.ds,
          (path) => fetch(`${s.url}/rest${path}`),
          'CarModel',
          [0.12, -0.4, 0.9],
        )
        expect(found.keys[0]).toBe('1')
        expect(found.plan).toContain(HNSW)
      } finally {
        expect(await s.stop()).toBe(0)
      }
    })
  },
)
