/**
 * @module The datastore users hold (`ds.Employee.query(…)`): the engine's (datastore-base.ts) with
 * every member of 4D's DataStore class (4D 21 R4), each as 4D means it or adapted where Entistore
 * differs (docs/orda.md, DataStore): transactions that nest and belong to the calling process
 * (processes.ts, writes.ts), `flushAndLock()`, the ORDA request log (request-log.ts), and what 4D
 * answers about a local, unencrypted datastore without client/server contexts (datastore-info.ts).
 *
 * `Datastore<M>` is a datastore of a typed model `M` (schema/typed-model.ts): `ds.dataClass(name)`
 * takes only its dataclass names and hands out typed dataclasses. `createDatastore` gives it with
 * one property per dataclass (`DatastoreOf<M>`).
 */
import type { SchemaDef } from '../../schema/definitions.js'
import type { LoadModelOptions } from '../../schema/load-model.js'
import type { BuiltModel } from '../../schema/model-builder.js'
import type {
  DataClassName,
  ModelTypes,
  ModelTypesOf,
  UntypedModel,
} from '../../schema/typed-model.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { DataClass } from './data-class.js'
import { DatastoreBase } from './datastore-base.js'
import type { DatastoreOptions } from './datastore-options.js'
import { toSchema, type ModelSource } from '../setup/model-source.js'
import {
  cancelTransaction,
  runTransaction,
  startTransaction,
  transactionLevel,
  validateTransaction,
} from '../writes/writes.js'
import { RequestLog, type RequestLogEntry, type RequestLogSink } from '../request-log.js'
import {
  checkRemoteContext,
  datastoreInfo,
  encryptionStatus,
  provideDataKey,
  type DataKeyResult,
  type DatastoreInfo,
  type EncryptionStatus,
  type RemoteContextInfo,
} from '../members/datastore-info.js'

export type { CommitInfo, CommitKind, CommitOptions } from '../../store/store.js'
export type { CommitListener, CommitListenerOptions } from '../../store/store.js'
export { sessionLockOwner } from '../calls/session-locks.js'
export type { ActAsOptions, DatastoreOptions, Singleton } from './datastore-options.js'
export type { ModelSource } from '../setup/model-source.js'
export type { RequestLogEntry, RequestLogResponse, RequestLogSink } from '../request-log.js'
export type {
  DataKeyResult,
  DatastoreInfo,
  EncryptionStatus,
  RemoteContextInfo,
} from '../members/datastore-info.js'

export class Datastore<M extends ModelTypes = UntypedModel> extends DatastoreBase<M> {
  /**
   * @internal The ORDA request log while it records (request-log.ts): what a write asks whether
   * to record itself. Undefined while it is off.
   */
  requestLog: RequestLog | undefined
  readonly #requestLog: RequestLog
  /** @internal Selections are alterable unless made shareable (`makeSelectionsAlterable()`). */
  selectionsAlterable = false
  #adminProtected = false
  // What `flushAndLock()` flushes (a journal's batch window: `onFlush`).
  readonly #flushers = new Set<() => void>()

  constructor(schema: SchemaDef, options: Omit<DatastoreOptions, keyof LoadModelOptions> = {}) {
    super(schema, options)
    this.#requestLog = new RequestLog(this.clock, () => this.dataClasses)
  }

  // ---- Transactions (4D: startTransaction, validateTransaction, cancelTransaction, transactionLevel)

  /**
   * Starts a transaction of the calling process (4D's `ds.startTransaction()`), nested in the one
   * it has open, if any. A process is the code of one REST request (its function's awaits
   * included), of one `ds.actAs`, or else all the TypeScript code outside them (processes.ts).
   * Until the first level is validated, its writes are staged: the process reads its own in every
   * read (by key, queries, `all()`, relations, a selection's members), other processes see nothing
   * of them, and each entity it updates or deletes is locked for the others (EntityLocked). A
   * request that ends with a transaction open has it cancelled.
   *
   * @example ds.startTransaction(); await pay(a, b); ds.transactionLevel() === 1 ? ds.validateTransaction() : …
   */
  startTransaction(): void {
    startTransaction(this as Datastore)
  }

  /**
   * Validates the innermost transaction of the calling process (4D's `validateTransaction()`): a
   * nested level's writes join the level above; the first level's are saved at once, all or
   * nothing. It fails, the transaction cancelled and nothing saved, when another process wrote
   * meanwhile what one of its writes no longer applies over (TransactionConflict, 9071) or holds
   * the datastore (DatastoreLocked, 9072). Does nothing outside a transaction.
   */
  validateTransaction(): void {
    validateTransaction(this as Datastore)
  }

