/**
 * @module The engine's datastore: the dataclasses of a model over a Store (tables, global stamp,
 * the one commit), the session store, the locks, the class functions, the live feed, the index
 * builds, and the ways code acts on it (as a session, on a time budget). `Datastore`
 * (datastore.ts) is this with 4D's DataStore class members: the object users hold.
 */
import { NearestIndexes } from '../../indexes/nearest-index.js'
import type { ParallelPool } from '../../parallel/parallel-pool.js'
import { nearestSourceOf } from '../setup/nearest-source.js'
import { systemClock, type Clock } from '../../clock/clock.js'
import { fail } from '../../errors/datastore-error.js'
import type { SchemaDef } from '../../schema/definitions.js'
import type { LoadModelOptions } from '../../schema/load-model.js'
import type { DataClassName, ModelTypes, UntypedModel } from '../../schema/typed-model.js'
import { SessionStore } from '../../sessions/session-store.js'
import type { SessionStoreApi } from '../../sessions/session-api.js'
import type { LockOwner, LockTable } from '../../locks/lock-table.js'
import type { Change } from '../../store/changes.js'
import type { DataFile, LoadOptions, LoadReport } from '../../store/load-data.js'
import type { DataLoader } from '../../store/store.js'
import {
  Store,
  type CommitListener,
  type CommitListenerOptions,
  type CommitOptions,
} from '../../store/store.js'
import { outsideBudget, withBudget } from '../../query/budget.js'
import type { SliceScope } from '../../query/slices.js'
import type { IndexBuildOptions } from '../../indexes/index-builder.js'
import type { QuerySource } from '../../query/run-query.js'
import { DataClass } from './data-class.js'
import { dataClassClassOf } from './data-class-properties.js'
import { EntitySets } from './entity-sets.js'
import type { DataSnapshot } from '../../store/data-snapshot.js'
import { restoreSnapshot } from '../setup/snapshots.js'
import { openTransaction, runAs } from '../calls/owners.js'
import { DeletionWitnesses } from '../feed/deletion-witnesses.js'
import { DELETED_RECORDS } from '../../schema/change-tracking.js'
import { restrictVisibility } from '../restrict/restrict-visibility.js'
import { ChangeHub } from '../feed/change-hub.js'
import type { ChangeSubscription, ChangedEntity } from '../feed/change-feed.js'
import type { ChangesOptions } from './changes-options.js'
import type { FunctionsDef } from './define-functions.js'
import { FunctionRegistry } from '../../functions/registry.js'
import { callByName } from '../functions/call-function.js'
import { Roles } from '../../roles/roles.js'
import type { Session } from '../../sessions/session-api.js'
import { SessionTokens } from '../../sessions/session-tokens.js'
import { Actor } from '../../access/actor.js'
import { currentActor, runActor } from '../../access/acting.js'
import { runningCall } from '../calls/call-context.js'
import { singletonState } from '../calls/session-calls.js'
import { accessRule } from '../../access/access-rule.js'
import { checker } from '../restrict/access-checks.js'
import type { Datastore } from './datastore.js'
import type { ActAsOptions, DatastoreOptions, Singleton } from './datastore-options.js'
import { IndexBuilds } from '../setup/index-builds.js'
import { Processes, runAsProcess } from '../processes.js'
import { tableAsSeen } from '../writes/transaction-reads.js'
import { sessionLockOwner, sessionLocks } from '../calls/session-locks.js'

/**
 * The engine's datastore: what `Datastore` (datastore.ts) adds 4D's DataStore class members to.
 * Only a Datastore is ever made of it.
 */
