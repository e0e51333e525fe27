/**
 * @module Where a node stands in its source text. Every AST node carries a `loc` whose `start` is its
 * first character and `end` the position just past its last one (peggy's convention), so that the
 * compiler can name the file's line and column in a 4D error and `entistore check` can print them.
 */

/** A point in a source text: `line` and `column` count from 1, `offset` (UTF-16 units) from 0. */
export interface Position {
  readonly line: number
  readonly column: number
  readonly offset: number
}

/** The span of a node: from `start` (included) to `end` (excluded). */
export interface Loc {
  readonly start: Position
  readonly end: Position
}

/**
 * A loc from peggy's `location()` (or any object with `start` and `end`), without its `source`.
 * The positions are frozen in place: peggy makes new ones at each call.
 */
export function toLoc(location: { readonly start: Position; readonly end: Position }): Loc {
  return Object.freeze({ start: Object.freeze(location.start), end: Object.freeze(location.end) })
}

/** `line:column-line:column`, the short form the golden files and messages use. */
export function formatLoc(loc: Loc): string {
  return `${loc.start.line}:${loc.start.column}-${loc.end.line}:${loc.end.column}`
}
