/**
 * Issue 65: a read whose work waits for a worker thread (a park: core's sliceable work yields a
 * promise) leaves its client's line meanwhile, holds no turn and no other request, and goes on
 * once the wait settles. The pool is simulated: the `Vault` dataclass's restrict event runs a
 * sliceable work that parks on a promise the test settles by hand (a pool's run, as the engine's
 * will). Turns are run by the test (`nextTurn`) and counted, never timed.
 */
import {
  createDatastore,
  datastoreError,
  defineFunctions,
  drivingScope,
  sliceable,
  type Work,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { isPending, type RestReply, type RestRequest } from '../exchange.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { flush, get, json, runTurns, settled } from './manual-turns.fixture.js'

const N = 40_000
const LIMIT = 7

/** The simulated pool: each park is a run the test settles, in the order they were asked. */
class Pool {
  readonly runs: { open: () => void; fail: (error: unknown) => void }[] = []
  /** `finally` blocks of the works run (where a real pool's run is cancelled). */
  finallies = 0
  /** Steps (`yield`) each work runs before its park. */
  before = 0
  /** How the last parked work asks whether its request is still wanted. */
  wanted: (() => boolean) | undefined;

  /** The work: `before` steps, then, where a scope drives it, a park; the vault's limit. */
  *work(): Work<number> {
    try {
      for (let i = 0; i < this.before; i++) yield
      const scope = drivingScope()
      if (scope !== undefined) {
        this.wanted = scope.wanted
        yield new Promise<void>((open, fail) => this.runs.push({ open, fail }))
      }
      return LIMIT
    } finally {
      this.finallies++
    }
  }
}

function fixture(options: RestHandlerOptions = {}, clock?: { now: () => number }) {
  const pool = new Pool()
  const functions = defineFunctions({
    dataClasses: {
      Vault: {
        // What a session may see of the vault is worked out on the pool.
        restrict() {
          return this.query(
            'level < :1',
            sliceable('vault limit', () => pool.work()),
          )
        },
      },
    },
  })
  const ds = createDatastore(
    {
      dataClasses: [
        {
          name: 'Item',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'salary', type: 'number' },
          ],
        },
        {
          name: 'Vault',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'level', type: 'long' },
          ],
        },
      ],
    },
    { functions, ...(clock ? { clock } : {}) },
  )
  ds.loadData({
    Item: Array.from({ length: N }, (_, i) => ({ ID: i + 1, salary: (i * 37) % 10_000 })),
    Vault: Array.from({ length: 20 }, (_, i) => ({ ID: i + 1, level: i % 10 })),
  })
  const turns: (() => void)[] = []
  const handler = createRestHandler(ds, {
    sliceMs: 0,
    nextTurn: (fn) => turns.push(fn),
    ...options,
  })
  const whole = createRestHandler(ds, { sliceMs: Infinity })
  const read = (path: string, query: string, extra: Partial<RestRequest> = {}) => {
    const reply = handler.respond(get(path, query, extra))
    expect(isPending(reply)).toBe(true)
    return settled(reply as Promise<RestReply>)
  }
  /** The heavy read alone, once its columns are made (the first read makes them in slices): its turns and reply. */
  const heavyAlone = async () => {
    for (let run = 0; ; run++) {
      const alone = read('Item', HEAVY, { remoteAddress: 'b' })
      const ran = await runTurns(turns, () => alone.done)
      if (run === 1) return { turns: ran, reply: json(alone.value!) }
    }
  }
  return { ds, pool, handler, whole, turns, read, heavyAlone }
}

const VAULT = '$filter="ID>0"&$orderby=ID desc&$top=3'
const HEAVY = '$filter="salary>100"&$orderby=salary desc&$top=2'

