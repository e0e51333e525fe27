/**
 * Property test of 4D's transactions across awaits (fc.commands, fc.asyncModelRun): two processes
 * (each a `ds.actAs` of its own session, kept alive between commands, so that each command runs in
 * its async context after an await) interleave starts, validations and cancellations of nested
 * transactions with creates, updates, drops and reads, checked step by step against a plain model:
 *
 * - atomicity: the committed data is exactly the model's, whatever was cancelled or failed, and a
 *   level's writes reach it only when the first level validates;
 * - isolation: a process reads its own staged writes, never the other's: by key, and through
 *   queries (an index's, a scan's, the quick lane of one equality), `all()`, an order, a
 *   selection's members and aggregates, which find what it created, decide by the values it saved
 *   and leave out what it dropped, at every level, until a cancel takes them out;
 * - locks: what a transaction updated or deleted is refused to the other process (9070) until it
 *   ends; every refusal is the one the model predicts (1542, 1545, 9070, 9071).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore, type Datastore } from './datastore.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'long', indexed: true },
        { name: 'label', type: 'string' },
        { name: 'tags', kind: 'relatedEntities', path: 'item' },
      ],
    },
    {
      name: 'Tag',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'item', kind: 'relatedEntity', path: 'Item' },
      ],
    },
  ],
}
/** Tags of the initial items (never written): tag key → item key. */
const TAGS: [number, number][] = [
  [1, 1],
  [2, 2],
  [3, 3],
  [4, 3],
]
const INITIAL = [1, 2, 3]
/** Keys a create may take: the initial ones (refused while committed) and new ones. */
const KEYS = [1, 2, 3, 10, 11, 12]

/** What a process's transaction wrote at one level: key → value, null for a drop. */
interface Level {
  readonly writes: Map<number, number | null>
  /** Keys its creates claimed (a create of them again is refused until a cancel gives them back). */
  readonly claims: Set<number>
  /** Keys it created: the first level's validation fails if another process committed one since. */
  readonly created: Set<number>
}

interface Proc {
  levels: Level[]
  /** What its transaction locked (updated or deleted): held until the first level ends. */
  locks: Set<number>
}

interface Model {
  committed: Map<number, number>
  procs: [Proc, Proc]
}

/** A process's async context: commands run inside it, one at a time, after an await. */
interface Worker {
  run<T>(fn: () => T): Promise<T>
  stop(): Promise<void>
}

function spawn(ds: Datastore): Worker {
  const queue: { fn: () => unknown; done: (v: { value?: unknown; error?: unknown }) => void }[] = []
  let wake: (() => void) | undefined
  let stopped = false
  const loop = ds.actAs(ds.sessions.open(), async () => {
    for (;;) {
      while (queue.length === 0 && !stopped) await new Promise<void>((r) => (wake = r))
      const job = queue.shift()
      if (job === undefined) return
      try {
        job.done({ value: job.fn() })
      } catch (error) {
        job.done({ error })
      }
    }
  })
  return {
    run: <T>(fn: () => T) =>
      new Promise<T>((resolve, reject) => {
        queue.push({
          fn,
          done: (r) => ('error' in r ? reject(r.error) : resolve(r.value as T)),
        })
        wake?.()
      }),
    stop: async () => {
      stopped = true
      wake?.()
      await loop
    },
  }
}

interface Real {
  readonly ds: Datastore
  readonly workers: [Worker, Worker]
}

const view = (m: Model, p: Proc, key: number): number | undefined => {
  for (let i = p.levels.length - 1; i >= 0; i--) {
    const w = p.levels[i]!.writes
    if (w.has(key)) return w.get(key) ?? undefined
  }
  return m.committed.get(key)
}

const other = (m: Model, p: number): Proc => m.procs[1 - p]!

/** Runs `fn` in process `p`; its error's code, or undefined when it succeeded. */
async function attempt(
  r: Real,
  p: number,
  fn: (ds: Datastore) => unknown,
): Promise<number | undefined> {
  try {
    await r.workers[p]!.run(() => fn(r.ds))
    return undefined
  } catch (error) {
    if (!DatastoreError.is(error)) throw error
    return error.errCode
  }
}

/** The committed data, read from the main process (no transaction of its own). */
function committed(ds: Datastore): Map<number, number> {
  return new Map(
    ds
      .dataClass('Item')
      .all()
      .toCollection('ID, n')
      .map((e) => [e.ID as number, e.n as number]),
  )
}

type Cmd = fc.AsyncCommand<Model, Real>

const checkCommitted = (m: Model, r: Real): void =>
  expect([...committed(r.ds)].sort(([a], [b]) => a - b)).toEqual(
    [...m.committed].sort(([a], [b]) => a - b),
  )

