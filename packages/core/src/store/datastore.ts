/**
 * @module The datastore: the dataclasses of a model, their tables, the global stamp, the clock and
 * the session store.
 *
 * Invariant: data changes only in `commit`, which applies a fully validated list of changes and
 * cannot fail half-way. Loading, saves, deletes and atomic batches all end there, so stamps, the
 * global stamp and (with the query engine) indexes always move together.
 */
import { systemClock, type Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import type { CalculatedFn, SchemaDef } from '../schema/definitions.js'
import { BuiltModel, type CalculatedFunctions } from '../schema/model-builder.js'
import { loadModel, type LoadModelOptions } from '../schema/load-model.js'
import type { ModelJson } from '../schema/model-json.js'
import { SessionStore, type SessionStoreOptions } from '../sessions/session-store.js'
import type { Change } from './changes.js'
import { DataClass } from './data-class.js'
import { prepareDataLoad, type DataFile, type LoadReport } from './load-data.js'
import { Table } from './table.js'

export interface DatastoreOptions extends LoadModelOptions {
  /** Where time comes from. @default the system clock */
  readonly clock?: Clock
  /** Generates ids for uuid keys. @default crypto.randomUUID */
  readonly newUuid?: () => string
  /** Initial data, `{ "<DataClass>": [ {...}, ... ] }`. */
  readonly data?: DataFile
  readonly sessions?: SessionStoreOptions
}

const BULK_THRESHOLD = 1000

/** Something that observes every commit (indexes, journals, entity-set caches). */
export type CommitListener = (changes: readonly Change[]) => void

export class Datastore {
  readonly schema: SchemaDef
  readonly clock: Clock
  readonly sessions: SessionStore
  /** @internal */
  readonly newUuid: () => string
  readonly #classes = new Map<string, DataClass>()
  readonly #listeners: CommitListener[] = []
  #globalStamp = 0

  constructor(schema: SchemaDef, options: Omit<DatastoreOptions, keyof LoadModelOptions> = {}) {
    this.schema = schema
    this.clock = options.clock ?? systemClock
    this.newUuid = options.newUuid ?? (() => globalThis.crypto.randomUUID())
    this.sessions = new SessionStore(this.clock, options.sessions)
    for (const def of schema.dataClasses)
      this.#classes.set(def.name, new DataClass(this, new Table(def)))
    if (options.data !== undefined) this.loadData(options.data)
  }

  /** The application name (`__NAME` in the catalog). */
  get name(): string {
    return this.schema.name
  }

  /** Every dataclass of the model, exposed or not, in model order. */
  get dataClasses(): readonly DataClass[] {
    return [...this.#classes.values()]
  }

  /** The dataclass called `name` (case-sensitive); throws DataClassNotFound (1800) if there is none. */
  dataClass(name: string): DataClass {
    return this.#classes.get(name) ?? fail('DataClassNotFound', [name])
  }

  /** The dataclass called `name`, or undefined. */
  findDataClass(name: string): DataClass | undefined {
    return this.#classes.get(name)
  }

  /** The server-wide modification stamp: +1 for every entity saved or deleted since the start. */
  get globalStamp(): number {
    return this.#globalStamp
  }

  /**
   * Loads `{ "<DataClass>": [ {...}, ... ] }`. All rows are checked first; one bad value rejects the
   * whole file with an InvalidData (or 1570/1541/1545) error naming the dataclass, row and attribute,
   * and nothing is loaded. Loading does not move the global stamp (it is not a modification).
   */
  loadData(data: DataFile): LoadReport {
    const { changes, report } = prepareDataLoad(this, data)
    this.commit(changes, { countsAsModification: false })
    return report
  }

  /** Registers a commit observer; returns the function that removes it. */
  onCommit(listener: CommitListener): () => void {
    this.#listeners.push(listener)
    return () => {
      const i = this.#listeners.indexOf(listener)
      if (i >= 0) this.#listeners.splice(i, 1)
    }
  }

  /**
   * @internal The single place where data changes. `changes` must be fully validated: applying
   * them cannot fail, so a batch is all or nothing.
   */
  commit(changes: readonly Change[], options: { countsAsModification?: boolean } = {}): void {
    // Large batches (data loads) rebuild sorted indexes once at the end instead of row by row.
    const bulk = new Set<Table>()
    if (changes.length >= BULK_THRESHOLD) {
      for (const c of changes) bulk.add(c.table)
      for (const t of bulk) t.indexes.beginBulk()
    }
    for (const change of changes) {
      switch (change.op) {
        case 'insert':
          change.table.insert(change.record)
          for (const attr of change.table.def.storage) {
            const v = change.record.values[attr.name]
            if (attr.autosequence && typeof v === 'number') change.table.noteSequence(attr.name, v)
          }
          break
        case 'update':
          change.table.replace(change.after)
          break
        case 'delete':
          change.table.delete(change.before.rowId)
          break
      }
    }
    for (const t of bulk) t.indexes.endBulk(t.records())
    if (options.countsAsModification ?? true) this.#globalStamp += changes.length
    for (const listener of this.#listeners) listener(changes)
  }
}

/** A Datastore with one property per dataclass: `ds.Employee`. */
export type DatastoreWith<Names extends string> = Datastore & { readonly [N in Names]: DataClass }

const RESERVED = new Set(Object.getOwnPropertyNames(Datastore.prototype))

/**
 * Builds a datastore from a model in the catalog shape (`GET /rest/$catalog/$all`), optionally
 * with data. Each dataclass is also reachable as a property, `ds.Employee`, unless its name is one
 * of the Datastore's own members (use `ds.dataClass(name)` then).
 *
 * @example
 * const ds = createDatastore(model, { data, clock: new ManualClock() })
 * ds.dataClass('Employee').get(3)?.get('lastName')
 * @throws DatastoreError InvalidModel (9020) for a bad model; InvalidData (9021), 1570, 1541, 1545 for bad data.
 */
export function createDatastore<Names extends string = string>(
  model: ModelJson | SchemaDef | BuiltModel<Names>,
  options: DatastoreOptions = {},
): DatastoreWith<Names> {
  const ds = new Datastore(toSchema(model, options), options)
  for (const dc of ds.dataClasses) {
    if (RESERVED.has(dc.name) || dc.name in ds) continue
    Object.defineProperty(ds, dc.name, { value: dc, enumerable: true })
  }
  return ds as DatastoreWith<Names>
}

function toSchema(
  model: ModelJson | SchemaDef | BuiltModel<string>,
  options: LoadModelOptions,
): SchemaDef {
  if (isSchema(model)) return model
  if (model instanceof BuiltModel) {
    return loadModel(model.toJSON(), {
      ...options,
      calculated: mergeCalculated(model.calculated, options.calculated),
    })
  }
  return loadModel(model, options)
}

function mergeCalculated(
  a: CalculatedFunctions,
  b: CalculatedFunctions | undefined,
): CalculatedFunctions {
  if (!b) return a
  const out: Record<string, Readonly<Record<string, CalculatedFn>>> = { ...a }
  for (const [dc, fns] of Object.entries(b)) out[dc] = { ...out[dc], ...fns }
  return out
}

function isSchema(x: unknown): x is SchemaDef {
  return typeof x === 'object' && x !== null && (x as SchemaDef).byName instanceof Map
}
