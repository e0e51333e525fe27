/**
 * @module What a datastore is made with (`createDatastore(model, options)`), and the small types
 * its members take: how `ds.actAs` acts, a shared singleton.
 */
import type { Clock } from '../../clock/clock.js'
import type { NearestIndexFactory } from '../../indexes/nearest-index.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { ParallelPool } from '../../parallel/parallel-pool.js'
import type { Roles, RolesJson } from '../../roles/roles.js'
import type { LoadModelOptions } from '../../schema/load-model.js'
import type { SessionStoreOptions } from '../../sessions/session-store.js'
import type { SessionStoreApi } from '../../sessions/session-api.js'
import type { SessionTokensOptions } from '../../sessions/session-tokens.js'
import type { DataFile } from '../../store/load-data.js'
import type { Authorize } from '../../access/authorize.js'
import type { ChangeFeedOptions } from '../feed/change-feed.js'
import type { FunctionsDef } from './define-functions.js'
import type { EntitySetStoreOptions } from './entity-sets.js'

export interface DatastoreOptions extends LoadModelOptions {
  /** Where time comes from. @default the system clock */
  readonly clock?: Clock
  /** Generates ids for uuid keys. @default crypto.randomUUID */
  readonly newUuid?: () => string
  /** Initial data, `{ "<DataClass>": [ {...}, ... ] }`. */
  readonly data?: DataFile
  /**
   * Makes the approximate indexes of vector attributes that searches asking for approximation use
   * (docs/vectors.md); without it they scan exactly. `entistore` gives HNSW when hnswlib-node is
   * installed.
   */
  readonly nearestIndex?: NearestIndexFactory
  /**
   * Worker threads for data-sized work (a scan of a numeric column over many rows): a read that
   * runs in slices (the REST interface's) hands it to them and waits without holding the thread,
   * so a cheap request is answered meanwhile and every core works. `entistore serve` makes one
   * (`createWorkerPool`, `--threads`); without one, the same work runs on this thread in slices.
   * The datastore does not close it: its maker does.
   */
  readonly parallel?: ParallelPool
  /**
   * The in-memory session store's options, or `{ store }`: another implementation of
   * `SessionStoreApi` (its own options are its business).
   */
  readonly sessions?: SessionStoreOptions | { readonly store: SessionStoreApi }
  /** Limits and lifetimes of the entity-set cache. */
  readonly entitySets?: EntitySetStoreOptions
  /** Bounds of the sessions' one-time passcodes (`currentCall().createOTP()`). */
  readonly sessionTokens?: SessionTokensOptions
  /**
   * The application's class functions (`defineFunctions({ dataStore, dataClasses, singletons })`):
   * called from TypeScript with `ds.call`, `dc.call`, `entity.call`, `selection.call` and
   * `ds.singleton(name).call`, and, when exposed, through REST. The `computed` functions of a
   * dataclass give its calculated attributes their code.
   */
  // `any`: a typed model's functions (`FunctionsDef<CompanyModel>`) are accepted as they are.
  readonly functions?: FunctionsDef<any>
  /**
   * A 4D project's `roles.json` (its parsed JSON, or `Roles` made from it): the privileges a
   * session must hold to read, create, update, drop a dataclass or attribute and to call a
   * function. Every REST request is held to it, and so is the code it runs (functions, entity
   * events, computed attributes, `restrict`); the TypeScript API called outside a request has full
   * rights unless it acts as a session (`ds.actAs`).
   * @throws DatastoreError InvalidRoles (9137) for a file not in 4D's format
   */
  readonly roles?: RolesJson | Roles
  /**
   * The change history the live feed (`ds.changes`) resumes from: how many change events it keeps
   * (`size`, default 10,000), and the timer of its heartbeats (docs/change-tracking.md).
   */
  readonly changeHistory?: ChangeFeedOptions
}

/** How `ds.actAs(session, fn)` acts. */
export interface ActAsOptions {
  /** The embedder's hook, asked besides the roles file (both must allow). */
  readonly authorize?: Authorize
  /** Who the writes and locks belong to. @default the session (its id read at each use) */
  readonly owner?: LockOwner
}

/** A shared singleton of the datastore: its state and its functions. */
export interface Singleton {
  readonly name: string
  /** What its functions see as `this`: made by its `state()` on first use, kept afterwards. */
  readonly state: unknown
  /** Calls its function `name` (exposed or not) with `args`; its result, or a Promise of it. */
  call(name: string, ...args: unknown[]): unknown
}
