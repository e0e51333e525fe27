/**
 * @module Query work that stops between steps, so that a heavy read never holds the event loop.
 *
 * Every loop of the engine over rows has one shape (`steps`: 4,096 rows, counted against the
 * query's budget). Written as a generator (`Work`), the same loop either runs to its end in one
 * piece (`finish`: the library's synchronous queries) or stops after any step and goes on later,
 * after the event loop has served whatever came in meanwhile.
 *
 * The REST handler answers synchronously, and most requests are cheap. So a request runs as it
 * always did, inside a `SliceScope`: where the engine reaches a piece of work whose cost grows with
 * the data (`sliceable`: a query's filter, an ordering's top-k, an aggregate), it runs it at once
 * while the scope's slice lasts. Cheap work ends inside it and the request is answered as before,
 * with no Promise and nothing kept. Work still running when the slice ends is kept by the scope,
 * and `QuerySuspended` (9144) unwinds the request: its driver runs the kept work a slice at a
 * time (`SliceScope.drive`), and, once it is done, runs the request again from the start. The
 * second run does the same cheap steps (parsing and planning are cached) and reaches the same
 * `sliceable` points in the same order: each one finds its result kept and goes on. A request may
 * run a few times (its filter, then its ordering, then its `$compute`), always reads, never
 * writes, and its reply is made in the run that finds every result ready.
 *
 * One version: writes go on between slices. The scope is told of every commit meanwhile
 * (`noteCommit`) and keeps the rows each one changed; a result is handed out only after its
 * `refresh` has brought it to the data as it is at that moment, from those rows alone (a filter
 * tests them again, a top-k offers them again), or has said it cannot (a join whose related rows
 * changed: the work is run again, and after `MAX_RESTARTS` in one piece). So the answer is the data
 * as it was when the reply was made, as if the whole request had run then, and no write waited.
 *
 * Parked work: a step may wait for something outside the thread (a worker pool's run over shared
 * columns) by yielding a Promise (`Parked`) instead of nothing. Only the work that a scope's
 * `drive` steps may do so (`drivingScope()`, asked at the step): `drive` then returns at once, the
 * scope is parked and its driver leaves it until the promise settles (the REST handler's FairTurns
 * takes it out of its client's line), and the next `drive` resumes the work there, or throws the
 * promise's rejection into it. Work run in one piece (`finish`: outside a scope, inside other
 * work, after `MAX_RESTARTS`) is never asked to park, and a park there is a bug (`Internal`).
 *
 * The scope is a module-level "current scope", as the query budget is (budget.ts): the work is
 * reached through selections and orderings made long before, and JavaScript runs one call stack at
 * a time. It is current while the request runs (`run`) and while its work is driven (`drive`).
 */
import { fail } from '../errors/datastore-error.js'
import type { Change } from '../store/changes.js'
import type { Table } from '../store/table.js'
import type { ParallelPool } from '../parallel/parallel-pool.js'

/**
 * What a step of work yields to wait outside the thread: a promise that settles when the work may
 * go on (resolved), or must fail (rejected: `drive` throws the reason into the work at its yield).
 */
export type Parked = Promise<void>

/**
 * A piece of work that may stop after any step: a generator yielding between steps, nothing to go
 * on at once, or a `Parked` promise to wait for (only when `drivingScope()` is defined).
 */
export type Work<T> = Generator<void | Parked, T, void>

// The scope whose `drive` steps the running work: the one work that may park (see `Parked`).
let stepping: SliceScope | undefined

/**
 * The scope driving the running step of work, when it may park (a worker pool's run): undefined
 * when the work runs in one piece (`finish`) or outside a scope. Its `wanted` says whether the
 * request still has a client.
 */
export function drivingScope(): SliceScope | undefined {
  return stepping
}

/** Runs `work` to its end in one piece. A work that parks here is a bug (it asks `drivingScope`). */
export function finish<T>(work: Work<T>): T {
  return notDriven(() => {
    for (;;) {
      const r = work.next()
      if (r.done) return r.value
      if (r.value !== undefined) {
        // Nobody waits for it: its rejection is not this caller's, its run is stopped.
        r.value.catch(() => undefined)
        work.return(undefined as never)
        return fail('Internal', ['a work parked where it runs in one piece (finish)'])
      }
    }
  })
}

/**
 * The rows changed since a scope first stopped, by table: what a kept result must be brought up to
 * date with. `everything`: a change that cannot be told row by row (a load, a restore): no kept
 * result can be refreshed, each is run again.
 */
