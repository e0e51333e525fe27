/**
 * @module The bare symbols a command takes as arguments (`SORT ARRAY($a; >)`,
 * `Position($a; $b; 1; *)`, `QUERY`'s conjunctions `&`, `|`, `#`): compiled code passes them as
 * these values (`rt.sym["*"]`).
 */
/**
 * The bare symbols, one member each: an interface rather than a `Record` of a union, whose
 * members a declaration printer lists in whatever order the compiler met them (the API report
 * changed with the order files were read).
 */
export interface CommandSymbols {
  /** `*`: the optional star of many commands (`Position($a; $b; 1; *)`). */
  readonly '*': symbol
  /** `>`: ascending (`SORT ARRAY($a; >)`). */
  readonly '>': symbol
  /** `<`: descending. */
  readonly '<': symbol
  /** `&`: a query's AND. */
  readonly '&': symbol
  /** `|`: a query's OR. */
  readonly '|': symbol
  /** `#`: a query's EXCEPT. */
  readonly '#': symbol
}

export const SYMBOLS: CommandSymbols = Object.freeze({
  '*': Symbol.for('@entistore/4d:*'),
  '>': Symbol.for('@entistore/4d:>'),
  '<': Symbol.for('@entistore/4d:<'),
  '&': Symbol.for('@entistore/4d:&'),
  '|': Symbol.for('@entistore/4d:|'),
  '#': Symbol.for('@entistore/4d:#'),
})
