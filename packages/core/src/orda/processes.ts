/**
 * @module 4D's process, as Entistore has it: what a transaction and `flushAndLock()` belong to.
 *
 * A process is an async context (access/async-scope.ts: the runtime's AsyncLocalStorage): the code
 * of one REST request (its function's awaits included), or of one `ds.actAs(session, fn)`, each
 * started by `runAsProcess`. The TypeScript code outside any of them is one process, the
 * datastore's main one, as it is one lock owner (`ds.processOwner`): its transactions are shared
 * by all of it, so concurrent work that must not see each other's uncommitted writes runs each
 * piece in a process of its own (`ds.actAs`).
 *
 * A process that ends with a transaction open has it cancelled, as 4D cancels the transaction of
 * a process that ends, and releases the datastore if it locked it. Code of its that still runs
 * afterwards (an un-awaited promise of a request's function) and writes or validates is refused
 * with TransactionAbandoned (9073) rather than write outside the transaction it believes open.
 *
 * Nothing here costs a write anything while no transaction is open and no process locks the
 * datastore: `openTransaction` and `lockedByAnother` answer from a counter and a field first.
 */
import { asyncScope } from '../access/async-scope.js'
import { fail } from '../errors/datastore-error.js'
import type { Savepoint } from '../txn/savepoints.js'
import type { Transaction } from '../txn/transaction.js'

/** Makes the transaction of a first level: `id` given, one that may stay open across awaits. */
export type MakeTransaction = (id: string | undefined) => Transaction

/** A nested level: what was staged when it began, and how many after-commit tasks there were. */
interface Level {
  readonly savepoint: Savepoint
  readonly after: number
}

/** One process's state on one datastore: its transactions (nested levels) and its datastore lock. */
export class ProcessState {
  readonly #processes: Processes
  // The transaction of the first level, while one is open; a nested level is a savepoint in it.
  #tx: Transaction | undefined
  readonly #levels: Level[] = []
  // What runs once the transaction commits (entity after-events), in order.
  #after: (() => void)[] = []
  // Set when the datastore was restored while the transaction was open: its validation fails.
  #restored = false
  // Set when the process ended with a transaction open (see the module note).
  #abandoned = false
  /** How many `flushAndLock()` calls of this process wait for their `unlock()`. */
  locks = 0

  constructor(processes: Processes) {
    this.#processes = processes
  }

  /** The open transaction (every level writes into it), if any. */
  get transaction(): Transaction | undefined {
    return this.#tx
  }

  /** 4D's `transactionLevel()`: 0 outside a transaction, 1 in one, 2 in one nested in it… */
  get level(): number {
    return this.#tx === undefined ? 0 : this.#levels.length + 1
  }

  /**
   * Starts a transaction, nested in the open one if any (4D's `startTransaction()`); the first
   * level's is made by `make`, with an id when it may stay open across awaits (`acrossAwaits`).
   */
  start(make: MakeTransaction, acrossAwaits: boolean): void {
    this.refuseAbandoned()
    const tx = this.#tx
    if (tx !== undefined) {
      this.#levels.push({ savepoint: tx.mark(), after: this.#after.length })
      return
    }
    this.#tx = make(acrossAwaits ? this.#processes.nextId() : undefined)
    this.#restored = false
    this.#processes.opened(this)
  }