export interface ChangedRows {
  readonly everything: boolean
  /** The row ids of `table` inserted, updated or deleted since; undefined when none was. */
  of(table: Table): ReadonlySet<number> | undefined
  /** Whether any row of any table changed since. */
  readonly any: boolean
  /** The tables with rows changed since. */
  tables(): Table[]
}

/**
 * How a kept result is brought to the data as it is now: the result refreshed, or undefined when
 * it cannot be from the changed rows alone (the work is then run again).
 */
export type Refresh<T> = (value: T, changed: ChangedRows) => T | undefined

/** Times a kept work is run again because its result could not be refreshed, before it runs in one piece. */
export const MAX_RESTARTS = 2

interface Kept {
  readonly key: string
  value: unknown
  /** The scope's commits when its work began, or when it was last refreshed. */
  since: number
}

interface Pending {
  /** Its place among the run's sliceable points, or -1 for a point kept by its key (`byKey`). */
  readonly index: number
  readonly key: string
  readonly work: Work<unknown>
  /** The scope's commits when the work began (see Kept.since). */
  readonly since: number
}

// What a parked scope waits for: `done` resolves once the work's promise has settled, and says how.
interface Park {
  readonly done: Promise<void>
  settled: boolean
  failed: boolean
  error: unknown
}

/**
 * One request's sliced work: the results it keeps between its runs, the work it is doing, and the
 * rows changed since it first stopped. `timeUp` says when the running slice ends (the clock for a
 * server, a count of steps for a test that counts slices).
 */
export class SliceScope implements ChangedRows {
  readonly #timeUp: () => boolean
  readonly #track: ((scope: SliceScope) => () => void) | undefined
  #untrack: (() => void) | undefined
  readonly #kept: Kept[] = []
  // The results of `byKey` points, by key.
  #keyed: Map<string, Kept> | undefined
  #pending: Pending | undefined
  // Which sliceable point of the current run comes next.
  #point = 0
  #changed: Map<Table, Set<number>> | undefined
  #everything = false
  // Commits told (noteCommit): a kept result made since the last one is the data as it is now.
  #commits = 0
  #restarts = 0
  #driving = false
  #effects: Map<string, unknown> | undefined
  #park: Park | undefined
  /**
   * Whether the request still has a client (the handler sets it): work parked on a pool asks it
   * between parts (through `drivingScope()`), and a scope whose park settles when it says false
   * is closed (its work's `finally` blocks run). Undefined: always wanted.
   */
  wanted: (() => boolean) | undefined
  /**
   * The worker threads its work may hand data-sized loops to (parallel-work.ts), the datastore's;
   * undefined: none, the loops run here in steps.
   */
  parallel: ParallelPool | undefined
  /** Whose request this is (the handler's client: a session, else an address): the pool's turns. */
  client: string | undefined
  /**
   * The request the scope's reads are for, as the code they call knows it (a 4D runner keeps one
   * process a request): the scope itself, or the one that made it for a read of its own
   * (read-in-steps.ts).
   */
  request: object = this
  /** Slices run so far (the first run's included): what tests count. */
  slices = 0
  /** Runs of the request begun (`run`). */
  runs = 0

  /**
   * `track` is called when the scope first stops, to tell it of the commits from then on
   * (`noteCommit`); it returns the function that stops telling it (`close`).
   */
  constructor(timeUp: () => boolean, track?: (scope: SliceScope) => () => void) {
    this.#timeUp = timeUp
    this.#track = track
  }

  /**
   * Ends the scope: its pending work is dropped, its kept results let go, and it is told of no
   * more commits. The results go because a scope can outlive its request on the heap: with the
   * kept rows of every read answered held until a full collection, the young generation's
   * collections copied five times the bytes they did without slices (measured on a code filter
   * at 200k rows: 494 against 100 KB promoted a scavenge, and a request a fifth slower).
   */
  close(): void {
    this.cancel()
    this.#untrack?.()
    this.#untrack = undefined
    this.#kept.length = 0
    this.#keyed = undefined
    this.#effects = undefined
    this.#changed = undefined
    this.wanted = undefined
  }

  /** Whether the scope has stopped once: it then keeps the rows changed (`noteCommit`). */
  get tracking(): boolean {
    return this.#changed !== undefined
  }

  get everything(): boolean {
    return this.#everything
  }

  get any(): boolean {
    return this.#everything || (this.#changed !== undefined && this.#changed.size > 0)
  }

  of(table: Table): ReadonlySet<number> | undefined {
    return this.#changed?.get(table)
  }

