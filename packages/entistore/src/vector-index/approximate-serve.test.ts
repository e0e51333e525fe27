/**
 * Every way `entistore` makes a datastore gives it the HNSW index (hnswlib-node, an optional
 * dependency): `serve` with and without `--persist`, and the fixture. A search with
 * `"approximate": true` plans the index, never "no approximate index package installed".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Datastore } from '@entistore/core'
import { startServe } from '../cli-serve.fixture.js'
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

const SEARCH =
  '/Doc?$filter="embedding>=:1"&$orderby="embedding desc"&$queryplan=true&$params=' +
  encodeURIComponent('[{"vector":[1,0,0],"threshold":0.5,"approximate":true}]')

/** The plan of the search, asked twice: the first starts the index's build, awaited before the second. */
async function plan(ds: Datastore, get: (path: string) => Promise<Response>): Promise<string> {
  await get(SEARCH)
  const Doc = ds.dataClass('Doc').def
  await ds.nearest.ready(
    Doc,
    Doc.storage.find((a) => a.name === 'embedding')!,
    'cosine',
  )
  const res = await get(SEARCH)
  const body = (await res.json()) as { __queryPlan: unknown; __ENTITIES: { ID: number }[] }
  expect(body.__ENTITIES.map((e) => e.ID)).toEqual([1, 3])
  return JSON.stringify(body.__queryPlan)
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
        expect(await plan(s.server.ds, (path) => fetch(`${s.url}/rest${path}`))).toContain(HNSW)
      } finally {
        expect(await s.stop()).toBe(0)
      }
    })

    it('a fixture made from objects plans HNSW too', async () => {
      const f = await createFixture({ model: DOCS_MODEL, data: DATA as never })
      expect(
        await plan(f.ds, (path) => f.fetch(new Request(`http://localhost/rest${path}`))),
      ).toContain(HNSW)
    })
  },
)
