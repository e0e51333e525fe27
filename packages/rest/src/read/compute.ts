/** @module `$compute`: aggregates of one attribute over the selection a read names. */
import { fail } from '@entistore/core'
import type { Reply } from '../route.js'
import type { ComputedRead } from './read-request.js'

export function computeReply(_read: ComputedRead, _keyword: string): Reply {
  return fail('NotImplemented', ['The $compute parameter'])
}