  /**
   * Validates the innermost level (4D's `validateTransaction()`): a nested one's writes stay in the
   * transaction for the level above (cancelled with it, if it is); the first level's commit, all
   * or nothing. A commit that fails (TransactionConflict, DatastoreLocked…) cancels the transaction
   * before its error goes on, as 4D's failed validation does. Nothing to do outside a transaction.
   */
  validate(): void {
    this.refuseAbandoned()
    const tx = this.#tx
    if (tx === undefined) return
    if (this.#levels.pop() !== undefined) return
    const after = this.#after
    this.#close()
    try {
      if (this.#restored)
        fail('TransactionConflict', ['the data', 'the datastore was restored to a snapshot'])
      this.#processes.refuseLocked(this)
      tx.commit()
    } catch (error) {
      tx.cancel()
      throw error
    }
    for (const fn of after) fn()
  }

  /**
   * Cancels the innermost level (4D's `cancelTransaction()`): a nested one's writes are dropped,
   * the first level's transaction with every write of its levels, validated or not. Nothing to do
   * outside a transaction.
   */
  cancel(): void {
    const tx = this.#tx
    if (tx === undefined) return
    const level = this.#levels.pop()
    if (level !== undefined) {
      tx.rollback(level.savepoint)
      this.#after.length = level.after
      return
    }
    this.#close()
    tx.cancel()
  }

  /**
   * Ends the level opened at `level` for code that is done (`ds.transaction(fn)`, and its steps
   * form): validated, or a TypeError, everything opened since cancelled, when the code left a
   * level of its own open or closed this one. `who` names the caller in the message.
   */
  leave(level: number, who: string): void {
    const now = this.level
    if (now !== level + 1) {
      this.cancelTo(level)
      throw new TypeError(
        now > level + 1
          ? `${who}: the function left ${now - level - 1} transaction(s) open`
          : `${who}: the function closed the transaction ${who} opened`,
      )
    }
    this.validate()
  }

  /** Cancels levels until `level` is left open (0: none). */
  cancelTo(level: number): void {
    while (this.level > level) this.cancel()
  }

  /** Runs `fn` once the open transaction commits (never if it is cancelled); at once outside one. */
  afterCommit(fn: () => void): void {
    if (this.#tx === undefined) fn()
    else this.#after.push(fn)
  }

  /** The datastore was restored: the open transaction's writes name rows that may be gone. */
  restored(): void {
    this.#restored = true
  }

  /** Throws TransactionAbandoned when this process ended with a transaction open. */
  refuseAbandoned(): void {
    if (this.#abandoned) fail('TransactionAbandoned', [])
  }

  /** The process ended: an open transaction is cancelled, the datastore released. */
  end(): void {
    if (this.#tx !== undefined) {
      this.cancelTo(0)
      this.#abandoned = true
      this.#processes.abandon()
    }
    if (this.locks > 0) this.#processes.release(this)
  }

  #close(): void {
    this.#tx = undefined
    this.#after = []
    this.#processes.closed(this)
  }
}

/** The processes of one datastore: its main one, those with a transaction open, the locker. */
export class Processes {
  /** The TypeScript code outside any `runAsProcess`. */
  readonly main = new ProcessState(this)
  /**
   * How many processes have a transaction open: a plain field, read by every `dataClass.get` and
   * write (the cheapest test there is while it is 0).
   */
  open = 0
  readonly #inTransaction = new Set<ProcessState>()
  #lockedBy: ProcessState | undefined
  #ids = 0
  // Processes that ended with a transaction open: from the first one on, a write outside any
  // transaction asks its process whether it is one of them (a lookup of its async context).
  #abandoned = 0

  /** The process of the code running now. */
  current(): ProcessState {
    return scopes.get()?.stateOf(this) ?? this.main
  }

  /** The transaction the code running now writes in, if any: free while none is open anywhere. */
  openTransaction(): Transaction | undefined {
    return this.open === 0 ? undefined : this.current().transaction
  }

  /** Whether a process ever ended with a transaction open (see `ProcessState.end`). */
  get abandoned(): boolean {
    return this.#abandoned > 0
  }

  /** @internal */
  abandon(): void {
    this.#abandoned++
  }

  /** Whether any process of this datastore has a transaction open. */
  get anyTransaction(): boolean {
    return this.open !== 0
  }

  /** The process that holds the datastore with `flushAndLock()`, if any. */
  get lockedBy(): ProcessState | undefined {
    return this.#lockedBy
  }

  /**
   * Throws DatastoreLocked (9072) when another process than `state` (default: the current one)
   * holds the datastore: what every write and commit asks first.
   */
  refuseLocked(state?: ProcessState): void {
    const holder = this.#lockedBy
    if (holder !== undefined && holder !== (state ?? this.current())) fail('DatastoreLocked', [])
  }

  /** `state` takes the datastore (once more, if it holds it). Throws DatastoreLocked if another does. */
  lock(state: ProcessState): void {
    this.refuseLocked(state)
    this.#lockedBy = state
    state.locks++
  }

  /** `state` lets go of the datastore once (all at once with `all`). */
  unlock(state: ProcessState, all = false): void {
    if (this.#lockedBy !== state || state.locks === 0) return
    state.locks = all ? 0 : state.locks - 1
    if (state.locks === 0) this.#lockedBy = undefined
  }

  /** `state` ended: it holds the datastore no more. */
  release(state: ProcessState): void {
    this.unlock(state, true)
  }

  /** Every open transaction is told that the datastore was restored. */
  restored(): void {
    for (const state of this.#inTransaction) state.restored()
  }

  /** @internal A new id for a transaction open across awaits (its locks carry it). */
  nextId(): string {
    return `transaction-${++this.#ids}`
  }

  /** @internal */
  opened(state: ProcessState): void {
    if (!this.#inTransaction.has(state)) openTransactions++
    this.#inTransaction.add(state)
    this.open = this.#inTransaction.size
  }

  /** @internal */
  closed(state: ProcessState): void {
    if (this.#inTransaction.delete(state)) openTransactions--
    this.open = this.#inTransaction.size
  }
}

/**
 * How many transactions are open in all the datastores of the program: what `dataClass.get` reads
 * first (a module binding: cheaper than a datastore's field, on the hottest read there is).
 */
export let openTransactions = 0

/** One process: its state on each datastore it touched. */
class ProcessScope {
  readonly #states = new Map<Processes, ProcessState>()

  stateOf(processes: Processes): ProcessState {
    let state = this.#states.get(processes)
    if (!state) this.#states.set(processes, (state = new ProcessState(processes)))
    return state
  }

  end(): void {
    for (const state of this.#states.values()) state.end()
  }
}

const scopes = asyncScope<ProcessScope>()

/**
 * Runs `fn` as a process of its own (its awaits included): its transactions and its datastore lock
 * are its own, and end with it (see the module note): when `fn` returns or throws, or when the
 * promise it returns settles. Returns what `fn` returns.
 */
export function runAsProcess<R>(fn: () => R): R {
  const scope = new ProcessScope()
  let result: R
  try {
    result = scopes.run(scope, fn)
  } catch (error) {
    scope.end()
    throw error
  }
  if (!isPromiseLike(result)) {
    scope.end()
    return result
  }
  return Promise.resolve(result).finally(() => scope.end()) as R
}

const isPromiseLike = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function'