// The engine's functions take the untyped Datastore: `this as unknown as Datastore` where one is
// handed this. A model's types only narrow what users see, and whether TypeScript finds
// Datastore<M> assignable to Datastore on its own depends on the order it checks files in (the
// build and the tests' check once disagreed). The calls and restrict take only what they need of
// it (calls/call-datastore.ts, restrict/restricted-class.ts), and are handed this as it is.
export class DatastoreBase<M extends ModelTypes = UntypedModel> {
  readonly schema: SchemaDef
  readonly clock: Clock
  readonly sessions: SessionStoreApi
  /** Selections kept under an id, with lifetimes (4D's entity sets). */
  readonly entitySets: EntitySets
  /**
   * Pessimistic locks: who holds which entity (`entity.lock()`, REST `$lock=true`). A closed,
   * expired or evicted session's locks are released; a deleted entity's lock is dropped.
   */
  readonly locks: LockTable
  /**
   * The owner of writes and locks made through the TypeScript API outside `runAs`: one for the
   * whole datastore, as a 4D process, so API callers never lock each other out.
   */
  readonly processOwner: LockOwner = Object.freeze({ id: 'process', kind: 'process' })
  /**
   * The class functions: the application's (`functions` option) and those the model declares.
   * The REST interface finds the functions a request names here.
   */
  readonly functions: FunctionRegistry
  /** The project's roles file, if it has one (`roles` option): what REST requests may do. */
  readonly roles: Roles | undefined
  /**
   * The sessions' one-time passcodes (4D's `Session.createOTP()` and `restore()`): made by a
   * function's `currentCall().createOTP()`, presented once by `restore` or a URL's `$4DSID`.
   */
  readonly sessionTokens: SessionTokens
  /** @internal The tables and the one commit. */
  readonly store: Store
  /** @internal What the query engine reads: the tables, and each record as its Entity. */
  readonly querySource: QuerySource
  /** The approximate indexes of vector attributes, built when a search first asks for one. */
  readonly nearest: NearestIndexes
  /** The worker threads its reads in slices hand data-sized loops to (`options.parallel`). */
  readonly parallel: ParallelPool | undefined
  /** @internal The live feed: the change history and its subscribers (change-hub.ts). */
  readonly changeFeed: ChangeHub
  /** @internal Who may learn of each deletion from a restricted dataclass (deletion-witnesses.ts). */
  readonly deletionWitnesses: DeletionWitnesses
  /**
   * @internal 4D's processes on this datastore (processes.ts): their transactions, and which of
   * them holds the datastore with `flushAndLock()`.
   */
  readonly processes = new Processes()
  readonly #classes = new Map<string, DataClass>()
  // Builds of indexes in slices (buildIndexesInBackground, indexesReady).
  readonly #indexBuilds: IndexBuilds

