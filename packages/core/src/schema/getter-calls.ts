/**
 * @module A computed attribute's getter as core calls it (its `compute`, which model-draft.ts makes
 * of its `get` and `getSteps`): at once, as every caller has it, or, for a row that work in slices
 * runs alone (query/row-steps.ts `codeStep`), in steps that the work goes into.
 *
 * Inside such a row, a call of a getter that has steps runs its first step at once; one that
 * goes on past it (a loop of more than some 4,096 passes) is thrown out of the row with its work
 * (`GetterInSteps`): the loop runs the rest a step at a time, so that a call that runs long stops
 * inside its own code, keeps its value, and runs the row again, which finds the value kept. A
 * row's test, key or aggregate has no effect before its row ends, so running the row again
 * changes nothing. The answers are the row's alone, dropped when it ends.
 *
 * The row is a module-level "current row", as the query budget is (query/budget.ts): the getters
 * are reached through predicates, orderings and entities made long before, and JavaScript runs
 * one call stack at a time. It is current only while the row's own code runs: not while a getter
 * called at once runs (its code may read other getters, which it could not be stopped inside),
 * nor in a loop run in one piece inside the row.
 */
import type { CalculatedFn, ComputedAttributeFunctions, EntityView } from './definitions.js'

type Get = NonNullable<ComputedAttributeFunctions['get']>
type GetSteps = NonNullable<ComputedAttributeFunctions['getSteps']>

/** The getter calls one row has answered, by getter and entity key: kept while the row runs again. */
export class RowAnswers {
  // Triples: the getter, the entity's key, the value (a row calls few getters: a scan finds them),
  // in place from one row to the next (an array emptied and grown again at every row cost more).
  readonly #kept: unknown[] = []
  #size = 0
  /** The getter call in steps that stopped the row, until its work is run (see runRows). */
  waiting: GetterInSteps | undefined

