/**
 * 4D.Vector values kept in a folder as any value is (issue 49: "journalled, snapshotted and
 * replicated like any value"): a load's vectors (stored as one Float32Array a batch) and written
 * ones come back equal through the journal, then through a snapshot of the journal.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Vector, type Datastore } from '@entistore/core'
import { createDatastore, persistenceOf } from './create-datastore.js'
import { DOCS_MODEL as MODEL } from '../vector-index/docs-model.fixture.js'

let dir: string
const opened: Datastore[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-vectors-'))
})
afterEach(() => {
  for (const ds of opened.splice(0)) persistenceOf(ds)?.detach()
  rmSync(dir, { recursive: true, force: true })
})

const open = (data?: object) => {
  const ds = createDatastore(MODEL, { persist: dir, ...(data ? { data: data as never } : {}) })
  opened.push(ds)
  return ds
}

/** Every vector by key, as arrays (null for none). */
const vectors = (ds: Datastore) =>
  ds
    .dataClass('Doc')
    .all()
    .toArray()
    .map((e) => [e.getKey(), (e.get('embedding') as Vector | null)?.toCollection() ?? null])

describe('vectors in a persisted datastore', () => {
  it('come back equal through the journal, then through a snapshot', async () => {
    const ds = open({
      Doc: [{ embedding: [0.1, -0.2, 0.3] }, { embedding: [1e-7, 3.4028234663852886e38, -0] }, {}],
    })
    ds.dataClass('Doc').create({ embedding: new Vector([0.25, 0.5, 0.75]) })
    ds.dataClass('Doc').update(3, { embedding: [9, 8, 7] })
    const written = vectors(ds)
    expect(written).toHaveLength(4)
    expect(vectors(open())).toEqual(written)
    await persistenceOf(ds)!.snapshot()
    const again = open()
    expect(vectors(again)).toEqual(written)
    expect(again.dataClass('Doc').get(1)!.get('embedding')).toBeInstanceOf(Vector)
  })
})
