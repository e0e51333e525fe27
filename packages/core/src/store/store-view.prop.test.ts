/**
 * Property tests of views (store-view.ts): for any interleaving of writes, refused writes, data
 * loads (keys out of order, so that the key order needs a sort), restores (of the loaded state and
 * of one taken midway), undone commits (a rewind of row ids) and index changes while views are
 * open — each read a few rows at a time between the writes, as a snapshot writer does — reading
 * a view gives exactly what a full copy taken when it was opened gives: `dumpData` (foreign keys
 * to deleted entities included) and `snapshotRecords`. A view that reads a table whose order needs
 * a sort in row-id order gives the same rows, in another order.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  apply,
  fresh,
  NAMES,
  opArb,
  type Datastore,
  type Op,
} from '../orda/writes/random-writes.fixture.js'
import type { ManualClock } from '../clock/clock.js'
import { snapshotRecords } from './change-log.js'
import type { LogRecord } from './log-record.js'
import type { Change } from './changes.js'
import type { DataSnapshot } from './data-snapshot.js'
import { dumpData, dumpRows, type DataRow } from './dump-data.js'
import { revertCommits, revertPoint } from './revert.js'
import { openStoreView, type StoreView } from './store-view.js'

interface Open {
  readonly view: StoreView
  /** Rows in model order (so that a partly read view is compared with the copy as it goes). */
  readonly sorted: boolean
  readonly mode: 'dump' | 'records'
  readonly expected: unknown[]
  readonly got: unknown[]
  readonly pull: Iterator<unknown>
  done: boolean
}

interface Real {
  readonly ds: Datastore
  readonly clock: ManualClock
  readonly initial: DataSnapshot
  midway: DataSnapshot | undefined
  nextLoadKey: number
  readonly views: Open[]
}

type Model = Record<string, never>

// Rows of the whole store as a flat list: [dataClass, row], in the order the view gives them.
function* allRows(view: StoreView): Generator<unknown> {
  for (const dc of view.schema.dataClasses)
    for (const row of dumpRows(view, dc.name)) yield [dc.name, row]
}

const byKey = (rows: unknown[]) =>
  [...rows].sort((a, b) => {
    const [ca, ra] = a as [string, DataRow]
    const [cb, rb] = b as [string, DataRow]
    return ca !== cb ? (ca < cb ? -1 : 1) : (ra.ID as number) - (rb.ID as number)
  })

// A record's rows, one entry each, so that records cut at other places still compare.
const recordRows = (records: readonly LogRecord[]) => [
  ...records.flatMap((r) => r.changes.map((c) => ['change', c])),
  ['globalStamp', records.at(-1)?.globalStamp],
  ['sequences', records.at(-1)?.sequences],
]

function finish(open: Open): void {
  if (open.done) return
  for (let step = open.pull.next(); !step.done; step = open.pull.next()) open.got.push(step.value)
  open.done = true
  open.view.release()
  const got = open.mode === 'records' ? recordRows(open.got as LogRecord[]) : open.got
  if (open.sorted) expect(got).toEqual(open.expected)
  else expect(byKey(got)).toEqual(byKey(open.expected))
}

class OpenView implements fc.Command<Model, Real> {
  constructor(
    readonly mode: 'dump' | 'records',
    readonly sorted: boolean,
  ) {}
  check = () => true
  run(_: Model, real: Real): void {
    // The full copy, taken now, through views opened and released at once.
    const expected =
      this.mode === 'dump'
        ? Object.entries(dumpData(real.ds)).flatMap(([name, rows]) => rows.map((r) => [name, r]))
        : recordRows([...snapshotRecords(real.ds, 3)])
    const view = openStoreView(real.ds, { sortUpTo: this.sorted ? undefined : 0 })
    const pull = this.mode === 'dump' ? allRows(view) : snapshotRecords(view, 3)
    real.views.push({
      view,
      sorted: this.sorted,
      mode: this.mode,
      expected,
      got: [],
      pull,
      done: false,
    })
  }
  toString = () => `open(${this.mode}, ${this.sorted ? 'sorted' : 'row ids'})`
}

class Read implements fc.Command<Model, Real> {
  constructor(
    readonly which: number,
    readonly count: number,
  ) {}
  check = () => true
  run(_: Model, real: Real): void {
    const open = real.views[this.which % Math.max(1, real.views.length)]
    if (!open || open.done) return
    for (let i = 0; i < this.count; i++) {
      const step = open.pull.next()
      if (step.done) return finish(open)
      open.got.push(step.value)
    }
  }
  toString = () => `read(${this.which}, ${this.count})`
}

