/**
 * @module Issue 61's oracle: making a view's projected datastore hold what it must for one
 * request (oracle-view.fixture.ts says what): the rows it sees, the deletions it may learn of, the
 * entity sets, and the real datastore's counters. A datastore is taken from the pool
 * (oracle-pool.fixture.ts) and loaded again only when what it must hold changed.
 */
import type { Datastore, DataFile } from '@entistore/core'
import type { RefRoles } from '../../../core/src/roles/roles-reference.fixture.js'
import { DELETED } from './oracle-app.fixture.js'
import { poolStats, projected, type Projected } from './oracle-pool.fixture.js'
import type { OracleSets } from './oracle-sets.fixture.js'
import {
  projectedData,
  projectionOf,
  TABLES,
  type FullRow,
  type FullRows,
  type Projection,
  type Sight,
  type View,
} from './oracle-view.fixture.js'
import { rowName, type Learns } from './oracle-witness.fixture.js'
import { DATACLASSES, type DcName } from './privileges-app.fixture.js'
import type { Who } from './privileges-requests.fixture.js'

/** The real datastore's counters, which a projected one is given. */
export interface Counters {
  readonly stamp: number
  /** The last autosequence key used, per table. */
  readonly sequences: Readonly<Record<string, number>>
  /** The application's counter of values its events make. */
  readonly notes: number
}

/** The counters of `ds` now (`notes`: its application's): what the next change, key and value take. */
export function countersOf(ds: Datastore, notes: number): Counters {
  const sequences: Record<string, number> = {}
  for (const dc of TABLES) sequences[dc] = ds.dataClass(dc).table.peekSequence('ID') - 1
  return { stamp: ds.globalStamp, sequences, notes }
}

let runs = 0

/** The projected datastores of one run. */
export class Projector {
  readonly #ref: RefRoles
  readonly #sets: OracleSets
  readonly #learns: (who: Who) => (row: string) => Learns
  readonly #projections = new Map<string, Projection>()
  /** Tells this run's projected datastores from another run's in the pool. */
  readonly #id = `${++runs}`
  /** Counts the changes of what a projected datastore is loaded from: data, sets, witnesses. */
  version = 0

  constructor(ref: RefRoles, sets: OracleSets, learns: (who: Who) => (row: string) => Learns) {
    this.#ref = ref
    this.#sets = sets
    this.#learns = learns
  }

  /** Makes the projected datastore of `view` hold what it may read of `rows`, counters `at`. */
  async project(view: View, sight: Sight, rows: FullRows, at: Counters, creates: boolean) {
    const projection = this.#projection(view, sight, creates)
    const d = await projected(projection)
    const holds = `${this.#id} ${this.version} ${at.stamp} ${view.who} ${visibleKey(sight)}`
    if (d.holds !== holds) this.#load(d, projection, view, sight, rows)
    d.holds = holds
    // The same next keys, stamps and event values as the real datastore, whose counters move
    // without its data too (a batch rolled back): a creation takes the same key and values.
    const ds = d.app.ds
    for (const dc of [...projection.dataClasses, DELETED] as const)
      ds.dataClass(dc).table.resetSequence('ID', at.sequences[dc]!)
    ds.setGlobalStamp(at.stamp)
    d.notes.next = at.notes
    return { projection, d }
  }

  /** Loads `d` with what `sight` sees of `rows`, the deletions it may learn of, the entity sets. */
  #load(d: Projected, projection: Projection, view: View, sight: Sight, rows: FullRows) {
    const ds = d.app.ds
    ds.restore(d.empty)
    poolStats.loads++
    // The deletions it may learn of (the real datastore may show it fewer: deletedRows).
    const learns = this.#learns(view.who)
    const deleted = (row: FullRow) =>
      sight.dcs.has(row.values.__TableName as DcName) &&
      learns(rowName(String(row.values.__TableName), row.values.__PrimaryKey)) !== 'not'
    const data = projectedData(projection, sight, rows, deleted) as Record<string, unknown[]>
    const ghosts = this.#sets.ghosts(view, sight, rows)
    for (const [dc, k] of ghosts) data[dc]!.push({ ID: k })
    ds.loadData(data as DataFile)
    this.#sets.keepIn(d, view, sight, rows)
    if (ghosts.length > 0) {
      for (const [dc, k] of ghosts) ds.dataClass(dc).get(k)?.dropOrFail()
      ds.dataClass(DELETED).all().drop()
      ds.loadData({
        [DELETED]: projectedData(projection, sight, rows, deleted)[DELETED as never],
      } as unknown as DataFile)
    }
  }

  /** The projection of a view, made once a run for each thing that tells two apart. */
  #projection(view: View, sight: Sight, creates: boolean): Projection {
    const key = [
      [...view.held].sort().join(),
      [...view.own].sort().join(),
      creates,
      sight.deleted,
      [...sight.dcs].join(),
      [...sight.closed].join(),
      ...DATACLASSES.map((dc) => [...sight.attrs[dc]].join()),
    ].join('|')
    let p = this.#projections.get(key)
    if (!p) this.#projections.set(key, (p = projectionOf(this.#ref, view, sight, creates)))
    return p
  }
}

/** The rows a sight's restricts let through, as a key. */
export const visibleKey = (sight: Sight): string =>
  DATACLASSES.map((dc) => (sight.visible[dc] ? [...sight.visible[dc]].join() : '*')).join('|')