  /** The answer of `getter` for `key`'s entity, if kept: its place, or -1. */
  find(getter: CalculatedFn, key: unknown): number {
    const kept = this.#kept
    for (let i = 0; i < this.#size; i += 3) if (kept[i] === getter && kept[i + 1] === key) return i
    return -1
  }

  value(at: number): unknown {
    return this.#kept[at + 2]
  }

  keep(getter: CalculatedFn, key: unknown, value: unknown): void {
    const kept = this.#kept
    const at = this.#size
    kept[at] = getter
    kept[at + 1] = key
    kept[at + 2] = value
    this.#size = at + 3
  }

  /** Drops them: the row ended. */
  clear(): void {
    if (this.#size === 0) return
    this.#kept.fill(undefined, 0, this.#size)
    this.#size = 0
  }
}

/**
 * What a getter with steps throws out of a row run alone when its call did not end in its first
 * step: the rest of its work (stopped where its code yielded), and where its value goes once the
 * work has returned it.
 */
export class GetterInSteps {
  constructor(
    readonly work: Generator<void, unknown, void>,
    readonly row: RowAnswers,
    readonly getter: CalculatedFn,
    readonly key: unknown,
  ) {}

  /** Keeps the value the work returned, for the row's next run. */
  keep(value: unknown): void {
    this.row.keep(this.getter, this.key, value)
  }
}

// The answers of the row running alone, while its own code runs; undefined anywhere else.
let row: RowAnswers | undefined

// The answers made ahead of a reply (AnswersAhead), while the reply is written; else undefined.
let ahead: AnswersAhead | undefined

// The steps form of each getter that has one (`getterSteps`).
const stepsForms = new WeakMap<CalculatedFn, GetSteps>()

/**
 * Runs rows [from, to) of a loop one after the other (`step(at, at + 1)`), each alone, with
 * `answers` as its own: the row reached, `to` once every row has ended, else the row a getter
 * call in steps stopped before its end (`answers.waiting` then holds the call; nothing of the row
 * is done: it runs again once the call's value is kept).
 */
export function runRows(
  answers: RowAnswers,
  step: (from: number, to: number) => void,
  from: number,
  to: number,
): number {
  const outer = row
  row = answers
  let at = from
  try {
    for (; at < to; at++) {
      step(at, at + 1)
      answers.clear()
    }
  } catch (error) {
    if (!(error instanceof GetterInSteps && error.row === answers)) throw error
    answers.waiting = error
  } finally {
    row = outer
  }
  return at
}

/**
 * Runs `step(from, to)` outside any row: its getters are called at once. A loop run in one piece
 * inside a row alone (a read the row's code makes) is not that row.
 */
export function stepOutsideRows(
  step: (from: number, to: number) => void,
  from: number,
  to: number,
): void {
  const outer = row
  row = undefined
  try {
    step(from, to)
  } finally {
    row = outer
  }
}

/**
 * The getter core calls (`compute`) for `get` and its steps form: `get` at once, but inside a row
 * run alone, where a call answered already in this row gives the kept value, and another is made
 * outside the row and kept: one with steps runs its first step at once (most calls end in it),
 * and one that goes on is thrown out of the row with its work (GetterInSteps), stopped there.
 */
export function computedGetter(get: Get, getSteps: GetSteps | undefined): CalculatedFn {
  const getter = (entity: EntityView): unknown =>
    row !== undefined
      ? inRow(row, entity)
      : ahead === undefined
        ? get.call(entity, entity)
        : ahead.answer(getter, entity, get)
  const inRow = (answers: RowAnswers, entity: EntityView): unknown => {
    const key = entity.getKey()
    const at = answers.find(getter, key)
    if (at >= 0) return answers.value(at)
    row = undefined
    let value: unknown
    try {
      const work = getSteps?.call(entity, entity)
      if (work === undefined) value = get.call(entity, entity)
      else {
        const first = work.next()
        if (first.done !== true) throw new GetterInSteps(work, answers, getter, key)
        value = first.value
      }
    } finally {
      row = answers
    }
    answers.keep(getter, key, value)
    return value
  }
  if (getSteps !== undefined) stepsForms.set(getter, getSteps)
  return getter
}

/**
 * The work of one call of `getter` for `entity` in steps, its value returned at its end: undefined
 * when the getter has no steps form, or declines one now (4D code running: the caller calls it at
 * once).
 */
export function getterSteps(
  getter: CalculatedFn | undefined,
  entity: EntityView,
): Generator<void, unknown, void> | undefined {
  const steps = getter === undefined ? undefined : stepsForms.get(getter)
  return steps?.call(entity, entity)
}

/** Whether `getter` has a steps form (a 4D project's getter). */
export function hasGetterSteps(getter: CalculatedFn | undefined): boolean {
  return getter !== undefined && stepsForms.has(getter)
}

/** What one getter call made ahead ended with: its value, or what it threw. */
export type GetterAnswer = { readonly value: unknown } | { readonly error: unknown }

/**
 * The values of getter calls made ahead of a reply (query/getters-ahead.ts: in steps, in the
 * read's slices), by getter and entity key, which the reply's writing finds
 * (`withAnswersAhead`) instead of calling the getters at once: what a getter threw is thrown
 * there again, as its call would have. A call not made ahead (an entity not of the page, a
 * getter without steps) is made at once.
 */
export class AnswersAhead {
  readonly #byGetter = new Map<CalculatedFn, Map<unknown, GetterAnswer>>()

  /** Keeps what the call of `getter` for the entity of `key` ended with. */
  keep(getter: CalculatedFn, key: unknown, answer: GetterAnswer): void {
    let answers = this.#byGetter.get(getter)
    if (answers === undefined) this.#byGetter.set(getter, (answers = new Map()))
    answers.set(key, answer)
  }

  /** Whether the call of `getter` for the entity of `key` has its answer kept. */
  has(getter: CalculatedFn, key: unknown): boolean {
    return this.#byGetter.get(getter)?.has(key) === true
  }

  /** The kept answer of `getter` for `entity`, else `get`'s (its plain form), called at once. */
  answer(
    getter: CalculatedFn,
    entity: EntityView,
    get: (this: EntityView, entity: EntityView) => unknown,
  ): unknown {
    const kept = this.#byGetter.get(getter)?.get(entity.getKey())
    if (kept === undefined) return get.call(entity, entity)
    if ('error' in kept) throw kept.error
    return kept.value
  }
}

/** The answers the running code's getters find (`withAnswersAhead`), if any. */
export function currentAnswersAhead(): AnswersAhead | undefined {
  return ahead
}

/** Runs `fn` (a reply's writing) where the getters find `answers`' values. */
export function withAnswersAhead<T>(answers: AnswersAhead, fn: () => T): T {
  const outer = ahead
  ahead = answers
  try {
    return fn()
  } finally {
    ahead = outer
  }
}
