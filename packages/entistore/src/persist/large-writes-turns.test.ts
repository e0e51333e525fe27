/**
 * Issue 28, item 3, counted: 16 MiB pictures POSTed by five clients at once to a store served with
 * `persist` (as `entistore serve --persist` serves it: large-writes.test.ts kills that one), enough
 * of them to cross the journal's snapshotBytes (64 MiB) so that a snapshot follows. A picture's
 * record was base64 in JSON, built, checksummed, written and flushed inside the commit (1.6–1.9 s
 * of event loop), and the snapshot after four of them held the loop about 7 s.
 *
 * Counted, not timed (rest's slices/counted-turns.fixture.ts): the REST handler, the node listener
 * and the snapshot's slices share the test's turns, on a clock that counts its readings; a slice
 * reads it after each piece it makes (a frame of a few rows, or a picture's bytes). So each turn's
 * pieces are bounded, and each piece's text is (the pictures are bytes beside it, not base64 in
 * it), and a fresh GET waits a few turns, never for a write or the snapshot to end: on a machine
 * busy with other work a GET took longer than a second of wall time for want of CPU alone.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { DataFile, ModelJson } from '@entistore/core'
import { TURNS_WAITED, watchResponsiveness } from '../../../rest/src/node/responsiveness.fixture.js'
import { countedTurns, turnBound } from '../../../rest/src/slices/counted-turns.fixture.js'
import { serve, type RunningServer } from '../serve/serve.js'
import { createDatastore, persistenceOf } from './create-datastore.js'
import { scanFrames } from './frames.js'
import { JOURNAL_MAGIC } from './persist-dir.js'
import {
  bigPng,
  example,
  logoOf,
  PICTURE_BYTES,
  postLogo,
  snapshotted,
} from './large-pictures.fixture.js'

const folder = mkdtempSync(join(tmpdir(), 'entistore-large-writes-turns-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const running: RunningServer[] = []
afterEach(async () => {
  for (const server of running.splice(0)) {
    await server.close()
    await persistenceOf(server.ds)?.close()
  }
})

const json = <T>(name: string): T => JSON.parse(readFileSync(example(name), 'utf8')) as T

/** The text of every frame in the store's files (both magics are as long). */
function frameTexts(store: string): string[] {
  return readdirSync(store)
    .filter((f) => /\.(snap|log)$/.test(f))
    .flatMap((f) =>
      scanFrames(readFileSync(join(store, f)), JOURNAL_MAGIC.length, 2).payloads.map((p) => p.text),
    )
}

describe('16 MiB pictures written to a persisted store, its turns counted', () => {
  it(
    'writes them and the snapshot after them a few pieces a turn, while a fresh GET waits a few turns',
    { timeout: 120_000 },
    async () => {
      const store = join(folder, 'store')
      const counted = countedTurns()
      const ds = createDatastore(json<ModelJson>('model.json'), {
        data: json<DataFile>('data.json'),
        // Records of ten rows: the snapshot is made of more pieces than a turn may take.
        persist: { dir: store, turns: counted.turns, rowsPerRecord: 10 },
      })
      const server = await serve(ds, { port: 0, turns: counted.turns })
      running.push(server)
      const pictures = [1, 2, 3, 4, 5].map(() => bigPng(PICTURE_BYTES))
      counted.take()
      const watch = watchResponsiveness(`${server.url}/rest/Company(8)`, { counted })
      // Five clients at once: their records are written together, in the order of their commits.
      const statuses = await Promise.all(
        pictures.map((picture, i) => postLogo(server.url, i + 1, picture)),
      )
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      // The snapshot runs on the turn after the write that crossed the line; the watch goes on
      // until it is on disk.
      await persistenceOf(ds)!.idle()
      expect(snapshotted(readdirSync(store))).toBe(true)
      const seen = await watch.stop()
      const turns = counted.take()
      expect(seen.failed).toBe(0)
      expect(seen.probes).toBeGreaterThan(0)
      expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
      // The snapshot's slices and a reply's share a turn: 6 units each of 12 turns (62 in one
      // turn when a slice ignores its deadline, all 70 when it takes everything in one go, while
      // a GET still waited only 4 turns: the turns waited alone would not show it).
      expect(turns.length).toBeGreaterThan(5)
      expect(Math.max(...turns)).toBeLessThanOrEqual(turnBound(2))

      // One more picture, in the journal's new segment: every frame the store holds, the
      // snapshot's and the journal's, is a short text, the pictures beside it as bytes.
      expect(await postLogo(server.url, 6, pictures[0]!)).toBe(200)
      const texts = frameTexts(store)
      expect(texts.length).toBeGreaterThan(40)
      expect(Math.max(...texts.map((t) => t.length))).toBeLessThan(64 * 1024)
      for (const [i, picture] of pictures.entries())
        expect((await logoOf(server.url, i + 1)).equals(picture)).toBe(true)
    },
  )
})
