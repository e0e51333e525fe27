/**
 * @module `POST /rest/{dataClass}?$method=update` (and `insert`, and a bare `?$atomic=true`): one
 * entity object or an array of them. An object with `__KEY` updates that entity (checking
 * `__STAMP` when given); one without creates an entity.
 *
 * Replies, as the real server writes them (docs/writing.md has every form):
 * - one object saved: the entity with `__STATUS: {success: true}`, `__KEY`, `__STAMP`, `uri`,
 *   `__TIMESTAMP` (`!!YYYY-MM-DD!!`) and its attributes;
 * - one object refused: the entity as stored with `__STATUS` (2 "Stamp has changed", 4, 5, 7, 8) and
 *   `__ERROR`, or `__ERROR` alone for an unknown key (1542); the status is the error's (409, 400, 404);
 * - an array: `{"__ENTITIES": [...]}`, one reply as above per item, 200 (without `$atomic`, the
 *   items that can be saved are, each failing one carries its own `__ERROR`);
 * - with `$atomic`/`$atOnce`, any failing item cancels the batch: nothing is saved and the reply is
 *   the failing item's `__ERROR` followed by 9041, with that error's status. The batch's events
 *   run in steps too, in a transaction open across turns (`atomicUpdate`); the budget's end
 *   (9410) cancels it as a failing item does.
 */
import {
  committedVersion,
  datastoreError,
  fail,
  saveInSteps,
  writeInSteps,
  transactionInSteps,
  workInTurns,
  type Work,
  type DataClass,
  type Datastore,
  type DatastoreError,
  type Entity,
} from '@entistore/core'
import { errorList, isReported, STATUS_BY_CATEGORY } from '../errors/to-error-body.js'
import type { Answer, Reply } from '../reply.js'
import type { EntityWriter } from '../serialize/entity.js'
import type { Permissions } from '../permissions.js'
import type { UploadStore } from '../uploads/upload-store.js'
import { saveStatusJson } from './save-status-json.js'
import { withUploads } from './upload-values.js'
import { inTransaction } from './in-transaction.js'
import { bodyObjects, readWriteItem, type WriteItem } from './write-items.js'

export interface UpdateRequest {
  readonly ds: Datastore
  readonly dc: DataClass
  readonly writer: EntityWriter
  readonly body: unknown
  /** `$method=insert`: every item must be new. */
  readonly insert: boolean
  readonly atomic: boolean
  /** The session's permissions: each item needs create or update, each value its attribute's update. */
  readonly perms?: Permissions | undefined
  /** The files `{"ID": …}` values name (`POST /rest/$upload`). */
  readonly uploads: UploadStore
}

const SUCCESS = '{"success":true}'

/** The outcome of one item: what its save gave (the saved entity), or why it was not saved. */
type Outcome<T = Entity> =
  | { readonly ok: true; readonly saved: T }
  | { readonly ok: false; readonly error: DatastoreError; readonly item: Partial<WriteItem> }
type Refusal = Extract<Outcome, { ok: false }>

export function update(req: UpdateRequest): Answer {
  const { dc, writer } = req
  const what = `$method=${req.insert ? 'insert' : 'update'} takes an entity object or an array of them`
  const objects = bodyObjects(req.body, what)
  const many = Array.isArray(req.body)
  if (req.insert) {
    const keyed = objects.findIndex((o) => o.__KEY !== undefined && o.__KEY !== null)
    if (keyed >= 0)
      throw datastoreError('BadRequestBody', [
        `$method=insert creates entities: item ${keyed} has a "__KEY" (use $method=update)`,
      ])
  }
  if (req.atomic && many) return atomicUpdate(req, objects)
  // In slices: the entity events before each save run in steps (a `saving` event that loops
  // holds no other client), and a long array goes a slice at a time, items saved in turn.
  return workInTurns(updateSteps(req, objects, many), req.ds.clock)
}

function* updateSteps(
  req: UpdateRequest,
  objects: readonly Record<string, unknown>[],
  many: boolean,
): Work<Reply> {
  const { writer } = req
  if (!many) {
    const outcome = yield* saveOneSteps(req, objects[0]!, 0)
    if (outcome.ok) return { status: 200, body: writer.written(outcome.saved, SUCCESS) }
    return { status: STATUS_BY_CATEGORY[outcome.error.category], body: refusal(req, outcome) }
  }
  // Each item's reply is written as soon as it is saved or refused: a refused item shows the
  // entity as it was then, not as later items of the same body left it.
  const members: string[] = []
  for (let index = 0; index < objects.length; index++) {
    if (index > 0) yield
    const o = yield* saveOneSteps(req, objects[index]!, index)
    members.push(o.ok ? writer.written(o.saved, SUCCESS) : refusal(req, o, true))
  }
  return { status: 200, body: `{"__ENTITIES":[${members.join(',')}]}` }
}

