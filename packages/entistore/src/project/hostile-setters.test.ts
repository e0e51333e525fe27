/**
 * Issue 78's attacks through a computed attribute's setter (`Function set label` of the hostile
 * project's TaskEntity, which loops 10 million passes for a label that starts with "heavy" and
 * never ends for one that starts with "endless"), over REST: a write of it (`$method=update`, one
 * entity, an `$atomic` batch) and a function's code that assigns it (`relabel`) run the
 * setter in steps: a read by key of another client, sent after the heavy request, is answered
 * first, and the right title is saved; an endless setter ends the request with the budget's 9410,
 * nothing of it saved.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  besideClients,
  errCodes,
  HOSTILE,
  served,
  type Client,
  type Reply,
} from './four-d-rest.fixture.js'

const EMPLOYEES = 20
const TASKS = 8

describe('a computed attribute’s setter that loops, written beside another client', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE, { seed: EMPLOYEES, seedTasks: TASKS }))
  })

  // The heavy request, and a read by key of employee `n` sent once it started: both replies, and
  // the read answered first (the heavy one ran in slices).
  async function beside(heavy: () => Promise<Reply>, n: number): Promise<Reply> {
    const both = await answeredBeside(heavy, () => other.get(`Employee(${n})`))
    expect(both.order).toEqual(['light', 'heavy'])
    expect(both.light.json.lastname).toBe(`Last${n}`)
    return both.heavy
  }

  // Tasks 1 and 2 are left alone: their getters loop (heavy, endless) in any reply of them.
  const task = async (id: number) => (await other.get(`Task(${id})?$attributes=title`)).json
  const update = (body: unknown, query = '') => guest.post(`Task?$method=update${query}`, body)

  it('answers a read by key beside an update whose setter loops long: its title saved', async () => {
    const saved = await beside(() => update({ __KEY: '3', label: 'heavy one' }), 3)
    expect(saved.status, JSON.stringify(saved.json)).toBe(200)
    expect([saved.json.title, saved.json.label, saved.json.__STAMP]).toEqual([
      'heavy one',
      'heavy one',
      2,
    ])
    expect((await task(3)).title).toBe('heavy one')
  })

  it('ends an update whose setter never ends with 9410, the others served: nothing saved', async () => {
    const before = await task(4)
    const refused = await beside(() => update({ __KEY: '4', label: 'endless' }), 5)
    expect(errCodes(refused.json)[0], JSON.stringify(refused.json)).toBe(9410)
    const after = await task(4)
    expect([after.title, after.__STAMP]).toEqual([before.title, before.__STAMP])
    // Nothing left locked: the next write of it is saved.
    expect((await update({ __KEY: '4', label: 'free' })).json.title).toBe('free')
  })

  it('cancels an $atomic batch whose second setter never ends: the first item not saved either', async () => {
    const before = [await task(5), await task(6)]
    const refused = await beside(
      () =>
        update(
          [
            { __KEY: '5', label: 'renamed' },
            { __KEY: '6', label: 'endless' },
          ],
          '&$atomic=true',
        ),
      6,
    )
    expect(errCodes(refused.json)[0], JSON.stringify(refused.json)).toBe(9410)
    const after = [await task(5), await task(6)]
    expect(after.map((t) => [t.title, t.__STAMP])).toEqual(before.map((t) => [t.title, t.__STAMP]))
  })

  it('answers a read by key beside an $atomic batch whose setter loops long: all saved', async () => {
    const saved = await beside(
      () =>
        update(
          [
            { __KEY: '5', label: 'plain' },
            { __KEY: '6', label: 'heavy six' },
          ],
          '&$atomic=true',
        ),
      7,
    )
    expect(saved.status, JSON.stringify(saved.json)).toBe(200)
    expect([(await task(5)).title, (await task(6)).title]).toEqual(['plain', 'heavy six'])
  })

  // A create has no entity for the setter's `This` to come from: the setter finds its datastore
  // as the write's (core's writing.ts), in a request of a project without roles (no actor).
  it('creates an entity through its setter, plain and beside another client when it loops long', async () => {
    const plain = await update({ label: 'made' })
    expect([plain.status, plain.json.title], JSON.stringify(plain.json)).toEqual([200, 'made'])
    const made = await beside(() => update({ label: 'heavy made' }), 10)
    expect([made.status, made.json.title], JSON.stringify(made.json)).toEqual([200, 'heavy made'])
    expect((await task(Number(made.json.__KEY))).title).toBe('heavy made')
    const refused = await beside(() => update({ label: 'endless made' }), 11)
    expect(errCodes(refused.json)[0], JSON.stringify(refused.json)).toBe(9410)
    const count = async () => (await other.get('Task?$top=0')).json.__COUNT
    expect(await count()).toBe(TASKS + 2)
  })

  // 4D code's `$task.label:=…` (4d's orda/attribute-steps.ts `setAhead`): the setter's steps.
  it('answers a read by key beside a function assigning a setter that loops long', async () => {
    const called = await beside(() => guest.post('$catalog/relabel', [7, 'heavy seven']), 8)
    expect(called.status, JSON.stringify(called.json)).toBe(200)
    expect(called.json.result).toBe('heavy seven')
    expect((await task(7)).title).toBe('heavy seven')
  })

  it('ends a function assigning a setter that never ends with 9410, the others served: nothing saved', async () => {
    const before = await task(8)
    const refused = await beside(() => guest.post('$catalog/relabel', [8, 'endless eight']), 9)
    expect(errCodes(refused.json)[0], JSON.stringify(refused.json)).toBe(9410)
    const after = await task(8)
    expect([after.title, after.__STAMP]).toEqual([before.title, before.__STAMP])
  })
})