  tables(): Table[] {
    return this.#changed === undefined ? [] : [...this.#changed.keys()]
  }

  /** Whether work is waiting for `drive`. */
  get pending(): boolean {
    return this.#pending !== undefined
  }

  /**
   * While the work waits outside the thread: a promise that resolves (never rejects) once it may
   * be driven on. Undefined when it is not parked, or its park has settled.
   */
  get parked(): Promise<void> | undefined {
    const park = this.#park
    return park === undefined || park.settled ? undefined : park.done
  }

  /** Tells the scope of a commit made while it is stopped (the datastore's commit listener). */
  noteCommit(changes: readonly Change[], kind: string): void {
    if (this.#changed === undefined) return
    this.#commits++
    if (kind === 'load' || kind === 'restore' || kind === 'replay') {
      this.#everything = true
      return
    }
    for (const c of changes) {
      let rows = this.#changed.get(c.table)
      if (!rows) this.#changed.set(c.table, (rows = new Set()))
      rows.add(
        c.op === 'insert' ? c.record.rowId : c.op === 'update' ? c.after.rowId : c.before.rowId,
      )
    }
  }

  /** Runs `fn` (one run of the request) with this scope current. */
  run<T>(fn: () => T): T {
    const previous = current
    current = this
    this.#point = 0
    this.runs++
    try {
      return fn()
    } finally {
      current = previous
    }
  }

  /**
   * Runs the pending work for one slice (until `timeUp`): true once it is done (its result kept
   * for the next run), false when more slices are needed, or, when a step parked, a promise that
   * resolves once the scope may be driven on (see `parked`; a drive before then runs no step and
   * returns it again). Errors of the work (the budget's, a bug's, a rejected park's: thrown into
   * the work at its yield first) are thrown, and the work is dropped.
   */
  drive(): boolean | Promise<void> {
    const p = this.#pending
    if (!p) return true
    const park = this.#park
    if (park !== undefined) {
      if (!park.settled) return park.done
      this.#park = undefined
    }
    this.slices++
    const outer = current
    const outerStepping = stepping
    current = this
    stepping = this
    this.#driving = true
    try {
      let r = park?.failed ? p.work.throw(park.error) : p.work.next()
      for (;;) {
        if (r.done) {
          this.#pending = undefined
          const kept = { key: p.key, value: r.value, since: p.since }
          if (p.index >= 0) this.#kept[p.index] = kept
          else (this.#keyed ??= new Map()).set(p.key, kept)
          return true
        }
        if (r.value !== undefined) return this.#parkOn(r.value)
        if (this.#timeUp()) return false
        r = p.work.next()
      }
    } catch (error) {
      this.#pending = undefined
      throw error
    } finally {
      this.#driving = false
      current = outer
      stepping = outerStepping
    }
  }

  // The scope waits for `promise`; once it settles, a request gone meanwhile closes the scope.
  #parkOn(promise: Parked): Promise<void> {
    const park: Park = {
      done: promise.then(
        () => this.#settle(park),
        (error: unknown) => {
          park.failed = true
          park.error = error
          this.#settle(park)
        },
      ),
      settled: false,
      failed: false,
      error: undefined,
    }
    this.#park = park
    return park.done
  }

  #settle(park: Park): void {
    park.settled = true
    if (this.#park === park && this.wanted?.() === false) this.close()
  }

  /**
   * Stops driving: the pending work is closed (its `finally` blocks run, parked or not: where a
   * pool's run is cancelled) and dropped.
   */
  cancel(): void {
    const p = this.#pending
    this.#pending = undefined
    this.#park = undefined
    p?.work.return(undefined)
  }

  /** See `once`. */
  once<T>(key: string, effect: () => T): T {
    const effects = (this.#effects ??= new Map())
    if (effects.has(key)) return effects.get(key) as T
    const value = effect()
    effects.set(key, value)
    return value
  }

  /** The result of the current run's next sliceable point (see `sliceable`). */
  point<T>(key: string, make: () => Work<T>, refresh: Refresh<T> | undefined): T {
    // Work met while other work runs (user code inside a scan) is part of it: in one piece,
    // where it may not park (made too without a driving scope: it may ask at its making).
    if (this.#driving) return notDriven(() => finish(make()))
    const index = this.#point++
    const kept = this.#kept[index]
    if (kept !== undefined && kept.key === key) {
      const now = this.#refreshed(kept, refresh)
      if (now !== undefined) return now
    }
    // Not kept (a first run, or a run that took another path), or not refreshable: (re)start it.
    this.#kept.length = index
    const work = make()
    if (this.#restarts > MAX_RESTARTS) return finish(work)
    if (kept !== undefined) this.#restarts++
    return this.#start(index, key, work)
  }

  /** The result of the work `key` names (see `sliceableByKey`). */
  byKey<T>(key: string, make: () => Work<T>, valid: (value: T) => boolean): T {
    if (this.#driving) return notDriven(() => finish(make()))
    const kept = this.#keyed?.get(key)
    if (kept !== undefined) {
      if (kept.since === this.#commits && valid(kept.value as T)) return kept.value as T
      this.#keyed!.delete(key)
    }
    const work = make()
    if (this.#restarts > MAX_RESTARTS) return finish(work)
    if (kept !== undefined) this.#restarts++
    return this.#start(-1, key, work)
  }

  // Starts `work` for the point `index` (-1: by `key`): its result now when it ends in the
  // current slice, else QuerySuspended.
  #start<T>(index: number, key: string, work: Work<T>): T {
    this.#pending = { index, key, work, since: this.#commits }
    // Not done (more slices, or parked at once): the request is suspended either way.
    if (this.drive() === true)
      return (index >= 0 ? this.#kept[index]! : this.#keyed!.get(key)!).value as T
    if (this.#changed === undefined) {
      this.#changed = new Map()
      this.#untrack = this.#track?.(this)
    }
    return fail('QuerySuspended', [])
  }

  // A kept result brought to the data as it is now by this run's `refresh`, or undefined. One
  // whose work began after the last commit is as it is: the changed rows are counted from the
  // scope's first stop, and a result remade after one write was otherwise remade at every run
  // that followed, until MAX_RESTARTS ran it in one piece.
  #refreshed<T>(kept: Kept, refresh: Refresh<T> | undefined): T | undefined {
    if (!this.any || kept.since === this.#commits) return kept.value as T
    if (this.#everything || refresh === undefined) return undefined
    const value = refresh(kept.value as T, this)
    if (value !== undefined) {
      kept.value = value
      kept.since = this.#commits
    }
    return value
  }
}

let current: SliceScope | undefined

/**
 * The result of `make()`'s work: in one piece outside a scope, or inside work the scope is running
 * (a calculated attribute's code that queries); inside one (`SliceScope.run`), kept
 * between the request's runs, run in slices when it does not end within the current one (see the
 * module comment). `key` names the work (the same point of two runs must name the same work);
 * `refresh` brings a kept result up to date with the rows changed since (none: the work is run
 * again when anything changed).
 */
export function sliceable<T>(key: string, make: () => Work<T>, refresh?: Refresh<T>): T {
  const scope = current
  return scope === undefined ? finish(make()) : scope.point(key, make, refresh)
}

/**
 * `sliceable` for work whose point is not always met: a `restrict`'s answer, which a run asks
 * only when no answer is kept elsewhere (the first run that got it keeps it, the next does not
 * ask), so it cannot count among the points. Its result is kept by `key`, and handed to a later
 * run while no commit came since its work began and `valid` says it still holds (what else the
 * work read is as it was); else the work is run again (after MAX_RESTARTS, in one piece).
 */
export function sliceableByKey<T>(
  key: string,
  make: () => Work<T>,
  valid: (value: T) => boolean,
): T {
  const scope = current
  return scope === undefined ? finish(make()) : scope.byKey(key, make, valid)
}

/**
 * The result of `effect()`, done once in a slice scope however many times its request runs (an
 * entity set a read keeps: a second run must not keep a second one); outside a scope, `effect()`.
 * Its result is kept by `key`, not by its place among the sliceable points.
 */
export function once<T>(key: string, effect: () => T): T {
  const scope = current
  return scope === undefined ? effect() : scope.once(key, effect)
}

/** The scope the running code belongs to, if any. */
export function currentScope(): SliceScope | undefined {
  return current
}

/**
 * Runs `fn` outside the current scope: its work runs in one piece and nothing of it is kept.
 * What runs inside a commit (deletion witnesses asking a `restrict`) cannot stop to go on later.
 */
export function outsideSlices<R>(fn: () => R): R {
  const scope = current
  current = undefined
  try {
    return notDriven(fn)
  } finally {
    current = scope
  }
}

// Runs `fn` where no work may park (drivingScope() is undefined).
function notDriven<R>(fn: () => R): R {
  const outer = stepping
  stepping = undefined
  try {
    return fn()
  } finally {
    stepping = outer
  }
}