  constructor(schema: SchemaDef, options: Omit<DatastoreOptions, keyof LoadModelOptions> = {}) {
    this.schema = schema
    this.clock = options.clock ?? systemClock
    this.roles =
      options.roles === undefined || options.roles instanceof Roles
        ? options.roles
        : new Roles(options.roles)
    this.store = new Store(
      schema,
      this.clock,
      options.newUuid ?? (() => globalThis.crypto.randomUUID()),
      // An index built on its first use is not the query budget's work (budget.ts).
      outsideBudget,
    )
    this.#indexBuilds = new IndexBuilds(this.store)
    const sessionOptions = options.sessions
    this.sessions =
      sessionOptions && 'store' in sessionOptions
        ? sessionOptions.store
        : new SessionStore(this.clock, sessionOptions)
    this.locks = sessionLocks(this.clock, this.sessions, this.store)
    // Before any commit (the data below): a subscriber may resume from any stamp given since.
    this.changeFeed = new ChangeHub(this as unknown as Datastore, options.changeHistory)
    this.sessionTokens = new SessionTokens(this.clock, this.sessions, options.sessionTokens)
    const newUuid = options.newUuid ?? (() => globalThis.crypto.randomUUID())
    // Set ids look like the real server's: 32 upper-case hex digits.
    const newSetId = (): string => newUuid().replace(/-/g, '').toUpperCase()
    this.entitySets = new EntitySets(this as unknown as Datastore, newSetId, options.entitySets)
    this.functions = new FunctionRegistry(schema, options.functions as FunctionsDef | undefined)
    for (const def of schema.dataClasses)
      this.#classes.set(
        def.name,
        new (dataClassClassOf(DataClass, def))(
          this as unknown as Datastore,
          this.store.table(def.name),
        ),
      )
    const store = this.store
    this.deletionWitnesses = new DeletionWitnesses(this as unknown as Datastore)
    // Only a restricted dataclass needs its deletions witnessed.
    if (this.functions.restricting)
      store.beforeWrite((changes, stamps) => this.deletionWitnesses.beforeCommit(changes, stamps))
    this.nearest = new NearestIndexes(options.nearestIndex, nearestSourceOf(store))
    this.parallel = options.parallel
    // The sorts of large index builds over numbers go to the same pool.
    this.#indexBuilds.configure({ parallel: options.parallel })
    this.querySource = {
      schema,
      clock: this.clock,
      nearest: (dc, attr, metric) => this.nearest.state(dc, attr, metric),
      // The calling process's open transaction's writes are read with the data (transaction-reads.ts).
      table: (name) => tableAsSeen(this.processes, store.table(name)),
      entityOf: (name) => (this.findDataClass(name) ?? fail('DataClassNotFound', [name])).entityOf,
      visibility: restrictVisibility(this),
      readCheck: () => checker(this),
    }
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
  dataClass<N extends DataClassName<M>>(name: N): DataClass<M, N> {
    return (
      (this.#classes.get(name) as DataClass<M, N> | undefined) ??
      fail('DataClassNotFound', [name, this.#classes.keys()])
    )
  }

  /** The dataclass called `name`, or undefined. */
  findDataClass(name: string): DataClass | undefined {
    return this.#classes.get(name)
  }

  /**
   * Calls the datastore function `name` (4D's `ds.myFunction()`), exposed or not, with `this` the
   * datastore. Returns its result, or a Promise of it for an async function.
   * @throws DatastoreError FunctionNotFound (1573), FunctionParameterInvalid (9101), and what the
   *   function throws (a non-DatastoreError as FunctionFailed, 9100).
   */
  call(name: string, ...args: unknown[]): unknown {
    return callByName(this as unknown as Datastore, 'dataStore', '', name, this, args)
  }

  /**
   * The singleton `name` (4D's `cs.Name.me`): its state and its functions. A session singleton's
   * state is the session's the code runs for: a function's call, or `ds.actAs(session, …)`.
   * @throws DatastoreError SingletonNotFound (9105) when no singleton has that name,
   *   SessionSingletonWithoutSession (9152) for a session singleton outside any session.
   */
  singleton(name: string): Singleton {
    const ds = this as unknown as Datastore
    if (!ds.functions.singletonNames().includes(name)) fail('SingletonNotFound', [name])
    const call = runningCall()
    const session = ds.functions.isSessionSingleton(name)
      ? ((call?.datastore === ds ? call.session : undefined) ?? currentActor(ds)?.session)
      : undefined
    const state = singletonState(ds, name, session)
    return {
      name,
      state,
      call: (fn, ...args) => callByName(ds, 'singleton', name, fn, state, args),
    }
  }

  /**
   * The server-wide modification stamp: +1 for every entity saved or deleted (and every deleted
   * row change tracking adds), kept across restarts by a journal. The last stamp given: an entity
   * changed later has a higher `__GlobalStamp`.
   */
  get globalStamp(): number {
    return this.store.globalStamp
  }

  /**
   * 4D's `ds.getGlobalStamp()`: the global stamp (see `globalStamp`). A sync keeps it and later
   * asks for `__GlobalStamp > :1` and the `__DeletedRecords` rows with `__Stamp > :1`
   * (docs/change-tracking.md). 0 until something is written.
   */
  getGlobalStamp(): number {
    return this.store.globalStamp
  }

  /**
   * 4D's `ds.setGlobalStamp()`: sets the global stamp, so that the next change takes `stamp + 1`
   * (a journal keeps it). Setting it back lets later changes take stamps already given: a sync
   * from a higher stamp would miss them. Not inside `ds.transaction`. Throws a RangeError for a
   * value that is not a non-negative integer. Not a REST function unless a project exposes it
   * (`globalStampFunctions`).
   */
  setGlobalStamp(stamp: number): void {
    if (openTransaction(this)) throw new Error('setGlobalStamp: not inside a transaction')
    this.processes.refuseLocked()
    this.store.setGlobalStamp(stamp)
  }

  /**
   * Whether reads depend on who makes them: a dataclass has a `restrict` event, or the datastore
   * tracks changes (its deleted rows show each session only what it may learn of).
   */
  get restricting(): boolean {
    return this.functions.restricting || this.schema.byName.has(DELETED_RECORDS)
  }

  /**
   * Loads `{ "<DataClass>": [ {...}, ... ] }`. All rows are checked first; one bad value rejects the
   * whole file with an InvalidData (or 1570/1541/1545) error naming the dataclass, row and attribute,
   * and nothing is loaded. Loading does not move the global stamp (it is not a modification).
   * `onProgress` hears how far it is (a CLI's progress line).
   */
  loadData(data: DataFile, options?: LoadOptions): LoadReport {
    this.processes.refuseLocked()
    return this.store.loadData(data, options?.onProgress)
  }

  /**
   * Starts a load fed batch by batch, for data that does not fit in memory as one parsed object
   * (a file read as a stream): `add(dataClass, rows)` checks each batch as it comes and keeps it
   * in compact columns, `commit()` applies every row at once and gives the report. The result is
   * that of `loadData` on the same rows, however they are batched; a refused row (thrown by `add`,
   * or by `commit` for a reference to a key that never came) leaves the datastore untouched.
   * Nothing may write to the datastore between the two (commit then throws a TypeError); a load
   * that is dropped before its commit costs nothing but its memory.
   *
   * @example const load = ds.beginLoad(); for await (const [name, rows] of batches) load.add(name, rows); load.commit()
   */
  beginLoad(options?: LoadOptions): DataLoader {
    this.processes.refuseLocked()
    return this.store.beginLoad(options?.onProgress)
  }

  /**
   * Runs `fn` on behalf of `owner`: every write and lock it makes is that owner's (the REST adapter
   * runs each request as its session). Writes to an entity another owner locked are refused with
   * EntityLocked (9070). `fn` must be synchronous.
   */
  runAs<T>(owner: LockOwner, fn: () => T): T {
    return runAs(this, owner, fn)
  }

  /**
   * Runs `fn` as `session`, as the REST interface runs a request: every read, query, navigation,
   * save, drop, lock and call it makes (its awaits included, and only those) is checked against
   * the session's privileges under the roles file (and `authorize`, if given), its `restrict`
   * events narrow what it sees, and its writes and locks are the session's. It runs as a 4D
   * process of its own (processes.ts): a transaction it leaves open is cancelled when it ends.
   * Code outside `actAs` (and outside any request) has full rights. Returns what `fn` returns (a
   * Promise stays one).
   *
   * @example await ds.actAs(session, () => ds.Employee.query('salary > 5000')) // 1607 without read on salary
   * @throws DatastoreError ReadRefused (1557), AttributeReadRefused (1607), … from `fn`'s code
   */
  actAs<T>(session: Session, fn: () => T, options: ActAsOptions = {}): T {
    const actor = new Actor({
      scope: this,
      schema: this.schema,
      session,
      owner: options.owner ?? sessionLockOwner(session),
      rule: accessRule(this.roles, options.authorize),
    })
    // A process of its own, as a request is: its transactions end with it (processes.ts).
    return runActor(actor, () => runAsProcess(fn))
  }

  /**
   * Runs `fn` with a time budget of `ms` milliseconds (on this datastore's clock) for the queries
   * it runs: filters, orderings, aggregates and distinct values, on any datastore. Query work past
   * the deadline stops with QueryBudgetExceeded (9090); the engine reads the clock every 4,096
   * rows and counts each call of a calculated attribute as 64 rows. Lookups by key or through an
   * index are never stopped. Queries only read, so nothing is left half-done. Nested budgets keep
   * the earlier deadline; the previous budget is restored when `fn` returns or throws. `ms` of 0,
   * Infinity or undefined sets no budget. `fn` must be synchronous (the REST handler runs each
   * request this way: `queryBudgetMs`). `spentMs`, time already gone before `fn` starts (a
   * request waiting its turn), is taken off the budget; when it is the whole budget, the first
   * query of `fn` stops at once, while lookups by key still run.
   *
   * @example ds.withBudget(2000, () => ds.Employee.query('comment = "@late@"'))
   */
  withBudget<T>(ms: number | undefined, fn: () => T, spentMs = 0): T {
    if (ms === undefined || !(ms > 0) || ms === Infinity) return fn()
    const left = ms - (spentMs > 0 ? spentMs : 0)
    return withBudget({ deadline: this.clock.now() + left, clock: this.clock, ms }, fn, left <= 0)
  }

  /**
   * Builds every index a data load left to build (returns how many indexed attributes it built).
   * A load of 1,000 rows or more, like a large replay of a journal, fills no index: each is built
   * in one pass over the rows on its first use, so that a server answers sooner after a start and
   * never builds the indexes its requests do not use. Call this to pay for all of them now, before
   * timing queries, or before a server takes its first requests (`entistore serve --eager-indexes`).
   * `snapshot` builds them too (a snapshot holds every index whole).
   */
  buildIndexes(): number {
    return this.#indexBuilds.buildAll()
  }

  /**
   * Builds every index a data load left to build, in slices of a few milliseconds between other
   * work (writes go on meanwhile and end up in the indexes), rather than in one piece on its first
   * use; settles with how many indexed attributes were unbuilt when it started, once none is.
   * `options` (kept for later builds) say how the next slice is run: `entistore serve` passes
   * `setImmediate`. Until an index is built, a query that needs it builds the rest in one piece
   * (the library's queries are synchronous), unless it runs in `withoutIndexBuilds`.
   */
  buildIndexesInBackground(options: IndexBuildOptions = {}): Promise<number> {
    return this.#indexBuilds.buildInBackground(options)
  }

  /** Says how builds in slices run their next slice, for every build after (see the options). */
  configureIndexBuilds(options: IndexBuildOptions): void {
    this.#indexBuilds.configure(options)
  }

  /**
   * Settles once the indexes of `dataClass`'s `attributes` (every one when absent) are built,
   * building them in slices first (see `buildIndexesInBackground`): what a caller that must not
   * build in one piece awaits when `withoutIndexBuilds` refused a query (IndexBuilding, 9143).
   */
  indexesReady(dataClass: string, attributes?: readonly string[]): Promise<void> {
    return this.#indexBuilds.ready(dataClass, attributes)
  }

  /**
   * Runs `fn` where a query that needs an index not yet built throws IndexBuilding (9143), whose
   * `details` name the dataclass and attribute, instead of building the index in one piece; await
   * `indexesReady` and run `fn` again. Only for work that may run twice (a read): the REST handler
   * runs its reads this way, so that a request never holds the others for a whole build.
   */
  withoutIndexBuilds<T>(fn: () => T): T {
    return this.#indexBuilds.refusing(fn)
  }

  /**
   * Runs `fn` where an index not yet built is as if it were not declared (a query scans, an
   * ordering sorts) instead of being built in one piece, and its build in slices is put first:
   * for a read that runs in a slice scope, whose scan goes on in slices too, and which uses the
   * index once it is built. The key order of a large table still throws IndexBuilding (9143), as
   * in `withoutIndexBuilds`.
   */
  withoutUnbuiltIndexes<T>(fn: () => T): T {
    return this.#indexBuilds.withoutUnbuilt(fn)
  }

  /**
   * A scope in which reads run in slices (query/slices.ts): `scope.run(fn)` runs a read whose
   * heavy work (filters, orderings, aggregates) stops when `timeUp()` says so, throwing
   * QuerySuspended (9144); `scope.drive()` runs that work a slice at a time (or returns the
   * promise its work parked on: drive it again once that settles), then `scope.run(fn)` runs the
   * read again, which finds its results kept and brought up to date with the writes made
   * meanwhile. Only for reads (a run may be repeated); `close()` it when the read is answered.
   */
  sliceScope(timeUp: () => boolean): SliceScope {
    const scope = this.#indexBuilds.sliceScope(timeUp)
    scope.parallel = this.parallel
    return scope
  }

  /**
   * The data as it is now, to go back to with `restore`: every entity, key, stamp, index, the next
   * autosequence values and the global stamp. Cheap in memory: entities are shared, only the
   * tables' containers and indexes are copied.
   *
   * @example const initial = ds.snapshot(); …; ds.restore(initial)
   */
  snapshot(): DataSnapshot {
    return this.store.snapshot()
  }

  /**
   * Puts the data back as `snapshot` holds it (it can be restored again later). Entity sets and
   * locks are cleared (their row ids and keys may name other entities afterwards); sessions stay.
   * Commit listeners receive the entities that changed, as deletes, inserts and updates; the
   * global stamp goes back to the snapshot's. Selections and entities read before a restore must
   * not be used after it. Throws inside a transaction of the calling process (an Error) and for
   * a snapshot of another datastore (a TypeError); another process's open transaction fails to
   * validate afterwards (TransactionConflict).
   */
  restore(snapshot: DataSnapshot): void {
    this.processes.refuseLocked()
    restoreSnapshot(this as unknown as Datastore, snapshot)
  }

  /**
   * A live feed of the changes of `dataClasses` after the global stamp `since` (default: now), as
   * `session` may see them: an async iterator of `created`, `updated` (the entity as it is when
   * sent, shaped by `attributes`), `deleted`, `reset`, `heartbeat` and `dropped` events, each with
   * its global stamp to resume from. `close()` it (or break out of `for await`) when done.
   * Semantics and bounds: docs/change-tracking.md, "Live feed".
   *
   * @example for await (const e of ds.changes({ dataClasses: 'Employee', filter: 'salary > 5000' })) …
   * @throws DatastoreError DataClassNotFound (1800), InvalidParameter (1806), a filter's errors,
   *   ReadRefused (1557) when `session` may not read a dataclass.
   */
  changes<T = ChangedEntity>(options: ChangesOptions<T>): ChangeSubscription<T> {
    return this.changeFeed.open(options)
  }

  /**
   * Registers a commit observer; returns the function that removes it. A data load is told as one
   * commit of kind `load` listing every row as an insert, or none with `{ loadRows: false }`.
   */
  onCommit(listener: CommitListener, options?: CommitListenerOptions): () => void {
    return this.store.onCommit(listener, options)
  }

  /** @internal The store's commit, the single place where data changes (see store/store.ts). */
  commit(changes: readonly Change[], options: CommitOptions = {}): void {
    this.store.commit(changes, options)
  }
}
