/**
 * @module The functions of 4D's Collection class as code calls them (`$c.push(1)`,
 * docs/API/CollectionClass.md), by name: `rt.call` looks a collection's member function up here
 * (runtime/index.ts gives the table to the context). Each receives the running context, the
 * collection and the parameters; the table checks their number. One file a family
 * (collection/*.ts); `.length` is a property (ops/members.ts).
 */
import { AGGREGATING } from './collection/aggregating.js'
import { buildCollectionFunctions } from './collection/define.js'
import { MUTATING } from './collection/mutating.js'
import { QUERYING } from './collection/querying.js'
import { SEARCHING } from './collection/searching.js'
import { SORTING } from './collection/sorting.js'
import { TRANSFORMING } from './collection/transforming.js'

export type { CollectionFunction, CollectionFunctionEntry } from './collection/define.js'

const BUILT = buildCollectionFunctions([
  MUTATING,
  SEARCHING,
  TRANSFORMING,
  AGGREGATING,
  SORTING,
  QUERYING,
])

export const COLLECTION_FUNCTIONS = BUILT.functions

/** The steps of the functions that have them (values/work.ts), for a call in slices. */
export const COLLECTION_STEPS = BUILT.steps

/** Every collection function with its signature (for the documentation and its test). */
export const COLLECTION_FUNCTION_ENTRIES = BUILT.entries
