/**
 * @module POST on a dataclass: `$method=update`, `insert` or `delete`, and `delete` on an entity
 * set, checked here and carried out by write/; the release of entity sets (`$entityset/$release`). The router runs it as the session, so that an entity
 * another session or a process has locked refuses it.
 */
import { fail, toKey, type DataClass } from '@entistore/core'
import type { RestTarget } from '../url/parse-rest-url.js'
import { RELEASE_SEGMENT } from '../url/request-names.js'
import { deleteEntities } from '../write/delete.js'
import { refresh, update } from '../write/update.js'
import { ok, type Answer } from '../reply.js'
import { exposedDataClass, type RouteContext } from './context.js'
import { findSet, releaseEntitySets } from './entity-set.js'
import { writeAttribute } from './upload.js'
import { rawWriteTarget } from '../uploads/raw-target.js'

/** The $method values that change data: POST only (a GET must never write). */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['update', 'insert', 'delete'])

/**
 * POST: `$method=update` / `insert` / `delete` on a dataclass (a bare `$atomic=true` with a body
 * is an update, as Qodly documents, and so is an entity posted to its own URL, as Wakanda's client
 * does); without them, on `{dataClass}({key})/{attribute}`, a file's bytes for that attribute
 * (resources/upload.ts). Everything else is refused before the body is looked at.
 */
export function write(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
): Answer {
  const { params } = ctx
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  const perms = ctx.perms
  if (target.entitySet !== undefined) {
    // `POST /rest/Employee/$entityset/$release` with a body of ids (4D 21 R4): no `$method`.
    if (target.entitySet === RELEASE_SEGMENT) return releaseEntitySets(ctx, dc)
    // `POST /rest/Employee/$entityset/{id}?$method=delete`: the set's entities (those still there).
    if (params.method !== 'delete')
      return fail('MethodNotApplicable', [
        params.method ?? '(none)',
        'an entity set (POST takes $method=delete)',
      ])
    perms?.need('delete', dc.name)
    findSet(ctx, dc, target.entitySet).selection.dropOrFail()
    return ok('{"ok":true}')
  }
  const itself = params.method === undefined && postedToItself(ctx, dc, target)
  const method = params.method ?? (params.atomic || itself ? 'update' : undefined)
  const raw = method === undefined ? rawWriteTarget(target) : undefined
  if (raw) return writeAttribute(ctx, dc, raw.key, raw.attribute)
  if (method === undefined)
    return fail('MethodNotApplicable', [
      '(none)',
      `a POST on ${dc.name}: add $method=update, insert or delete`,
    ])
  if (!WRITE_METHODS.has(method)) return fail('NotImplemented', [`$method=${method}`])
  if (target.attributes !== undefined || target.lookup !== undefined)
    return fail('MethodNotApplicable', [method, 'a path with attributes or a lookup'])
  if (method === 'delete') {
    // Refused whole, whichever way the entities are named; a $filter must also be readable (its
    // query asks, as any query does).
    perms?.need('delete', dc.name)
    return deleteEntities({
      ds: ctx.ds,
      dc,
      key: target.key,
      filter: params.filter,
      params: params.params,
      body: ctx.body(),
      atomic: params.atomic,
    })
  }
  if (target.key !== undefined && !itself)
    return fail('MethodNotApplicable', [
      method,
      `${dc.name}(${target.key}): send the key as "__KEY" in the body`,
    ])
  const request = {
    ds: ctx.ds,
    dc,
    writer: ctx.writer,
    body: ctx.body(),
    insert: method === 'insert',
    atomic: params.atomic,
    perms,
    uploads: ctx.uploads,
  }
  if (params.refresh) {
    if (method !== 'update')
      fail('MethodNotApplicable', [method, '$refresh=true (it goes with $method=update)'])
    return refresh(request)
  }
  return update(request)
}

/**
 * Whether the request is an entity POSTed to its own URL without `$method`, as Wakanda's client
 * saves one (`POST /rest/Farm(3)` with `{"__KEY": "3", "__STAMP": 2, "logo": null}` clears a
 * picture): an update, when the body's `__KEY` is the key of the URL.
 */
function postedToItself(
  ctx: RouteContext,
  dc: DataClass,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
): boolean {
  if (
    target.key === undefined ||
    target.attributes !== undefined ||
    target.lookup !== undefined ||
    target.entitySet !== undefined
  )
    return false
  const body = ctx.body()
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const sent = (body as { __KEY?: unknown }).__KEY
  return sent !== undefined && sent !== null && toKey(dc.def, sent) === toKey(dc.def, target.key)
}
