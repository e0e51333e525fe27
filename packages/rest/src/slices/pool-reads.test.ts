/**
 * Issue 65: the engine's data-sized loops on a worker pool, through the REST handler. The pool is
 * a stand-in run by the test (the real one, worker threads, is the entistore package's
 * `createWorkerPool`): it runs core's own kernels part by part when the test says, asking the
 * run's `wanted()` before each part as the real one does. Turns are run by the test and counted.
 * Proven: the read parks while the pool works and a GET by key is answered meanwhile; writes
 * landing between two parts leave the answer one version (the data when the reply is made); a
 * client gone stops the parts not started; the answers equal the same reads in one piece: a
 * scan, an ordering's first rows, a sum, `$distinct`, the algebra of two entity sets.
 */
import { createDatastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { isPending, type RestReply, type RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { flush, get, json, runTurns, settled } from './manual-turns.fixture.js'
import { HandPool } from '../../../core/src/parallel/hand-pool.fixture.js'

const N = 40_000

function fixture(rows = N) {
  const pool = new HandPool(2, 1000)
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
      ],
    },
    { parallel: pool },
  )
  ds.loadData({
    Item: Array.from({ length: rows }, (_, i) => ({ ID: i + 1, salary: (i * 37) % 10_000 })),
  })
  const turns: (() => void)[] = []
  const handler = createRestHandler(ds, { sliceMs: 0, nextTurn: (fn) => turns.push(fn) })
  // The same reads in one piece, on this thread (no scope: the pool is never asked).
  const whole = createRestHandler(ds, { sliceMs: Infinity })
  const read = (query: string, extra: Partial<RestRequest> = {}, path = 'Item') => {
    const reply = handler.respond(get(path, query, extra))
    expect(isPending(reply)).toBe(true)
    return settled(reply as Promise<RestReply>)
  }
  const inOnePiece = (query: string, path = 'Item') =>
    json(whole.respond(get(path, query)) as RestReply)
  /** Every part of the last run, then the turns until `r` answers. */
  const finish = async (r: { done: boolean }) => {
    const run = pool.started.at(-1)!
    while (run.done < run.parts.length) run.step()
    await flush()
    return runTurns(turns, () => r.done)
  }
  /**
   * Each run's parts and the turns, one after the other, until `r` answers (runs after runs).
   * Idle, it lets real timers fire a few times (a build of the key order waited for in slices).
   */
  const drive = async (r: { done: boolean }) => {
    let idle = 0
    while (!r.done) {
      const run = pool.started.at(-1)
      if (run !== undefined && run.done < run.parts.length) {
        run.step()
        idle = 0
      } else if (turns.length > 0) {
        turns.shift()!()
        idle = 0
      } else if (++idle > 100) throw new Error('the read waits for nothing the test can run')
      else await new Promise((resolve) => setTimeout(resolve, 1))
      await flush()
    }
  }
  return { ds, pool, handler, turns, read, inOnePiece, finish, drive }
}

const SCAN = '$filter="salary>9990"'
const TOP = '$orderby=salary desc&$top=5'

