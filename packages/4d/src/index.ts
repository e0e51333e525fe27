/**
 * @module The 4D language package's public entry: parsing, compiling and running 4D code on a
 * datastore of `@entistore/core`.
 */
export const LANGUAGE_PACKAGE = '@entistore/4d'

export { parse4d, parseExpression, problemsOf } from './grammar/parse.js'
export type { Parse4dOptions, Parse4dResult, ParseProblem } from './grammar/parse.js'
export type * from './ast/index.js'
export { Ast, childrenOf, walk, formatLoc } from './ast/index.js'
