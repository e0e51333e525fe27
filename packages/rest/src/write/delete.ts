/**
 * @module `$method=delete`: by key (`POST /rest/Employee(22)?$method=delete`), by `$filter`
 * (every matching entity, in one transaction), or by a body of keys (`[{"__KEY": "200"}, …]`,
 * all-or-nothing with `$atomic`). Each answers `{"ok": true}`. Deleting a key that does not exist is
 * an error (1542, 404), never `ok`. Entity events that may stop (4D code's) run in steps, in turns:
 * one that loops holds no other client. A request that names no entity (no key, no filter, no body of
 * keys) is refused rather than read as "delete everything".
 */
import {
  datastoreError,
  dropAllSteps,
  dropInSteps,
  fail,
  parseCached,
  runQuery,
  toKey,
  transactionInSteps,
  workInTurns,
  writeInSteps,
  writesMayStop,
  type DataClass,
  type Datastore,
  type EntitySelection,
  type KeyValue,
  type Work,
} from '@entistore/core'
import { errorList, isReported, STATUS_BY_CATEGORY } from '../errors/to-error-body.js'
import type { Answer, Reply } from '../reply.js'
import { saveStatusJson } from './save-status-json.js'
import { bodyObjects } from './write-items.js'
import { inTransaction } from './in-transaction.js'

const OK: Reply = { status: 200, body: '{"ok":true}' }

export interface DeleteRequest {
  readonly ds: Datastore
  readonly dc: DataClass
  /** The key in the path, as written. */
  readonly key: string | undefined
  readonly filter: string | undefined
  readonly params: readonly unknown[] | undefined
  readonly body: unknown
  readonly atomic: boolean
}

export function deleteEntities(req: DeleteRequest): Answer {
  const { dc } = req
  const keys = bodyKeys(req.body)
  const named =
    (req.key !== undefined ? 1 : 0) + (req.filter !== undefined ? 1 : 0) + (keys ? 1 : 0)
  if (named === 0) {
    return fail('MethodNotApplicable', [
      'delete',
      `the whole ${dc.name} dataclass: name the entities with a key, a $filter or a body of keys`,
    ])
  }
  if (named > 1) {
    return fail('MethodNotApplicable', [
      'delete',
      'a request that names its entities in more than one way (a key, a $filter, a body of keys)',
    ])
  }
  // In slices: the `validateDrop` and `dropping` events before each drop run in steps (one that
  // loops holds no other client), and a body of keys goes a slice at a time, dropped in turn.
  if (req.key !== undefined) return workInTurns(dropOne(dc, req.key), req.ds.clock)
  if (req.filter !== undefined) {
    const query = parseCached(req.filter, '$filter')
    const found = runQuery(dc, query, {
      exposedOnly: true,
      ...(req.params ? { params: req.params } : {}),
    })
    // Without code that may stop, in one piece as before; else in turns (dropFound).
    if (!writesMayStop(dc)) {
      found.selection.dropOrFail()
      return OK
    }
    return workInTurns(dropFound(req, found.selection), req.ds.clock)
  }
  return req.atomic ? dropAtomically(req, keys!) : workInTurns(dropEach(req, keys!), req.ds.clock)
}

function* dropOne(dc: DataClass, key: unknown): Work<Reply> {
  // Its `afterDrop` in steps too, once the drop has committed.
  yield* writeInSteps(yield* dropInSteps(dc, key))
  return OK
}

/**
 * The entities a `$filter` found, dropped in one transaction open across turns, the first refusal
 * (or the budget's end, 9410) cancelling all: each one's `validateDrop` and `dropping` events in
 * steps, its `afterDrop` in steps too once the transaction is validated (core's `dropAllSteps`).
 */
function* dropFound(req: DeleteRequest, selection: EntitySelection): Work<Reply> {
  yield* transactionInSteps(req.ds, dropAllSteps(req.dc, selection))
  return OK
}

/** The keys of a body of `{"__KEY": …}` objects; undefined when the body names none (`{}`, empty). */
function bodyKeys(body: unknown): unknown[] | undefined {
  if (body === undefined) return undefined
  if (!Array.isArray(body) && typeof body === 'object' && body !== null && !('__KEY' in body))
    return Object.keys(body).length === 0
      ? undefined
      : fail('BadRequestBody', ['$method=delete takes {"__KEY": …} objects'])
  return bodyObjects(body, '$method=delete takes {"__KEY": …} objects').map((o, i) =>
    o.__KEY === undefined || o.__KEY === null
      ? fail('BadRequestBody', [`item ${i} has no "__KEY"`])
      : o.__KEY,
  )
}

/**
 * Every key dropped in one transaction, the first failure cancelling all; the events in steps, in
 * turns, when they may stop (in-transaction.ts).
 */
const dropAtomically = (req: DeleteRequest, keys: readonly unknown[]): Answer =>
  inTransaction(req.dc, (acrossTurns) => dropAtomicSteps(req, keys, acrossTurns))

function* dropAtomicSteps(
  req: DeleteRequest,
  keys: readonly unknown[],
  acrossTurns: boolean,
): Work<Reply> {
  let at = 0
  const drops = function* (): Work<void> {
    for (at = 0; at < keys.length; at++) (yield* dropInSteps(req.dc, keys[at]))()
  }
  try {
    yield* transactionInSteps(req.ds, drops(), acrossTurns)
    return OK
  } catch (error) {
    if (!isReported(error)) throw error
    const errors = [...error.stack4D(), datastoreError('BatchCancelled', [at + 1, keys.length])]
    return {
      status: STATUS_BY_CATEGORY[error.category],
      body: JSON.stringify({ __ERROR: errorList(errors) }),
    }
  }
}

/** Each key deleted on its own: `ok` if all were, else one result per key (200). */
function* dropEach(req: DeleteRequest, keys: readonly unknown[]): Work<Reply> {
  const results: string[] = []
  let failures = 0
  for (const raw of keys) {
    if (results.length > 0) yield
    let key: KeyValue | string = String(raw)
    try {
      key = toKey(req.dc.def, raw)
      yield* writeInSteps(yield* dropInSteps(req.dc, key))
      results.push(`{"__KEY":${JSON.stringify(String(key))},"__STATUS":{"success":true}}`)
    } catch (error) {
      if (!isReported(error)) throw error
      failures++
      const status = saveStatusJson(error)
      results.push(
        `{"__KEY":${JSON.stringify(String(key))},"__STATUS":${status},"__ERROR":${JSON.stringify(errorList(error.stack4D()))}}`,
      )
    }
  }
  return failures === 0 ? OK : { status: 200, body: `{"__ENTITIES":[${results.join(',')}]}` }
}
