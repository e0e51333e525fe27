/**
 * @module Limits on what a request's query texts may hold, each set by the embedder: the length of
 * `$filter`, `$orderby` and their saved forms, the depth of a filter, the number of values in its
 * IN lists (written in the filter or passed as arrays in `$params`). Checked once per request,
 * before the route runs any query: the filters parsed here are cached, so the route's own parse
 * costs nothing more.
 */
import { fail, filterSize, MAX_FILTER_DEPTH, parseCached } from '@entistore/core'
import type { RestParams } from './params.js'

export interface QueryLimits {
  /** Longest `$filter`, `$orderby`, `$savedfilter`, `$savedorderby`, `$subOrderby`, in characters. */
  readonly maxFilterLength: number
  /** Deepest filter (NOT, alternating AND/OR/EXCEPT, relation steps); at most 256, the engine's own. */
  readonly maxFilterDepth: number
  /** Most values in the IN lists of one request (in the filter, plus arrays in `$params`). */
  readonly maxInTerms: number
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({
  maxFilterLength: 65_536,
  maxFilterDepth: MAX_FILTER_DEPTH,
  maxInTerms: 100_000,
})

// Values of $savedfilter that name no filter text (see resources/entity-set.ts).
const NOT_A_FILTER = /^(true|1|\$all)$/i

export function checkQueryLimits(params: RestParams, limits: QueryLimits): void {
  const texts: [string, string | undefined][] = [
    ['$filter', params.filter],
    ['$savedfilter', params.savedFilter],
    ['$orderby', params.orderBy],
    ['$savedorderby', params.savedOrderBy],
    ['$subOrderby', params.subOrderBy],
  ]
  for (const [name, text] of texts) {
    if (text !== undefined && text.length > limits.maxFilterLength) {
      fail('LimitExceeded', [`${name} of ${text.length} characters`, limits.maxFilterLength], {
        details: { parameter: name },
      })
    }
  }
  let inTerms = 0
  for (const v of params.params ?? []) if (Array.isArray(v)) inTerms += v.length
  for (const [name, text] of texts.slice(0, 2)) {
    if (text === undefined || text === '' || (name === '$savedfilter' && NOT_A_FILTER.test(text)))
      continue
    const filter = parseCached(text, name).filter
    if (!filter) continue
    const size = filterSize(filter)
    if (size.depth > limits.maxFilterDepth) {
      fail('LimitExceeded', [`${name} nesting ${size.depth} levels deep`, limits.maxFilterDepth], {
        details: { parameter: name },
      })
    }
    inTerms += size.listItems
  }
  if (inTerms > limits.maxInTerms) {
    fail('LimitExceeded', [`${inTerms} values in IN lists`, limits.maxInTerms], {
      details: { parameter: '$filter' },
    })
  }
}
