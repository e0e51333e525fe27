/**
 * Issue 78's attacks through `Use … End use`, over REST: a function that loops inside a `Use` of
 * `Storage` holds no other client (its call stops inside the block), yet two such calls never run
 * their blocks at once (the second waits for the first's `End use`, as 4D's process does), and a
 * read meanwhile never gets a `restrict` answer the half-done block made stale.
 */
import { fileURLToPath } from 'node:url'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { answeredBeside, besideClients, type Client } from './four-d-rest.fixture.js'

/** Functions that loop inside a `Use` of Storage, Item's restrict reading Storage, and Lot. */
const HOSTILE_USE = fileURLToPath(new URL('test-projects/hostile-use', import.meta.url))

const ITEMS = 20

describe('a guest looping inside a Use block', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE_USE, { seed: ITEMS }))
  })

  beforeEach(async () => {
    await guest.post('$catalog/reset', [])
  })

  it('answers a read by key beside a function looping 10M passes inside Use (Storage)', async () => {
    const { order, heavy, light } = await answeredBeside(
      () => guest.post('$catalog/increment', [1, 10_000_000]),
      () => other.get('Lot(3)'),
    )
    expect(order).toEqual(['light', 'heavy'])
    expect(light.json.name).toBe('Lot3')
    expect(heavy.json.result).toBe(1)
  })

  it('runs the blocks of two calls at once one after the other: no increment lost', async () => {
    // Each call: 4 blocks of 2M passes, each reading the counter first and writing it last.
    const increment = (c: Client) => () => c.post('$catalog/increment', [4, 2_000_000])
    const { order, heavy, light } = await answeredBeside(increment(guest), increment(other), 1)
    expect(order).toHaveLength(2)
    // The call that ends last read the counter after every block of both.
    expect(Math.max(heavy.json.result, light.json.result)).toBe(8)
    expect((await other.post('$catalog/counter', [])).json.result).toBe(8)
    // The read by key is answered between their slices all the same.
    const beside = await answeredBeside(increment(guest), () => other.get('Lot(4)'))
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(beside.heavy.json.result).toBe(12)
  })

  it('never serves a restrict answer a half-done Use made stale', async () => {
    // Kept: every item, Storage.lockdown being False.
    expect((await other.get('Item?$top=1')).json.__COUNT).toBe(ITEMS)
    const { order, heavy, light } = await answeredBeside(
      () => guest.post('$catalog/lockdown', [10_000_000]),
      () => other.get('Item?$top=1'),
    )
    // Read while the block had set the flag (another process reads a shared object in use).
    expect(order).toEqual(['light', 'heavy'])
    expect(light.json.__COUNT).toBe(0)
    expect(heavy.json.result).toBe(false)
    expect((await other.get('Item?$top=1')).json.__COUNT).toBe(ITEMS)
  })
})
