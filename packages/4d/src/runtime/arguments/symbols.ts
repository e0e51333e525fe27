/**
 * @module The bare symbols a command takes as arguments (`SORT ARRAY($a; >)`,
 * `Position($a; $b; 1; *)`, `QUERY`'s conjunctions `&`, `|`, `#`): compiled code passes them as
 * these values (`rt.sym["*"]`).
 */
export const SYMBOLS: Readonly<Record<'*' | '>' | '<' | '&' | '|' | '#', symbol>> = Object.freeze({
  '*': Symbol.for('@entistore/4d:*'),
  '>': Symbol.for('@entistore/4d:>'),
  '<': Symbol.for('@entistore/4d:<'),
  '&': Symbol.for('@entistore/4d:&'),
  '|': Symbol.for('@entistore/4d:|'),
  '#': Symbol.for('@entistore/4d:#'),
})