describe('a read parked on a worker', () => {
  it('holds no turn while parked: other clients are answered and get their slices, then it answers', async () => {
    const { pool, handler, whole, turns, read, heavyAlone } = fixture()
    const alone = await heavyAlone()

    // Parked at once, in its first run: no turn is even scheduled for it.
    const vault = read('Vault', VAULT, { remoteAddress: 'a' })
    expect(pool.runs.length).toBe(1)
    expect(turns.length).toBe(0)
    // Another client's GET by key is answered at once, its heavy read gets every turn.
    const cheap = handler.respond(get('Item(3)', '', { remoteAddress: 'c' }))
    expect(isPending(cheap)).toBe(false)
    expect(json(cheap as RestReply).ID).toBe(3)
    const heavy = read('Item', HEAVY, { remoteAddress: 'b' })
    const heavyTurns = await runTurns(turns, () => heavy.done)
    expect(heavyTurns).toBe(alone.turns)
    expect(json(heavy.value!)).toEqual(alone.reply)
    // Nothing left to run: no turn spins while the vault read waits.
    await flush()
    expect(turns.length).toBe(0)
    expect(vault.done).toBe(false)

    pool.runs[0]!.open()
    await flush()
    // Back in line: one turn ends its work, and the read runs again to its answer.
    expect(turns.length).toBe(1)
    expect(await runTurns(turns, () => vault.done)).toBe(1)
    expect(json(vault.value!)).toEqual(json(whole.respond(get('Vault', VAULT)) as RestReply))
    expect((json(vault.value!).__ENTITIES as unknown[]).length).toBe(3)
    expect(json(vault.value!).__COUNT).toBe(14)
    expect(pool.finallies).toBe(1)
    expect(turns.length).toBe(0)
  })

  it('leaves its line when it parks after some slices, and comes back to its place in it', async () => {
    const { pool, turns, read, heavyAlone } = fixture()
    const alone = await heavyAlone()
    pool.before = 2
    const vault = read('Vault', VAULT, { remoteAddress: 'a' })
    const heavy = read('Item', HEAVY, { remoteAddress: 'a' })
    // The client's earlier read runs first: its second step, then its park, a slice each.
    expect(await runTurns(turns, () => pool.runs.length > 0)).toBe(2)
    // Out of the line: the client's other read takes the next turns.
    let k = 0
    expect(await runTurns(turns, () => k++ === 2)).toBe(2)
    pool.runs[0]!.open()
    await flush()
    // Back at its place, before the later read: its next turn ends its work, and it answers.
    expect(await runTurns(turns, () => vault.done)).toBe(1)
    expect(json(vault.value!).__COUNT).toBe(14)
    expect(heavy.done).toBe(false)
    // The other read lost no turn to it: its turns are those it takes alone.
    expect(2 + (await runTurns(turns, () => heavy.done))).toBe(alone.turns)
    expect(json(heavy.value!)).toEqual(alone.reply)
    expect(turns.length).toBe(0)
  })

  it('a client gone while parked: its work is closed once the park settles, no slice run for it', async () => {
    const { pool, turns, read } = fixture()
    let closed = false
    const vault = read('Vault', VAULT, { remoteAddress: 'a', closed: () => closed })
    // The pool's run asks between its parts whether the read is still wanted.
    expect(pool.wanted!()).toBe(true)
    closed = true
    expect(pool.wanted!()).toBe(false)
    expect(pool.finallies).toBe(0)
    // A real pool stops its parts and its result rejects: closed either way, before any turn.
    pool.runs[0]!.fail(new Error('the parallel run was cancelled'))
    await flush()
    expect(pool.finallies).toBe(1)
    expect(turns.length).toBe(1)
    // Its one turn finds the client gone: RequestAbandoned, nothing more queued.
    expect(await runTurns(turns, () => vault.done)).toBe(1)
    expect(json(vault.value!).__ERROR).toEqual([expect.objectContaining({ errCode: 9145 })])
    expect(pool.finallies).toBe(1)
    expect(turns.length).toBe(0)
  })

  it('a rejected park is the read’s error (500 for a bug, else its own), and the line goes on', async () => {
    const { pool, turns, read } = fixture()
    const vault = read('Vault', VAULT, { remoteAddress: 'a' })
    const heavy = read('Item', HEAVY, { remoteAddress: 'b' })
    await runTurns(
      turns,
      () => heavy.done,
      () => pool.runs[0]?.fail(new Error('worker crashed')),
    )
    expect(heavy.value!.status).toBe(200)
    expect(vault.value!.status).toBe(500)
    expect(pool.finallies).toBe(1)
    // A datastore error of the work (the pool's kernel ran past the budget): its own code.
    const again = read('Vault', VAULT, { remoteAddress: 'a' })
    pool.runs[1]!.fail(datastoreError('QueryBudgetExceeded', [20]))
    await flush()
    await runTurns(turns, () => again.done)
    expect(again.value!.status).toBe(400)
    expect(json(again.value!).__ERROR).toEqual([expect.objectContaining({ errCode: 9090 })])
    // FairTurns is not wedged: the same client's next read parks, and answers.
    const third = read('Vault', VAULT, { remoteAddress: 'a' })
    pool.runs[2]!.open()
    await flush()
    await runTurns(turns, () => third.done)
    expect(third.value!.status).toBe(200)
    expect(turns.length).toBe(0)
  })

  it('does not count the time it waits parked against the query budget', async () => {
    let now = Date.UTC(2026, 0, 1)
    const { pool, turns, read } = fixture({ queryBudgetMs: 20 }, { now: () => now })
    const vault = read('Vault', VAULT, { remoteAddress: 'a' })
    expect(turns.length).toBe(0)
    // Ten seconds on the pool, twice the read's whole budget.
    now += 10_000
    pool.runs[0]!.open()
    await flush()
    await runTurns(turns, () => vault.done)
    expect(vault.value!.status).toBe(200)
    expect(json(vault.value!).__COUNT).toBe(14)
  })
})
