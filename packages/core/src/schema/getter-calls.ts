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

// Whether a getter with steps was given to a model made in this process.
let stepsGiven = false

/**
 * Whether a getter with steps was given to any model of the process (a 4D project's): where none
 * was, no row needs to run alone, and a loop runs its rows as it did before any had steps.
 */
export function anyGetterSteps(): boolean {
  return stepsGiven
}

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
  if (getSteps !== undefined) stepsGiven = true
  const getter = (entity: EntityView): unknown =>
    row === undefined ? get.call(entity, entity) : inRow(row, entity)
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
  return getter
}
