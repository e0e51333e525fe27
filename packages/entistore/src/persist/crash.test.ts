/**
 * The durability promise, end to end: `entistore serve --persist` in a child process takes a
 * load of writes (single inserts and `$atomic` batches from several clients at once), is killed
 * with SIGKILL in the middle of it, and is started again on the same folder. Every write that got
 * a 200 must be there; a batch must be there whole or not at all; nothing else may appear.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { itemWriteLoad, startServe, stopChildren } from './cli-process.fixture.js'

const MODEL = {
  __NAME: 'crash',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
      ],
    },
  ],
}

const folder = mkdtempSync(join(tmpdir(), 'entistore-crash-'))
afterAll(() => {
  stopChildren()
  rmSync(folder, { recursive: true, force: true })
})

/** Starts `entistore serve --persist`; resolves with its URL once it listens. */
const start = (args: string[]) => startServe(args, 'Persisting to')

describe('entistore serve --persist, killed with SIGKILL mid-load', () => {
  it('keeps every acknowledged write, and no batch in part', async () => {
    const model = join(folder, 'model.json')
    const data = join(folder, 'data.json')
    const store = join(folder, 'store')
    writeFileSync(model, JSON.stringify(MODEL))
    writeFileSync(data, JSON.stringify({ Item: [{ name: 'seed' }] }))
    const args = ['-m', model, '-d', data, '--persist', store]

    const first = await start(args)
    const died = new Promise((resolve) => first.child.on('exit', resolve))
    // Four clients write as fast as the server answers, until the kill cuts them off.
    const { acknowledged, batches, sent } = await itemWriteLoad([first.url], 4, (load) => {
      if (load.acknowledged.size < 300) return false
      first.child.kill('SIGKILL')
      return true
    })
    await died

    const second = await start(args)
    const reply = await fetch(`${second.url}/rest/Item?$top=100000&$attributes=name`)
    const names = new Set(
      ((await reply.json()) as { __ENTITIES: { name: string }[] }).__ENTITIES.map((e) => e.name),
    )
    second.child.kill('SIGTERM')

    expect(acknowledged.size).toBeGreaterThanOrEqual(300)
    expect([...acknowledged].filter((n) => !names.has(n))).toEqual([])
    expect([...names].filter((n) => n !== 'seed' && !sent.has(n))).toEqual([])
    for (const batch of batches.values()) {
      const there = batch.filter((n) => names.has(n)).length
      expect([0, batch.length], `batch ${batch[0]}`).toContain(there)
    }
    expect(names.has('seed')).toBe(true)
  })
})
