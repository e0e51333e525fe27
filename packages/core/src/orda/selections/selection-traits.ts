/**
 * @module What a selection is besides its members, as the files that make selections give it (the
 * query engine, entity sets, the DataClass): a file of its own below entity-selection.ts, so that
 * they name it without importing the selection class.
 */

/** What a selection is besides its members (4D's ordered, alterable, and a query's description). */
export interface SelectionTraits {
  /** 4D's ordered entity selection: made by an order, keeps duplicates. @default false */
  readonly ordered?: boolean
  /** 4D's alterable entity selection: `add()` changes it. @default false */
  readonly alterable?: boolean
  /** 4D's `queryPlan` of the query that made it, when its settings asked for it. */
  readonly queryPlan?: unknown
  /** 4D's `queryPath` of the query that made it, when its settings asked for it. */
  readonly queryPath?: unknown
}

/** @internal The traits of an ordered, shareable selection. */
export const ORDERED: SelectionTraits = Object.freeze({ ordered: true })