  /**
   * Cancels the innermost transaction of the calling process (4D's `cancelTransaction()`): a
   * nested level's writes are dropped; the first level's with every level's, validated or not.
   * Does nothing outside a transaction.
   */
  cancelTransaction(): void {
    cancelTransaction(this as Datastore)
  }

  /** The calling process's transaction level (4D's `transactionLevel()`): 0 outside any. */
  transactionLevel(): number {
    return transactionLevel(this as Datastore)
  }

  /**
   * Runs `fn` as one transaction level of the calling process (nested in its open one, if any):
   * validated when it returns, cancelled if it throws (the error is rethrown). Its writes see its
   * own earlier ones (stamps, keys, unique values, references, reads by key). `fn` must be
   * synchronous and leave the levels as it found them (else a TypeError, everything it opened
   * cancelled); an async one starts and validates the transaction itself.
   *
   * @example ds.transaction(() => { a.edit({ balance: a.get('balance') - 10 }).saveOrFail(); b.edit(…).saveOrFail() })
   */
  transaction<T>(fn: () => T): T {
    return runTransaction(this as Datastore, fn)
  }

  // ---- flushAndLock, locked, unlock

  /**
   * 4D's `flushAndLock()`: flushes what `onFlush` registered (the journal of `--persist`: its batch
   * window written and synced) and locks the datastore for the calling process: another process's
   * write, commit, load, restore or `flushAndLock` is refused with DatastoreLocked (9072) until it
   * calls `unlock()` as many times (4D makes them wait: a synchronous save cannot, so it is
   * refused and may be tried again), or ends (a request, `ds.actAs`).
   * @throws DatastoreError DatastoreLocked (9072) when another process holds it.
   */
  flushAndLock(): void {
    this.processes.lock(this.processes.current())
    for (const flush of this.#flushers) flush()
  }

  /** 4D's `unlock()`: one `flushAndLock()` of the calling process undone; nothing if it holds none. */
  unlock(): void {
    this.processes.unlock(this.processes.current())
  }

  /** 4D's `locked()`: whether a process holds the datastore with `flushAndLock()`. */
  locked(): boolean {
    return this.processes.lockedBy !== undefined
  }

  /** Registers what `flushAndLock()` flushes (synchronously); returns the function that removes it. */
  onFlush(flush: () => void): () => void {
    this.#flushers.add(flush)
    return () => void this.#flushers.delete(flush)
  }

  // ---- The ORDA request log

  /**
   * 4D's `startRequestLog()`: records the ORDA requests made through this datastore (reads by
   * key, queries, writes; request-log.ts) in memory, the last 1,000; `keep`: empties it and keeps
   * that many; a function (4D's file): each request is given to it instead. Free while off.
   */
  startRequestLog(to?: number | RequestLogSink): void {
    this.#requestLog.start(to)
    this.requestLog = this.#requestLog
  }

  /** 4D's `stopRequestLog()`: stops recording; the log in memory stays readable. */
  stopRequestLog(): void {
    this.#requestLog.stop()
    this.requestLog = undefined
  }

  /** 4D's `getRequestLog()`: the requests the log in memory holds, the most recent first. */
  getRequestLog(): RequestLogEntry[] {
    return this.#requestLog.entries()
  }

  // ---- What 4D answers of a local, unencrypted datastore (datastore-info.ts)

  /** 4D's `getInfo()`: `{ type: "4D", networked: false, localID: "" }`, as for 4D Server's `ds`. */
  getInfo(): DatastoreInfo {
    return datastoreInfo()
  }

  /** 4D's `encryptionStatus()`: not encrypted, no key provided, no encryptable table. */
  encryptionStatus(): EncryptionStatus {
    return encryptionStatus()
  }

  /** 4D's `provideDataKey()`: null without a key; a key never matches (the data is not encrypted). */
  provideDataKey(key?: string | { readonly encodedKey: string } | null): DataKeyResult | null {
    return provideDataKey(key)
  }

  /** 4D's `getAllRemoteContexts()`: none on the server's own datastore. */
  getAllRemoteContexts(): RemoteContextInfo[] {
    return []
  }

  /** 4D's `getRemoteContextInfo(contextName)`: null, no context being kept here. */
  getRemoteContextInfo(contextName: string): RemoteContextInfo | null {
    void contextName
    return null
  }

  /**
   * 4D's `setRemoteContextInfo(contextName, dataClass, attributes, contextType, pageLength)`: its
   * arguments are checked, and nothing is kept (a context shapes a remote client's requests; the
   * server's datastore has none). @throws DatastoreError DataClassNotFound (1800),
   * AttributeNotFound (1500), InvalidParameter (1806).
   */
  setRemoteContextInfo<N extends DataClassName<M>>(
    contextName: string,
    dataClass: N | DataClass<M, N>,
    attributes: string | readonly string[],
    contextType?: 'main' | 'currentItem',
    pageLength?: number,
  ): void {
    const own = (dc: string | DataClass): DataClass | undefined =>
      typeof dc === 'string'
        ? this.findDataClass(dc)
        : this.findDataClass(dc.name) === dc
          ? dc
          : undefined
    checkRemoteContext(own, contextName, dataClass, attributes, contextType, pageLength)
  }

  /** 4D's `clearAllRemoteContexts()`: there are none to clear. */
  clearAllRemoteContexts(): void {}

  // ---- Admin protection, alterable selections

  /**
   * 4D's `setAdminProtection(status)`: true turns the data explorer off (`entistore serve`'s page
   * answers 403; the REST interface itself is not affected), false on again. Not kept across
   * restarts, as 4D's is not.
   */
  setAdminProtection(status: boolean): void {
    this.#adminProtected = status === true
  }

  /** 4D's `isAdminProtected()`: whether `setAdminProtection(true)` turned the data explorer off. */
  isAdminProtected(): boolean {
    return this.#adminProtected
  }

  /**
   * 4D's `makeSelectionsAlterable()`: from now on every new selection is alterable (`add` changes
   * it in place) unless made shareable (`copy({ shared: true })`), as before 4D's shareable
   * selections. For code written that way; it cannot be undone.
   */
  makeSelectionsAlterable(): void {
    this.selectionsAlterable = true
  }
}

/** A Datastore with one property per dataclass: `ds.Employee`. */
export type DatastoreWith<Names extends string> = Datastore & { readonly [N in Names]: DataClass }

/**
 * The datastore of a typed model `M`: `ds.dataClass('Employee')` and `ds.Employee` are both
 * `DataClass<M, 'Employee'>`. A dataclass named like a member of the Datastore (`schema`,
 * `transaction`…) has no property; `ds.dataClass(name)` reaches it.
 */
export type DatastoreOf<M extends ModelTypes> = [DataClassName<M>] extends [never]
  ? DatastoreWith<string>
  : string extends DataClassName<M>
    ? DatastoreWith<string>
    : Datastore<M> & {
        readonly [N in Exclude<DataClassName<M>, keyof Datastore>]: DataClass<M, N>
      }

// The members of a Datastore (its own and its base's): a dataclass named like one has no property.
const RESERVED = new Set([
  ...Object.getOwnPropertyNames(Datastore.prototype),
  ...Object.getOwnPropertyNames(DatastoreBase.prototype),
])

/**
 * Builds a datastore from a model in the catalog shape (`GET /rest/$catalog/$all`), optionally
 * with data. Each dataclass is also reachable as a property, `ds.Employee`, unless its name is one
 * of the Datastore's own members (use `ds.dataClass(name)` then).
 *
 * The datastore is typed (see schema/typed-model.ts) when the model's types are known: from a
 * `defineModel` builder, from a JSON model declared `as const`, or given
 * as the type argument (`createDatastore<Model>(json)` with the types `entistore types` writes).
 * A model read from a file is accepted as it is (`ModelJsonDocument`) and checked when loaded.
 *
 * @example
 * const ds = createDatastore(model, { data, clock: new ManualClock() })
 * ds.dataClass('Employee').get(3)?.get('lastName')
 * @throws DatastoreError InvalidModel (9020) for a bad model; InvalidData (9021), 1570, 1541, 1545 for bad data.
 */
export function createDatastore<M extends ModelTypes>(
  model: BuiltModel<M>,
  options?: DatastoreOptions,
): DatastoreOf<M>
export function createDatastore<J extends ModelJson>(
  model: J & (string extends DataClassName<ModelTypesOf<J>> ? never : unknown),
  options?: DatastoreOptions,
): DatastoreOf<ModelTypesOf<J>>
/** The untyped datastore; `Names` (the dataclass names) gives `ds.<Name>` properties. */
export function createDatastore<Names extends string = string>(
  model: ModelSource,
  options?: DatastoreOptions,
): DatastoreWith<Names>
/**
 * The datastore typed by `M`, a model's types (the file `entistore types` writes, or your own),
 * given as the type argument: `createDatastore<Model>(json)`.
 */
export function createDatastore<M extends ModelTypes>(
  model: ModelSource,
  options?: DatastoreOptions,
): DatastoreOf<M>
export function createDatastore(
  model: ModelSource,
  options: DatastoreOptions = {},
): DatastoreWith<string> {
  const ds = new Datastore(toSchema(model, options), options)
  for (const dc of ds.dataClasses) {
    if (RESERVED.has(dc.name) || dc.name in ds) continue
    Object.defineProperty(ds, dc.name, { value: dc, enumerable: true })
  }
  return ds as DatastoreWith<string>
}
