/**
 * Entity sets read over a real socket while other clients delete their members: never a 5xx, and
 * every page of every read is consistent — the set's count never changes, a member is either the
 * entity or `{"__STAMP": 0}`, and at the end exactly the deleted members read as undefined.
 */
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { serveOnSocket } from '../node/serve.fixture.js'

const model: ModelJson = {
  __NAME: 'sets',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'long' },
      ],
    },
  ],
}

describe('entity sets under concurrent deletes', () => {
  it('keep their count, show deleted members as {"__STAMP": 0}, and never answer 5xx', async () => {
    const ITEMS = 400
    const rows = Array.from({ length: ITEMS }, (_, i) => ({ ID: i + 1, n: i % 10 }))
    const ds = createDatastore(model, {
      data: { Item: rows } as unknown as DataFile,
      clock: new ManualClock(),
    })
    const served = await serveOnSocket(ds)
    const internal = served.internal
    const base = `${served.base}/rest`

    const made = (await (
      await fetch(`${base}/Item?$filter="n<5"&$method=entityset&$top=0`)
    ).json()) as any
    const id = (made.__ENTITYSET as string).split('/').at(-1)!
    const size: number = made.__COUNT
    expect(size).toBe(200)

    const statuses: number[] = []
    const deleted = new Set<number>()
    const deleter = async (from: number) => {
      for (let key = from; key <= ITEMS; key += 4) {
        const res = await fetch(`${base}/Item(${key})?$method=delete`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
        statuses.push(res.status)
        if (res.status === 200) deleted.add(key)
        await res.arrayBuffer()
      }
    }
    const reader = async () => {
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${base}/Item/$entityset/${id}?$top=1000&$filter="n>=0"`)
        statuses.push(res.status)
        const page = (await res.json()) as any
        expect(page.__COUNT).toBeLessThanOrEqual(size)
        for (const e of page.__ENTITIES) {
          if (e.__STAMP === 0) expect(Object.keys(e)).toEqual(['__STAMP'])
          else expect(e.n).toBeLessThan(5)
        }
        const whole = (await (await fetch(`${base}/Item/$entityset/${id}?$top=1000`)).json()) as any
        expect(whole.__COUNT).toBe(size)
        expect(whole.__ENTITIES).toHaveLength(size)
      }
    }
    await Promise.all([
      deleter(1),
      deleter(2),
      deleter(3),
      deleter(4),
      reader(),
      reader(),
      reader(),
    ])
    expect(statuses.every((s) => s < 500)).toBe(true)
    expect(internal).toEqual([])
    const end = (await (await fetch(`${base}/Item/$entityset/${id}?$top=1000`)).json()) as any
    expect(end.__COUNT).toBe(size)
    const undefinedMembers = end.__ENTITIES.filter((e: any) => e.__STAMP === 0).length
    expect(undefinedMembers).toBe([...deleted].filter((k) => (k - 1) % 10 < 5).length)
    const cleaned = (await (
      await fetch(`${base}/Item/$entityset/${id}?$clean=true&$method=entityset&$top=0`)
    ).json()) as any
    expect(cleaned.__COUNT).toBe(size - undefinedMembers)
  })
})