class Start implements Cmd {
  constructor(readonly p: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    await r.workers[this.p]!.run(() => r.ds.startTransaction())
    m.procs[this.p]!.levels.push({ writes: new Map(), claims: new Set(), created: new Set() })
    expect(await r.workers[this.p]!.run(() => r.ds.transactionLevel())).toBe(
      m.procs[this.p]!.levels.length,
    )
  }
  toString = () => `start(${this.p})`
}

class Validate implements Cmd {
  constructor(readonly p: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const proc = m.procs[this.p]!
    const top = proc.levels.pop()
    let expected: number | undefined
    if (top !== undefined && proc.levels.length > 0) {
      // Into the level below.
      const below = proc.levels[proc.levels.length - 1]!
      for (const [k, v] of top.writes) below.writes.set(k, v)
      for (const k of top.claims) below.claims.add(k)
      for (const k of top.created) below.created.add(k)
    } else if (top !== undefined) {
      // A key it created and dropped again is no write of its own: another process may have
      // committed that key since, and keeps it (the model once counted it a conflict).
      const conflict = [...top.created].some(
        (k) => top.writes.get(k) !== null && m.committed.has(k),
      )
      if (conflict) expected = 9071
      else
        for (const [k, v] of top.writes)
          if (v !== null) m.committed.set(k, v)
          else if (!top.created.has(k)) m.committed.delete(k)
      proc.locks.clear()
    }
    expect(await attempt(r, this.p, (ds) => ds.validateTransaction())).toBe(expected)
    checkCommitted(m, r)
  }
  toString = () => `validate(${this.p})`
}

class Cancel implements Cmd {
  constructor(readonly p: number) {}
  check = () => true
  async run(m: Model, r: Real) {
    const proc = m.procs[this.p]!
    proc.levels.pop()
    if (proc.levels.length === 0) proc.locks.clear()
    await r.workers[this.p]!.run(() => r.ds.cancelTransaction())
    checkCommitted(m, r)
  }
  toString = () => `cancel(${this.p})`
}

class Write implements Cmd {
  constructor(
    readonly p: number,
    readonly op: 'create' | 'update' | 'drop',
    readonly key: number,
    readonly n: number,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const proc = m.procs[this.p]!
    const top = proc.levels[proc.levels.length - 1]
    const seen = view(m, proc, this.key)
    let expected: number | undefined
    if (this.op === 'create') {
      const claimed = proc.levels.some((l) => l.claims.has(this.key))
      if (m.committed.has(this.key) || claimed) expected = 1545
    } else if (seen === undefined) expected = 1542
    else if (other(m, this.p).locks.has(this.key)) expected = 9070
    const code = await attempt(r, this.p, (ds) => {
      const Item = ds.dataClass('Item')
      if (this.op === 'create') Item.create({ ID: this.key, n: this.n })
      else if (this.op === 'update') Item.update(this.key, { n: this.n })
      else Item.drop(this.key)
    })
    expect(code).toBe(expected)
    if (expected === undefined) {
      const value = this.op === 'drop' ? null : this.n
      if (top === undefined) {
        if (value === null) m.committed.delete(this.key)
        else m.committed.set(this.key, value)
      } else {
        top.writes.set(this.key, value)
        if (this.op === 'create') {
          top.claims.add(this.key)
          top.created.add(this.key)
        } else proc.locks.add(this.key)
      }
    }
    checkCommitted(m, r)
  }
  toString = () => `${this.op}(${this.p}, ${this.key}${this.op === 'drop' ? '' : `, ${this.n}`})`
}

/** The entities process `p` sees (its levels' writes over the committed data): key → n, by key. */
function seen(m: Model, p: Proc): [number, number][] {
  const keys = new Set(m.committed.keys())
  for (const level of p.levels) for (const k of level.writes.keys()) keys.add(k)
  const out: [number, number][] = []
  for (const k of keys) {
    const n = view(m, p, k)
    if (n !== undefined) out.push([k, n])
  }
  return out.sort(([a], [b]) => a - b)
}