describe('reads on a worker pool', () => {
  it('a scan parks on the pool, a GET by key is answered meanwhile, then the same answer as in one piece', async () => {
    const { pool, handler, turns, read, inOnePiece, finish } = fixture()
    // The first read makes the column in slices first (columnSteps), then parks on the pool.
    const scan = read(SCAN, { remoteAddress: 'a' })
    await runTurns(turns, () => pool.started.length > 0)
    expect(pool.started[0]!.kernel).toBe('compareNumbers')
    expect(pool.started[0]!.parts.length).toBeGreaterThan(1)
    expect(turns.length).toBe(0)
    const cheap = handler.respond(get('Item(3)', '', { remoteAddress: 'b' }))
    expect(isPending(cheap)).toBe(false)
    expect(json(cheap as RestReply).ID).toBe(3)
    expect(await finish(scan)).toBe(1)
    expect(json(scan.value!)).toEqual(inOnePiece(SCAN))
    expect(json(scan.value!).__COUNT).toBe(36)
  })

  it('writes between two parts: the answer is the data when the reply is made', async () => {
    const { ds, pool, turns, read, inOnePiece, finish } = fixture()
    const scan = read(SCAN)
    await runTurns(turns, () => pool.started.length > 0)
    const run = pool.started[0]!
    // The first part is read; then rows of it and of later parts change, and one is added.
    expect(run.parts.length).toBeGreaterThan(1)
    const firstMatch = (inOnePiece(SCAN).__ENTITIES as { ID: number }[])[0]!.ID
    run.step()
    const Item = ds.dataClass('Item')
    Item.update(1, { salary: 9999 }) // in the part read: now matches
    Item.update(firstMatch, { salary: 0 }) // matched when read: no more
    Item.update(N, { salary: 9995 }) // in a part not read yet
    Item.create({ ID: N + 1, salary: 9998 })
    await finish(scan)
    expect(json(scan.value!)).toEqual(inOnePiece(SCAN))
    const ids = (json(scan.value!).__ENTITIES as { ID: number }[]).map((e) => e.ID)
    expect(ids).toEqual(expect.arrayContaining([1, N, N + 1]))
    expect(ids).not.toContain(firstMatch)
  })

  it('an ordering’s first rows and a sum over every row run on the pool too, as in one piece', async () => {
    const { pool, turns, read, inOnePiece, finish } = fixture()
    for (const [query, path, kernel] of [
      [TOP, 'Item', 'topNumbers'],
      ['$compute=sum', 'Item/salary', 'numberStats'],
      ['$distinct=true', 'Item/salary', 'distinctNumbers'],
    ] as const) {
      const r = read(query, {}, path)
      await runTurns(turns, () => pool.started.length > 0 && pool.started.at(-1)!.kernel === kernel)
      await finish(r)
      expect(r.value!.status).toBe(200)
      expect(json(r.value!)).toEqual(inOnePiece(query, path))
    }
  })

  it('an ordering of most rows is sorted on the pool, its parts then their merge, as in one piece', async () => {
    // 100,000 rows (keys in shared memory from 65,536 on), a tenth of them tied on each salary:
    // the ties must stay in row-id order, as the sort here keeps them.
    const { ds, pool, turns, read, inOnePiece, drive } = fixture(100_000)
    // The key's index of 100,000 rows is built first, as serve does: in slices on real timers, its
    // sort on the pool, run here.
    let built = false
    void ds.indexesReady('Item').then(() => (built = true))
    while (!built) {
      const run = pool.started.at(-1)
      if (run !== undefined && run.done < run.parts.length) run.step()
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
    for (const query of [
      '$orderby=salary desc&$top=30000&$attributes=ID',
      '$orderby=salary&$top=30000&$attributes=ID',
    ]) {
      pool.started.length = 0
      const r = read(query)
      await runTurns(turns, () => pool.started.length > 0)
      await drive(r)
      expect(pool.started.map((run) => run.kernel)).toEqual(['sortNumbersPart', 'mergeSortedParts'])
      expect(r.value!.status).toBe(200)
      expect(json(r.value!)).toEqual(inOnePiece(query))
    }
  })

  it('$distinct with writes between two parts: run again, the values when the reply is made', async () => {
    const { ds, pool, turns, read, inOnePiece, drive } = fixture()
    const query = '$distinct=true'
    const r = read(query, {}, 'Item/salary')
    await runTurns(turns, () => pool.started.length > 0)
    const first = pool.started[0]!
    expect(first.kernel).toBe('distinctNumbers')
    first.step()
    const Item = ds.dataClass('Item')
    Item.update(N, { salary: 123_456 }) // a value no row had, in a part not read yet
    Item.update(1, { salary: -7 }) // and one in the part read
    // It is run again, once: the second run began after the writes, so its answer is kept (a
    // count of commits since the scope's first stop, not the changes seen since, decides).
    await drive(r)
    expect(pool.started.length).toBe(2)
    const values = json(r.value!) as unknown as number[]
    expect(values).toEqual(inOnePiece(query, 'Item/salary'))
    expect(values.slice(0, 2)).toEqual([-7, 0])
    expect(values.at(-1)).toBe(123_456)
  })

  it('the algebra of two large entity sets runs on the pool, as in one piece', async () => {
    // Lists of 65,536 row ids and more: made in shared memory, so the pool may read them.
    const { ds, pool, read, inOnePiece, drive } = fixture(100_000)
    const Item = ds.dataClass('Item')
    const keep = (filter: string) => Item.query(filter).keep().id
    const a = keep('salary > 2000')
    const b = keep('salary < 9000')
    for (const op of ['AND', 'OR', 'EXCEPT', 'INTERSECT']) {
      const query = `$logicOperator=${op}&$otherCollection=${b}&$top=5`
      const path = `Item/$entityset/${a}`
      const before = pool.started.length
      const r = read(query, {}, path)
      await drive(r)
      expect(r.value!.status).toBe(200)
      expect(json(r.value!)).toEqual(inOnePiece(query, path))
      // The bounds and the bitmap of one set, the other's members kept or not.
      expect(pool.started.slice(before).map((run) => run.kernel)).toEqual([
        'rowIdBounds',
        'markRows',
        op === 'INTERSECT' ? 'anyMarked' : 'keepRows',
      ])
    }
  })

  it('a client gone: the parts not started never start, and the read ends with 9145', async () => {
    const { pool, turns, read } = fixture()
    let closed = false
    const scan = read(SCAN, { closed: () => closed })
    await runTurns(turns, () => pool.started.length > 0)
    const run = pool.started[0]!
    run.step()
    closed = true
    run.step()
    expect(pool.cancels).toBe(1)
    expect(run.done).toBe(1)
    await flush()
    await runTurns(turns, () => scan.done)
    expect(json(scan.value!).__ERROR).toEqual([expect.objectContaining({ errCode: 9145 })])
    expect(turns.length).toBe(0)
  })
})
