/**
 * Issue 78's attacks through writes inside a transaction, over REST: Item's saving event loops as
 * many passes as the saved item's `pause` says. An `$atomic` batch and a function's
 * `ds.startTransaction()` … `validateTransaction()` run those events in steps, their transaction
 * open across turns: another client's write of an item the transaction saved, sent after the
 * heavy request, is refused as locked (4D's status 3) and its read by key shows the committed
 * item, both answered first; an endless event ends the transaction with the budget's 9410,
 * nothing of it saved and nothing left locked.
 */
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  besideClients,
  errCodes,
  type Client,
  type Reply,
} from './four-d-rest.fixture.js'

const HOSTILE_TRANSACTIONS = fileURLToPath(
  new URL('test-projects/hostile-transactions', import.meta.url),
)
const ITEMS = 50
// About 0.1 s of 4D code in slices: a score of turns.
const LONG = 30_000_000

describe('a transaction whose saving event loops, beside another client', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE_TRANSACTIONS, { seed: ITEMS }))
  })

  const count = async (): Promise<number> => (await other.get('Item?$top=1')).json.__COUNT
  const nameOf = async (key: number): Promise<string> => (await other.get(`Item(${key})`)).json.name

  /**
   * The heavy request, and the other client's write then read by key of item `key`, sent after it
   * started: the order answered, the heavy reply, the refused write and the read.
   */
  async function beside(
    heavy: () => Promise<Reply>,
    key: number,
  ): Promise<{ order: string[]; heavy: Reply; write: Reply; read: Reply }> {
    let write: Reply | undefined
    const r = await answeredBeside(heavy, async () => {
      write = await other.post('Item?$method=update', { __KEY: key, name: 'Other' })
      return other.get(`Item(${key})`)
    })
    return { order: r.order, heavy: r.heavy, write: write!, read: r.light }
  }

  // The other client met the transaction open: its write refused as locked, its read committed.
  function metOpen(r: { order: string[]; write: Reply; read: Reply }, committed: string): void {
    expect(r.order).toEqual(['light', 'heavy'])
    expect(errCodes(r.write.json)).toContain(9070)
    expect(r.write.json.__STATUS.status).toBe(3)
    expect(r.write.json.name).toBe(committed)
    expect(r.read.json.name).toBe(committed)
  }

  it('an $atomic batch: a read by key answered beside it does not see its uncommitted item', async () => {
    const before = await count()
    const r = await beside(
      () =>
        guest.post('Item?$method=update&$atomic=true', [
          { __KEY: 5, name: 'Fast' },
          { __KEY: 6, pause: LONG },
          { name: 'Made' },
        ]),
      5,
    )
    metOpen(r, 'Item5')
    expect(r.heavy.status).toBe(200)
    expect(r.heavy.json.__ENTITIES.map((e: { name: string }) => e.name)).toEqual([
      'Fast',
      'Item6',
      'Made',
    ])
    expect(await nameOf(5)).toBe('Fast')
    expect(await count()).toBe(before + 1)
  })

  it('a function saving in its transaction: a read by key beside it sees the committed item', async () => {
    const before = await count()
    const r = await beside(
      () => guest.post('$catalog/saveInTransaction', [11, 'Renamed', 12, LONG]),
      11,
    )
    metOpen(r, 'Item11')
    expect(r.heavy.json.result).toBe('Renamed made')
    expect(await nameOf(11)).toBe('Renamed')
    expect(await count()).toBe(before + 1)
  })

  it('an $atomic batch meeting an endless event: 9410, nothing saved, nothing left locked', async () => {
    const before = await count()
    const r = await beside(
      () =>
        guest.post('Item?$method=update&$atomic=true', [
          { __KEY: 7, name: 'Never' },
          { name: 'Gone' },
          { __KEY: 8, pause: -1 },
        ]),
      7,
    )
    metOpen(r, 'Item7')
    expect(errCodes(r.heavy.json)[0]).toBe(9410)
    expect(errCodes(r.heavy.json)).toContain(9041)
    expect(await nameOf(7)).toBe('Item7')
    expect(await count()).toBe(before)
    const after = await other.post('Item?$method=update', { __KEY: 7, name: 'Free' })
    expect(after.status).toBe(200)
    expect(await nameOf(7)).toBe('Free')
  })

  it('a function whose transaction meets an endless event: 9410, nothing saved, nothing locked', async () => {
    const before = await count()
    const r = await beside(
      () => guest.post('$catalog/saveInTransaction', [13, 'Never', 14, -1]),
      13,
    )
    metOpen(r, 'Item13')
    expect(errCodes(r.heavy.json)[0]).toBe(9410)
    expect(await nameOf(13)).toBe('Item13')
    expect(await count()).toBe(before)
    const after = await other.post('Item?$method=update', { __KEY: 13, name: 'Free' })
    expect(after.status).toBe(200)
  })

  it('an $atomic delete whose dataclass runs code goes in turns, all or nothing', async () => {
    const before = await count()
    const refused = await guest.post('Item?$method=delete&$atomic=true', [
      { __KEY: 20 },
      { __KEY: 999 },
    ])
    expect(errCodes(refused.json)).toEqual(expect.arrayContaining([1542, 9041]))
    expect(await count()).toBe(before)
    const dropped = await guest.post('Item?$method=delete&$atomic=true', [
      { __KEY: 20 },
      { __KEY: 21 },
    ])
    expect(dropped.json).toEqual({ ok: true })
    expect(await count()).toBe(before - 2)
  })
})