/** Reads of many entities in process `p`: queries, all(), an order, members and aggregates. */
class Query implements Cmd {
  constructor(
    readonly p: number,
    readonly min: number,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const rows = seen(m, m.procs[this.p]!)
    const above = rows.filter(([, n]) => n > this.min)
    const got = await r.workers[this.p]!.run(() => {
      const Item = r.ds.dataClass('Item')
      const keys = (sel: Iterable<{ key: unknown }>) => [...sel].map((e) => e.key)
      const indexed = Item.query('n > :1', this.min)
      const ordered = Item.query('n > :1 order by n desc', this.min)
      return {
        indexed: keys(indexed),
        scanned: keys(Item.query('label = null and n > :1', this.min)),
        equal: keys(Item.query('n = :1', this.min)),
        first: Item.findOne('n = :1', this.min)?.key ?? null,
        all: keys(Item.all()),
        ordered: ordered.toCollection('n').map((e) => e.n),
        length: indexed.length,
        sum: indexed.sum('n'),
        members: Item.all()
          .members()
          .map((e) => e?.get('n') ?? null),
        // Through relations: a join into the items, a join back from the tags.
        tagged: keys(r.ds.dataClass('Tag').query('item.n > :1', this.min)),
        withTags: keys(Item.query('tags.ID > 0 and n > :1', this.min)),
      }
    })
    const equal = rows.filter(([, n]) => n === this.min).map(([k]) => k)
    expect(got).toEqual({
      indexed: above.map(([k]) => k),
      scanned: above.map(([k]) => k),
      equal,
      first: equal[0] ?? null,
      all: rows.map(([k]) => k),
      ordered: above.map(([, n]) => n).sort((a, b) => b - a),
      length: above.length,
      sum: above.reduce((t, [, n]) => t + n, 0),
      members: rows.map(([, n]) => n),
      tagged: TAGS.filter(([, item]) => above.some(([k]) => k === item)).map(([tag]) => tag),
      withTags: above.filter(([k]) => TAGS.some(([, item]) => item === k)).map(([k]) => k),
    })
  }
  toString = () => `query(${this.p}, n > ${this.min})`
}

class Read implements Cmd {
  constructor(
    readonly p: number,
    readonly key: number,
  ) {}
  check = () => true
  async run(m: Model, r: Real) {
    const got = await r.workers[this.p]!.run(
      () => r.ds.dataClass('Item').get(this.key)?.get('n') ?? null,
    )
    expect(got).toBe(view(m, m.procs[this.p]!, this.key) ?? null)
  }
  toString = () => `read(${this.p}, ${this.key})`
}

const proc = fc.integer({ min: 0, max: 1 })
const key = fc.constantFrom(...KEYS)
const commands = [
  proc.map((p) => new Start(p)),
  proc.map((p) => new Start(p)),
  proc.map((p) => new Validate(p)),
  proc.map((p) => new Cancel(p)),
  fc
    .tuple(proc, fc.constantFrom('create', 'update', 'drop'), key, fc.integer({ min: 1, max: 99 }))
    .map(([p, op, k, n]) => new Write(p, op as 'create' | 'update' | 'drop', k, n)),
  fc
    .tuple(proc, fc.constantFrom('create', 'update', 'drop'), key, fc.integer({ min: 1, max: 99 }))
    .map(([p, op, k, n]) => new Write(p, op as 'create' | 'update' | 'drop', k, n)),
  // Creates of new keys: two processes creating the same one is where validations conflict.
  fc
    .tuple(proc, fc.constantFrom(10, 11), fc.integer({ min: 1, max: 99 }))
    .map(([p, k, n]) => new Write(p, 'create', k, n)),
  fc.tuple(proc, key).map(([p, k]) => new Read(p, k)),
  fc.tuple(proc, fc.integer({ min: 0, max: 99 })).map(([p, min]) => new Query(p, min)),
  fc.tuple(proc, fc.constantFrom(0, 50)).map(([p, min]) => new Query(p, min)),
]

describe('transactions across awaits, two processes, against a plain model (fc.commands)', () => {
  it('keep nested levels atomic, each process isolated, and what a transaction wrote locked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), async (cmds) => {
        const ds = createDatastore(MODEL, {
          data: {
            Item: INITIAL.map((k) => ({ ID: k, n: 0 })),
            Tag: TAGS.map(([ID, item]) => ({ ID, item })),
          },
          clock: new ManualClock(Date.UTC(2026, 0, 1)),
        }) as unknown as Datastore
        const workers: [Worker, Worker] = [spawn(ds), spawn(ds)]
        const model: Model = {
          committed: new Map(INITIAL.map((k) => [k, 0])),
          procs: [
            { levels: [], locks: new Set() },
            { levels: [], locks: new Set() },
          ],
        }
        try {
          await fc.asyncModelRun(() => ({ model, real: { ds, workers } }), cmds)
        } finally {
          await Promise.all(workers.map((w) => w.stop()))
        }
        // Each process ended: an open transaction was cancelled, its locks released.
        checkCommitted(model, { ds, workers })
        expect(ds.locks.size).toBe(0)
        expect(ds.transactionLevel()).toBe(0)
      }),
      { numRuns: 200 },
    )
  })
})
