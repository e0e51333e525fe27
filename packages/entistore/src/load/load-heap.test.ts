import { spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliCommand } from '../persist/cli-process.fixture.js'

let dir: string
let model: string
let data: string
const ROWS = 250_000
// Each row's name is a text of its own of 160 characters outside Latin-1: kept as strings in the
// heap (two bytes a character), where a Latin-1 text would go into a column's byte buffer, outside
// the heap that --max-old-space-size limits (base-rows.ts).
const PAD = 'Ω'.repeat(140)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-heap-'))
  model = join(dir, 'model.json')
  writeFileSync(
    model,
    JSON.stringify({
      dataClasses: [
        {
          name: 'Person',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'name', type: 'string' },
          ],
        },
      ],
    }),
  )
  // About 80 MB: far more than its rows fit in a heap of 64 MB.
  data = join(dir, 'data.json')
  const out = createWriteStream(data)
  out.write('{"Person":[\n')
  for (let i = 0; i < ROWS; i++) out.write(`${i > 0 ? ',\n' : ''}{"ID":${i},"name":"${PAD} ${i}"}`)
  out.write(']}\n')
  await new Promise((resolve) => out.end(resolve))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a data file larger than the heap', () => {
  it('stops the load with DataExceedsHeap and a non-zero exit, not an out-of-memory crash', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=64',
        ...cliCommand(),
        'serve',
        '--model',
        model,
        '--data',
        data,
        '--port',
        '0',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    )
    expect(run.signal).toBe(null)
    expect(run.status).not.toBe(0)
    expect(run.stderr).not.toMatch(/heap out of memory|Allocation failed/)
    expect(run.stderr).toMatch(
      /data\.json: The data does not fit in Node's heap \(\d+ MB used of \d+ MB after \d+ rows, about \d+% of the file read\): run with NODE_OPTIONS=--max-old-space-size=\d+/,
    )
  })
})
