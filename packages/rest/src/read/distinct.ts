/** @module `$distinct=true`: the distinct values of one attribute over the selection a read names. */
import { fail } from '@entistore/core'
import type { Reply } from '../route.js'
import type { ComputedRead } from './read-request.js'

export function distinctReply(_read: ComputedRead): Reply {
  return fail('NotImplemented', ['The $distinct parameter'])
}
