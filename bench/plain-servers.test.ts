/**
 * @module The HTTP suite's plain-JS servers (bench/child/plain-*-server.mjs) are a fair floor only
 * if they answer what entistore answers: each request of each shape, on the same data file, gives
 * the same JSON text from both, but for `__TIMESTAMP` (the plain server's is its start time).
 * Entistore answers in process (its REST handler); the plain server over its socket, as the suite
 * loads it.
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createDatastore, type DataFile, type ModelJson } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
import { prng } from './data.ts'
import { startNode, type Started } from './processes.ts'
import { CHILD, ORIGIN, SHAPE } from './suites/http.bench.ts'

// Past 50 Items a group (200 groups), so that `$top` cuts the 50-row filter short.
const ROWS = 12_000
const PATHS = 20
const started: Started[] = []
afterAll(async () => {
  await Promise.all(started.map((s) => s.child.stop()))
})

const withoutTimestamps = (json: string): string =>
  json.replace(/"__TIMESTAMP":"[^"]*"/g, '"__TIMESTAMP":""')

for (const shape of Object.values(SHAPE)) {
  describe.runIf(shape.plain !== undefined)(`${shape.id} shape: ${shape.plain}`, () => {
    it('answers every request of the suite with entistore’s JSON', async () => {
      const files = shape.files(ROWS)
      const ds = createDatastore(JSON.parse(readFileSync(files.model, 'utf8')) as ModelJson, {
        data: JSON.parse(readFileSync(files.data, 'utf8')) as DataFile,
      })
      const rest = createRestHandler(ds)
      const plain = await startNode(
        'plain JS',
        [CHILD(shape.plain!), files.data],
        /^plain JS at /,
        30_000,
      )
      started.push(plain)
      const origin = ORIGIN.exec(plain.line)![0]
      for (const request of shape.loads.flat()) {
        const next = request.path(ROWS)
        const r = prng(7)
        for (let i = 0; i < PATHS; i++) {
          const path = next(r)
          const q = path.indexOf('?')
          const reply = await rest.respond({
            method: 'GET',
            path: q < 0 ? path : path.slice(0, q),
            query: q < 0 ? '' : path.slice(q + 1),
            headers: {},
            remoteAddress: '127.0.0.1',
            body: undefined,
          })
          expect(reply.status, `${request.id}: ${path}`).toBe(200)
          const answered = await fetch(origin + path)
          expect(answered.status, `${request.id}: ${path}`).toBe(200)
          expect(withoutTimestamps(await answered.text()), `${request.id}: ${path}`).toBe(
            withoutTimestamps(reply.body as string),
          )
        }
      }
    })
  })
}