/**
 * One item saved in a transaction of its own (`whole`), its restrict and entity events before
 * the write in steps (core's `saveInSteps`): another write of the entity meanwhile refuses this
 * one by its stamp, as any optimistic save is refused.
 */
const saveOneSteps = (req: UpdateRequest, raw: Record<string, unknown>, index: number) =>
  itemSteps(req, raw, index, (item) => saveItemSteps(req, item))

// One item's save in steps: its uploads looked up once its key is known (a refusal shows the
// entity as stored), its restrict and events in steps, then its write.
function* saveItemSteps(req: UpdateRequest, item: WriteItem): Work<Entity> {
  const values = withUploads(req.dc, item.values, req.uploads)
  const check = item.key === undefined ? undefined : { stamp: item.stamp }
  const write = yield* saveInSteps(req.dc, item.key, values, check)
  // Its `afterSave` in steps too, once the write has committed.
  return yield* writeInSteps(() => whole(req, write))
}

// The item read from its object, then `save`d: its outcome, a reported error as a refusal.
function* itemSteps<T>(
  req: UpdateRequest,
  raw: Record<string, unknown>,
  index: number,
  save: (item: WriteItem) => Work<T>,
): Work<Outcome<T>> {
  let item: Partial<WriteItem> = { index }
  try {
    const read = readWriteItem(req.dc, raw, index, req.perms)
    item = read
    return { ok: true, saved: yield* save(read) }
  } catch (error) {
    if (!isReported(error)) throw error
    return { ok: false, error, item }
  }
}

/** Thrown to roll back the transaction of a `$refresh`, once its entity is written. */
class Refreshed {
  constructor(readonly text: string) {}
}

/**
 * `$method=update&$refresh=true` (Wakanda's `entity.recompute()`): one entity object, answered as
 * the save would leave it (computed attributes included) with the stamp the client holds (0 for a
 * new one), and nothing saved: the save runs in a transaction rolled back once the entity is
 * written. A refused save answers as `$method=update` would. The save's events run in steps, in
 * turns, when they may stop (in-transaction.ts): its transaction, open across them, is the
 * request's own, and nothing of it is seen by another client.
 */
export function refresh(req: UpdateRequest): Answer {
  if (Array.isArray(req.body))
    fail('BadRequestBody', ['$method=update&$refresh=true takes one entity object, not an array'])
  const [raw] = bodyObjects(req.body, '$method=update&$refresh=true takes an entity object')
  return inTransaction(req.dc, (acrossTurns) => refreshSteps(req, raw!, acrossTurns))
}

function* refreshSteps(
  req: UpdateRequest,
  raw: Record<string, unknown>,
  acrossTurns: boolean,
): Work<Reply> {
  const outcome = yield* itemSteps(req, raw, 0, (item) => refreshedSteps(req, item, acrossTurns))
  if (outcome.ok) return { status: 200, body: outcome.saved }
  return { status: STATUS_BY_CATEGORY[outcome.error.category], body: refusal(req, outcome) }
}

// The item saved, its events in steps, and written out, in a transaction then rolled back.
function* refreshedSteps(req: UpdateRequest, item: WriteItem, acrossTurns: boolean): Work<string> {
  // The stored version, read before the transaction: inside it, a read by key sees its write.
  const stored = item.key === undefined ? null : req.dc.get(item.key)
  // Uploads are looked up here, once the item's key is known: a refusal shows the entity as stored.
  const values = withUploads(req.dc, item.values, req.uploads)
  const check = item.key === undefined ? undefined : { stamp: item.stamp }
  const written = function* (): Work<never> {
    const entity = (yield* saveInSteps(req.dc, item.key, values, check))()
    throw new Refreshed(req.writer.unsaved(entity, stored?.getStamp() ?? 0))
  }
  try {
    return yield* transactionInSteps(req.ds, written(), acrossTurns)
  } catch (thrown) {
    if (thrown instanceof Refreshed) return thrown.text
    throw thrown
  }
}

