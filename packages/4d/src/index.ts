/**
 * @module The 4D language package's public entry: parsing, compiling and running 4D code on a
 * datastore of `@entistore/core`.
 */
export const LANGUAGE_PACKAGE = '@entistore/4d'
