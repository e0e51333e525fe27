/**
 * Torn writes, exhaustively: a journal cut at every byte of its last record opens with exactly
 * the commits before it, and whole it opens with all of them. Random commits, so that records of
 * every size and kind (writes, batches, restores) are the last one. Few runs: each cut opens a
 * folder (a few milliseconds of fsync), and a record is hundreds of bytes.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { DatastoreError, dumpData, ManualClock, type Datastore } from '@entistore/core'
import { createDatastore, persistenceOf } from './create-datastore.js'
import { FRAME_HEADER } from './frames.js'

const MODEL = {
  __NAME: 'torn',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
        { name: 'doc', type: 'blob' },
        { name: 'extra', type: 'object' },
      ],
    },
  ],
}

type Op =
  | { op: 'create'; name: string; doc: Uint8Array | null }
  | { op: 'update'; key: number; extra: unknown }
  | { op: 'drop'; key: number }
  | { op: 'batch'; names: string[] }
  | { op: 'restore' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    name: fc.string({ maxLength: 6 }),
    doc: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
  }),
  fc.record({
    op: fc.constant('update' as const),
    key: fc.integer({ min: 1, max: 5 }),
    extra: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ v })),
  }),
  fc.record({ op: fc.constant('drop' as const), key: fc.integer({ min: 1, max: 5 }) }),
  fc.record({
    op: fc.constant('batch' as const),
    names: fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.constant({ op: 'restore' as const }),
)

const root = mkdtempSync(join(tmpdir(), 'entistore-torn-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let runs = 0

const content = (ds: Datastore) => ({ data: dumpData(ds), globalStamp: ds.globalStamp })

function openAt(dir: string) {
  return createDatastore<'Item'>(MODEL, {
    clock: new ManualClock('2025-01-01T00:00:00Z'),
    persist: dir,
  })
}

describe('a torn last record', () => {
  it('is dropped at every byte offset, never half-applied', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 6 }), (ops) => {
        const dir = join(root, `run-${runs++}`)
        const ds = openAt(dir)
        const initial = ds.snapshot()
        const states = [content(ds)]
        const sizes = [journalSize(dir)]
        for (const o of ops) {
          const lsn = persistenceOf(ds)!.lsn
          try {
            apply(ds, o, initial)
          } catch (e) {
            if (!DatastoreError.is(e)) throw e
          }
          if (persistenceOf(ds)!.lsn === lsn) continue // refused: nothing was journaled
          states.push(content(ds))
          sizes.push(journalSize(dir))
        }
        persistenceOf(ds)!.close()
        if (states.length < 2) return
        const whole = sizes.at(-1)!
        const lastStart = sizes.at(-2)!
        // Every cut inside the last record, then the record whole.
        for (let cut = lastStart; cut <= whole; cut++) {
          const copy = `${dir}-cut`
          rmSync(copy, { recursive: true, force: true })
          mkdirSync(copy)
          for (const name of readdirSync(dir)) copyFileSync(join(dir, name), join(copy, name))
          truncateSync(join(copy, JOURNAL), cut)
          const reopened = openAt(copy)
          const want = cut === whole ? states.at(-1) : states.at(-2)
          expect(content(reopened)).toEqual(want)
          expect(persistenceOf(reopened)!.recovery.tornBytes).toBe(
            cut === whole ? 0 : cut - lastStart,
          )
          persistenceOf(reopened)!.detach()
        }
        expect(whole - lastStart).toBeGreaterThan(FRAME_HEADER)
      }),
      { numRuns: 4 },
    )
  })
})

const JOURNAL = 'journal-0000000000000001.log'

function journalSize(dir: string): number {
  return statSync(join(dir, JOURNAL)).size
}

function apply(ds: ReturnType<typeof openAt>, o: Op, initial: ReturnType<Datastore['snapshot']>) {
  switch (o.op) {
    case 'create':
      return void ds.Item.create({ name: o.name, doc: o.doc })
    case 'update':
      return void ds.Item.update(o.key, { extra: o.extra as never })
    case 'drop':
      return void ds.Item.drop(o.key)
    case 'batch':
      return ds.transaction(() => {
        for (const name of o.names) ds.Item.create({ name })
      })
    case 'restore':
      return ds.restore(initial)
  }
}
