/**
 * @module What a request names, read once by the same rules the handler answers it by: the
 * session it gives in the URL, the entity sets it reads, the lock it asks for, and whether it may
 * write. A wrapper that shares sessions, sets and locks between processes reads these here rather
 * than test the raw URL against a pattern: clients form-encode their parameters (`%24lock=true`,
 * `+` for a space) and write keyword names in any case, and a pattern that misses one of those
 * forms lets a request past the shared state (a lock granted twice).
 */
import { parseRestUrl, RELEASE_SEGMENT, type RestTarget } from './parse-rest-url.js'
import { readParams, type RestParams } from './params.js'
import { parseQueryString } from './query-string.js'

/** The `$method` values that read: entity sets made, remade and released. */
export const READ_METHODS: ReadonlySet<string> = new Set(['entityset', 'subentityset', 'release'])

export { RELEASE_SEGMENT } from './parse-rest-url.js'

/** Limits that never refuse: the handler applies its own when it answers. */
const NO_LIMITS = { maxTop: Number.MAX_SAFE_INTEGER }

export interface RequestNames {
  /** The target and parameters, or undefined when the handler will refuse the URL itself. */
  readonly target: RestTarget | undefined
  /** `$4DSID`: a session id given in the URL. The cookie is the caller's to read. */
  readonly sessionId: string | undefined
  /**
   * The entity sets read: the one in the path (`/$entityset/{id}`) and `$otherCollection`. Not
   * those a `POST …/$entityset/$release` names in its body.
   */
  readonly entitySets: readonly string[]
  /** `$lock=true|false` on one entity. */
  readonly lock:
    { readonly dataClass: string; readonly key: string; readonly wanted: boolean } | undefined
  /**
   * Whether answering may change data or stamps: every POST (writes, function calls, uploads)
   * but `$info`'s, and a GET with a `$method` other than the entity-set ones (refused by the
   * handler, but taken as a write rather than guessed at). A `$lock` is not one: a lock changes
   * no data.
   */
  readonly writes: boolean
  /**
   * Whether it is a plain data write (`$method=update` or `delete` on a dataclass or an entity,
   * no function, no attribute path, no set): its answer depends only on the data, the request,
   * its session and the clock, so it may be run again after being undone.
   */
  readonly dataWrite: boolean
}

const NOTHING: Omit<RequestNames, 'writes'> = {
  target: undefined,
  sessionId: undefined,
  entitySets: [],
  lock: undefined,
  dataWrite: false,
}

/** Reads what `request` names; a URL the handler would refuse names nothing. */
export function readRequestNames(
  request: { readonly method: string; readonly path: string; readonly query: string },
  basePath: string,
): RequestNames {
  const post = request.method === 'POST'
  let target: RestTarget
  let params: RestParams
  try {
    const parsed = parseRestUrl(request.path, request.query, basePath)
    if (!parsed) return { ...NOTHING, writes: post }
    target = parsed.target
    params = readParams(parseQueryString(parsed.search), NO_LIMITS)
  } catch {
    return { ...NOTHING, writes: post }
  }
  const entitySets: string[] = []
  if (
    target.kind === 'dataClass' &&
    target.entitySet !== undefined &&
    target.entitySet !== RELEASE_SEGMENT
  )
    entitySets.push(target.entitySet)
  if (params.otherCollection !== undefined) entitySets.push(params.otherCollection)
  const method = params.method
  const lock =
    params.lock !== undefined && target.kind === 'dataClass' && target.key !== undefined
      ? { dataClass: target.dataClass, key: target.key, wanted: params.lock }
      : undefined
  return {
    target,
    sessionId: params.sessionId,
    entitySets,
    lock,
    // A POST of `$info` reads, as its GET does (4D's quota demo sends it).
    writes: (post && target.kind !== 'info') || (method !== undefined && !READ_METHODS.has(method)),
    dataWrite:
      post &&
      (method === 'update' || method === 'delete') &&
      target.kind === 'dataClass' &&
      target.attributes === undefined &&
      target.entitySet === undefined,
  }
}