/**
 * `write`, kept only if its reply can be written: a computed attribute's getter that fails on the
 * saved entity (4D code reading an attribute left null) would otherwise answer an error for a save
 * that stands, and a client that tries again creates a second entity. The save and a first
 * writing of its reply are one transaction level, cancelled by the getter's error; the reply the
 * client gets is written again once committed (its stamps are the commit's). Dataclasses without
 * computed attributes, whose replies cannot fail so, skip the first writing.
 */
function whole(req: UpdateRequest, write: () => Entity): Entity {
  if (!hasComputed(req.dc)) return write()
  return req.ds.transaction(() => {
    const entity = write()
    req.writer.written(entity, SUCCESS)
    return entity
  })
}

const hasComputed = (dc: DataClass): boolean =>
  dc.def.attributes.some((a) => a.kind === 'calculated')

/**
 * All items in one transaction: the first failure cancels them all. The items' events run in
 * steps, in turns, when they may stop (in-transaction.ts).
 */
const atomicUpdate = (req: UpdateRequest, objects: readonly Record<string, unknown>[]): Answer =>
  inTransaction(req.dc, (acrossTurns) => atomicSteps(req, objects, acrossTurns))

function* atomicSteps(
  req: UpdateRequest,
  objects: readonly Record<string, unknown>[],
  acrossTurns: boolean,
): Work<Reply> {
  const { ds, dc, writer } = req
  let failed: Partial<WriteItem> = {}
  const items = function* (): Work<Entity[]> {
    const saved: Entity[] = []
    for (let index = 0; index < objects.length; index++) {
      failed = { index }
      const item = readWriteItem(dc, objects[index]!, index, req.perms)
      failed = item
      saved.push(yield* saveItemSteps(req, item))
    }
    return saved
  }
  try {
    const saved = yield* transactionInSteps(ds, items(), acrossTurns)
    // As committed: a tracked dataclass's commit wrote each one's global stamp.
    const members = saved.map((e) => writer.written(committedVersion(e), SUCCESS))
    return { status: 200, body: `{"__ENTITIES":[${members.join(',')}]}` }
  } catch (error) {
    if (!isReported(error)) throw error
    const errors = saveErrors(req, error, failed)
    errors.push(datastoreError('BatchCancelled', [(failed.index ?? 0) + 1, objects.length]))
    return {
      status: STATUS_BY_CATEGORY[error.category],
      body: JSON.stringify({ __ERROR: errorList(errors) }),
    }
  }
}

/**
 * The reply for an item that was not saved. An update whose entity exists shows it as stored (the
 * real server's stamp-error reply); a refused creation, `__STATUS` and `__ERROR`; an unknown key,
 * `__ERROR` alone (with `__KEY` and `__STATUS` inside an array, so the item can be told apart).
 */
function refusal(req: UpdateRequest, failure: Refusal, inArray = false): string {
  const { error, item } = failure
  const status = statusJson(error)
  const errors = JSON.stringify(errorList(saveErrors(req, error, item)))
  const current = item.key === undefined ? null : req.dc.get(item.key)
  if (current) return req.writer.written(current, status, errors)
  if (item.key !== undefined && inArray)
    return `{"__KEY":${JSON.stringify(String(item.key))},"__STATUS":${status},"__ERROR":${errors}}`
  if (item.key !== undefined) return `{"__ERROR":${errors}}`
  return `{"__STATUS":${status},"__ERROR":${errors}}`
}

const statusJson = saveStatusJson

/**
 * The error stack of a refused save, as the real server lists it: the cause first, then 1046 for a
 * stamp error, then "the entity cannot be saved" (1517, or 1534 for a new entity). An unknown key
 * is 1542 alone.
 */
function saveErrors(
  req: UpdateRequest,
  error: DatastoreError,
  item: Partial<WriteItem>,
): DatastoreError[] {
  const errors = error.stack4D()
  if (error.name === 'EntityNotFound') return errors
  const { dc, ds } = req
  if (error.name === 'StampChanged') {
    const record = item.key === undefined ? null : dc.get(item.key)
    errors.push(datastoreError('RecordCannotBeSaved', [record?.rowId ?? 0, dc.name, ds.name]))
  }
  errors.push(
    item.key === undefined
      ? datastoreError('NewEntityCannotBeSaved', [dc.name])
      : datastoreError('EntityCannotBeSaved', [String(item.key), dc.name]),
  )
  return errors
}