class Finish implements fc.Command<Model, Real> {
  constructor(readonly which: number) {}
  check = () => true
  run(_: Model, real: Real): void {
    const open = real.views[this.which % Math.max(1, real.views.length)]
    if (open) finish(open)
  }
  toString = () => `finish(${this.which})`
}

class Write implements fc.Command<Model, Real> {
  constructor(readonly op: Op) {}
  check = () => true
  run(_: Model, real: Real): void {
    apply(real.ds, real.clock, this.op, real.initial)
  }
  toString = () => `write(${JSON.stringify(this.op)})`
}

// A data load of a few rows whose keys go down: the key order then needs a sort.
class Load implements fc.Command<Model, Real> {
  constructor(readonly rows: number) {}
  check = () => true
  run(_: Model, real: Real): void {
    const Item = Array.from({ length: this.rows }, (_, i) => {
      const ID = real.nextLoadKey--
      return { ID, name: NAMES[i % NAMES.length]!, code: `load${ID}`, price: i }
    })
    real.ds.loadData({ Item })
  }
  toString = () => `load(${this.rows})`
}

class Midway implements fc.Command<Model, Real> {
  constructor(readonly take: boolean) {}
  check = () => true
  run(_: Model, real: Real): void {
    if (this.take || !real.midway) real.midway = real.ds.snapshot()
    else real.ds.restore(real.midway)
  }
  toString = () => (this.take ? 'midway.take' : 'midway.restore')
}

// Commits undone (revert.ts): their inserted rows deleted and the row ids rewound.
class Undo implements fc.Command<Model, Real> {
  constructor(readonly ops: Op[]) {}
  check = () => true
  run(_: Model, real: Real): void {
    const point = revertPoint(real.ds.store)
    const commits: Change[][] = []
    const off = real.ds.onCommit((changes, info) => {
      if (info.kind !== 'replay') commits.push([...changes])
    })
    for (const op of this.ops) apply(real.ds, real.clock, op, real.initial)
    off()
    revertCommits(real.ds.store, commits, point)
  }
  toString = () => `undo(${JSON.stringify(this.ops)})`
}

const dataOp = opArb.filter((op) => op.kind !== 'index' && op.kind !== 'restore')

const commands = [
  fc
    .tuple(fc.constantFrom('dump' as const, 'records' as const), fc.boolean())
    .map(([mode, sorted]) => new OpenView(mode, sorted)),
  fc
    .tuple(fc.nat(3), fc.integer({ min: 1, max: 8 }))
    .map(([which, count]) => new Read(which, count)),
  fc.nat(3).map((which) => new Finish(which)),
  opArb.map((op) => new Write(op)),
  opArb.map((op) => new Write(op)),
  opArb.map((op) => new Write(op)),
  fc.integer({ min: 1, max: 4 }).map((rows) => new Load(rows)),
  fc.boolean().map((take) => new Midway(take)),
  fc.array(dataOp, { minLength: 1, maxLength: 3 }).map((ops) => new Undo(ops)),
]

describe('StoreView', () => {
  it('reads as a full copy taken when it was opened, whatever is written meanwhile', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const { ds, clock } = fresh()
        const real: Real = {
          ds,
          clock,
          initial: ds.snapshot(),
          midway: undefined,
          nextLoadKey: 1000,
          views: [],
        }
        fc.modelRun(() => ({ model: {}, real }), cmds)
        for (const open of real.views) finish(open)
      }),
      { numRuns: 300 },
    )
  })

  it('costs nothing once released: writes keep nothing for it', () => {
    const { ds } = fresh()
    const view = openStoreView(ds)
    const items = view.table('Item')
    ds.dataClass('Item').update(1, { price: 99 })
    ds.dataClass('Item').drop(2)
    expect(items.preserved).toBe(2)
    expect(items.rowIdOf(2)).toBe(ds.dataClass('Item').get(1)!.rowId + 1)
    view.release()
    ds.dataClass('Item').update(3, { price: 99 })
    expect(items.preserved).toBe(0)
    expect(items.open).toBe(false)
  })

  it('finds a key a restore took away (a foreign key to it is not dangling in the view)', () => {
    const { ds } = fresh()
    const initial = ds.snapshot()
    const group = ds.dataClass('Group').create({ name: 'G4' })
    ds.dataClass('Item').create({ name: 'x', code: 'x', price: 1, groupID: group.key })
    const expected = dumpData(ds)
    const view = openStoreView(ds)
    ds.restore(initial)
    const dangling: unknown[] = []
    expect(dumpData(view, { onDangling: (d) => dangling.push(d) })).toEqual(expected)
    expect(dangling).toEqual([])
    view.release()
  })
})
