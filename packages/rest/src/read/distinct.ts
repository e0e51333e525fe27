/**
 * @module `$distinct=true`: the distinct values of one attribute over the selection a read names.
 *
 * `GET /rest/Company/name?$filter="name=a*"&$distinct=true` answers a JSON array: nulls left out,
 * ascending (texts as `$orderby` orders them), texts that differ only by case or accents once, in
 * the spelling of the entity created first. `$skip` and `$top` apply to the list of values; without
 * `$top` the whole list is sent (the dataclass's page size is for entities).
 */
import type { Reply } from '../reply.js'
import { onePath, valueForm } from './compute.js'
import type { ComputedRead } from './read-request.js'

export function distinctReply(read: ComputedRead): Reply {
  const path = onePath(read, '$distinct=true')
  const values = read.selection.distinct(path)
  const skip = read.window.skip
  const top = read.params.top ?? Infinity
  const page = skip === 0 && top >= values.length ? values : values.slice(skip, skip + top)
  const form = valueForm(read.dc, path)
  return { status: 200, body: JSON.stringify(page.map(form)) }
}
