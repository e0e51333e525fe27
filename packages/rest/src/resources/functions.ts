/**
 * @module Calls of class functions, in the real server's URLs:
 *
 * | function of | URL |
 * |---|---|
 * | the datastore | `/rest/$catalog/{fn}` |
 * | a dataclass | `/rest/{dataClass}/{fn}` |
 * | its entity selections | `/rest/{dataClass}/{fn}` (with `$filter`, `$orderby`), `/rest/{dataClass}/{fn}/$entityset/{id}`, `/rest/{dataClass}/$entityset/{id}/{fn}` |
 * | its entities | `/rest/{dataClass}({key})/{fn}` |
 * | a shared or session singleton | `/rest/$singleton/{singleton}/{fn}` |
 *
 * `/rest/{dataClass}/{fn}` looks for a selection function first, then a dataclass function, as 4D
 * does. Only exposed functions exist for a client: any other name is answered as the real server
 * answers an unknown one. POST takes the parameters as a JSON array body; GET, only for functions
 * declared `onHTTPGet`, in `$params`. `$method=entityset` (which some clients always add) keeps a
 * selection result as an entity set; it changes nothing for other results.
 *
 * What the function returns is written by `functionReply`: an entity or a selection in its wire
 * form (`$attributes`, `$expand`, `$top`, `$skip` apply), an OutgoingMessage as it is, anything
 * else as `{"result": …}`. An async function's reply is a Promise.
 */
import { withPage } from '../call/page-reply.js'
import {
  callFunction,
  PageFeedback,
  datastoreError,
  Entity,
  EntityDraft,
  EntitySelection,
  fail,
  functionText,
  isThenable,
  ownerText,
  promotedFor,
  restrictedSelection,
  runActor,
  singletonStateFor,
  type DataClass,
  type FunctionInfo,
  OutgoingMessage,
} from '@entistore/core'
import { bodyParameters, resolveParameters } from '../call/arguments.js'
import { checkArgumentCount, withTimeLimit } from '../call/call-limits.js'
import { resultJson } from '../call/result.js'
import { withResultAhead } from './result-ahead.js'
import { parseProjection } from '../serialize/projection.js'
import { shownNames } from '../serialize/entity.js'
import { entityReply } from '../serialize/selection.js'
import type { RestMethod } from '../url/params.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import { ok, type Answer, type Reply } from '../reply.js'
import {
  check,
  exposedDataClass,
  sessionOwner,
  withPermissions,
  type RouteContext,
} from './context.js'
import { findSet } from './entity-set.js'
import { lookupEntity } from './lookup.js'
import { narrow, readSelection } from './read-selection.js'

type DataClassTarget = Extract<RestTarget, { kind: 'dataClass' }>

/**
 * The call a dataclass request makes, if its path names a function rather than attributes:
 * `undefined` for a read or a write. A POST that names neither an attribute nor an exposed
 * function is refused as the real server refuses it (1500, then 1804).
 */
export function dataClassCall(ctx: RouteContext, target: DataClassTarget): Answer | undefined {
  const paths = target.attributes
  if (paths?.length !== 1) return undefined
  const name = paths[0]!
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  // An attribute (or a path into one): a read, a navigation, a write.
  if (dc.def.attributesByName.has(name.split('.')[0]!)) return undefined
  const one = target.key !== undefined || target.lookup !== undefined
  const fn = one
    ? exposed(ctx, 'entity', dc.name, name)
    : (exposed(ctx, 'entitySelection', dc.name, name) ??
      (target.entitySet === undefined ? exposed(ctx, 'dataClass', dc.name, name) : undefined))
  if (!fn) {
    // A GET goes on as a read, which answers 1500 for the unknown attribute.
    if (ctx.method !== 'POST') return undefined
    throw datastoreError('AttributeNotFound', [name, dc.name, shownNames(dc)], {
      cause: datastoreError('CannotBuildAttributeList', [name, dc.name]),
    })
  }
  allowed(ctx, fn)
  if (fn.kind !== 'entitySelection') noSelectionParameters(ctx, fn)
  if (fn.kind !== 'dataClass') ctx.perms?.need('read', dc.name)
  const on =
    fn.kind === 'dataClass'
      ? dc
      : fn.kind === 'entity'
        ? entityOf(ctx, dc, target)
        : selectionOf(ctx, dc, target)
  return run(ctx, fn, on)
}

/**
 * `POST /rest/Farm(1)/trees?$method=subentityset&$emMethod={fn}`, how Wakanda's client calls a
 * selection function on the entities a relation leads to: the selection function `fn` of the
 * related dataclass, run on `related`. The parameters are the body, as for any call.
 */
export function relatedSelectionCall(
  ctx: RouteContext,
  related: EntitySelection,
  name: string,
): Answer {
  const dc = related.dataClass
  const fn =
    exposed(ctx, 'entitySelection', dc.name, name) ??
    fail('FunctionNotFound', [name, `the entity selections of ${dc.name}`])
  allowed(ctx, fn, 'subentityset')
  return run(ctx, fn, related)
}

/** `/rest/$catalog/{fn}`: a datastore function (4D's `authentify` among them). */
export function dataStoreCall(ctx: RouteContext, name: string): Answer {
  const fn =
    exposed(ctx, 'dataStore', '', name) ?? fail('FunctionNotFound', [name, 'the datastore'])
  allowed(ctx, fn)
  noSelectionParameters(ctx, fn)
  return run(ctx, fn, ctx.ds)
}

/** Whether `/rest/$catalog/{name}` names a datastore function a client may see. */
export function isDataStoreFunction(ctx: RouteContext, name: string): boolean {
  return exposed(ctx, 'dataStore', '', name) !== undefined
}

/** `/rest/$singleton/{singleton}/{fn}`. */
export function singletonCall(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'singleton' }>,
): Answer {
  const registry = ctx.ds.functions
  if (!registry.list('singleton', target.singleton).some((f) => f.exposed))
    fail('SingletonNotFound', [target.singleton])
  const fn =
    exposed(ctx, 'singleton', target.singleton, target.function) ??
    fail('FunctionNotFound', [target.function, `singleton ${target.singleton}`])
  allowed(ctx, fn)
  noSelectionParameters(ctx, fn)
  // A session singleton's state is the request's session's own.
  return run(ctx, fn, singletonStateFor(ctx.ds, target.singleton, ctx.session))
}

/** The exposed function, if there is one: the others do not exist for a client. */
function exposed(
  ctx: RouteContext,
  kind: FunctionInfo['kind'],
  owner: string,
  name: string,
): FunctionInfo | undefined {
  const fn = ctx.ds.functions.find(kind, owner, name)
  return fn?.exposed ? fn : undefined
}

/**
 * Refuses what the request may not do with `fn`: GET unless it is `onHTTPGet` (405, `Allow: POST`),
 * a `$method` other than `entityset` (or the one the call's URL names it with), a session without
 * `execute` permission (1561).
 */
function allowed(ctx: RouteContext, fn: FunctionInfo, named: RestMethod = 'entityset'): void {
  if (ctx.method !== 'POST' && !fn.onHTTPGet)
    throw datastoreError('FunctionNotAllowedOnGet', [functionText(fn)], {
      details: { allow: 'POST' },
    })
  const method = ctx.params.method
  if (method !== undefined && method !== 'entityset' && method !== named)
    fail('MethodNotApplicable', [method, `a call of the function ${functionText(fn)}`])
  ctx.perms?.needExecute(fn)
}

/** `$filter` and `$orderby` choose the selection a selection function runs on: nothing else has one. */
function noSelectionParameters(ctx: RouteContext, fn: FunctionInfo): void {
  for (const [name, value] of [
    ['$filter', ctx.params.filter],
    ['$orderby', ctx.params.orderBy],
  ] as const)
    if (value !== undefined)
      fail('InvalidParameter', [
        name,
        value,
        `nothing: ${functionText(fn)} is a function of ${fn.kind === 'entity' ? 'an entity' : ownerText(fn)}, not of an entity selection`,
      ])
}

function entityOf(ctx: RouteContext, dc: DataClass, target: DataClassTarget): Entity {
  return target.key !== undefined ? dc.getOrFail(target.key) : lookupEntity(ctx, dc, target.lookup!)
}

/** The selection a selection function runs on: the set named, or every entity; then `$filter`, `$orderby`. */
function selectionOf(ctx: RouteContext, dc: DataClass, target: DataClassTarget): EntitySelection {
  const base =
    target.entitySet !== undefined ? findSet(ctx, dc, target.entitySet).selection : dc.all()
  return narrow(ctx, base)
}

/**
 * Calls `fn` on `on` with the request's parameters, as the session; its reply, or a Promise of it.
 * Too many arguments are refused before anything is made of them, and an async function's reply
 * waits at most the call's time limit (call/call-limits.ts).
 *
 * With the privileges the roles file's `promote` gives `fn` added to the session's while it runs
 * (an Actor of its own, in force for its code, its awaits included, its parameters and its reply;
 * the session itself never holds them, and a request interleaved with it never sees them).
 */
function run(request: RouteContext, fn: FunctionInfo, on: unknown): Answer {
  return runAs(request, fn, (ctx) => {
    const raw = ctx.method === 'POST' ? postParameters(ctx) : (ctx.params.params ?? [])
    checkArgumentCount(fn, raw.length, ctx.calls)
    return call(ctx, fn, on, resolveParameters(ctx.ds, raw, ctx.perms), functionReply)
  })
}

/**
 * Calls `fn` on `on` with `args` as the session (promoted as `run` says), its result answered by
 * `reply`: what an HTTP request handler's call shares with a REST call (web-server/handler-call.ts).
 */
export function runWith(
  request: RouteContext,
  fn: FunctionInfo,
  on: unknown,
  args: readonly unknown[],
  reply: (ctx: RouteContext, value: unknown) => Reply,
): Answer {
  return runAs(request, fn, (ctx) => call(ctx, fn, on, args, reply))
}

function runAs(request: RouteContext, fn: FunctionInfo, go: (ctx: RouteContext) => Answer): Answer {
  const actor = request.actor && promotedFor(request.ds, request.actor, fn)
  if (actor === request.actor) return go(request)
  return runActor(actor!, () => go(withPermissions(request, actor)))
}

function call(
  ctx: RouteContext,
  fn: FunctionInfo,
  on: unknown,
  args: readonly unknown[],
  reply: (ctx: RouteContext, value: unknown) => Reply,
): Answer {
  // What the call's code tells the page that called it (`Web Form`), written with its reply.
  const page = new PageFeedback()
  const result = callFunction(ctx.ds, fn, on, args, {
    session: ctx.session,
    owner: sessionOwner(ctx),
    onRestore: ctx.restoreSession,
    page,
  })
  // Its getters with steps made ahead first (result-ahead.ts), in slices of their own.
  const answer = (value: unknown): Answer =>
    withResultAhead(ctx, value, (v) => withPage(reply(ctx, v), page))
  return isThenable(result) ? withTimeLimit(fn, result, ctx.calls).then(answer) : answer(result)
}

/** A POST's parameters: its body; `$params` when the body is empty. */
function postParameters(ctx: RouteContext): readonly unknown[] {
  const body = ctx.body()
  if (body === undefined && ctx.params.params !== undefined) return ctx.params.params
  return bodyParameters(body)
}

/** The reply to a function call that returned `value` (see the module note). */
export function functionReply(ctx: RouteContext, value: unknown): Reply {
  if (OutgoingMessage.is(value)) return outgoing(value)
  // An entity returned unsaved (`ds.Car.new()`, a change not saved) as a save would leave it.
  const entity = value instanceof EntityDraft ? value.unsavedVersion() : value
  // An entity or a selection is answered only to a session that may read its dataclass, a
  // selection without what the session's `restrict` hides (one made by a promoted function's code,
  // or kept by another session, may hold more).
  if (entity instanceof Entity) ctx.perms?.need('read', entity.dataClass.name)
  if (value instanceof EntitySelection) ctx.perms?.need('read', value.dataClass.name)
  if (entity instanceof Entity) {
    const projection = parseProjection(
      ctx.ds.schema,
      entity.dataClass.def,
      ctx.params.attributes,
      ctx.params.expand,
      check(ctx),
    )
    return ok(entityReply(entity, ctx.writer, projection))
  }
  // The selection a function made has no filter or order of the request's to save with its set.
  if (value instanceof EntitySelection)
    return readSelection(ctx, restrictedSelection(value), { sorted: false, filter: undefined })
  return ok(`{"result":${resultJson(value, ctx.writer, ctx.perms)}}`)
}

/** An OutgoingMessage as it is: its status, headers and body (text as UTF-8). */
export function outgoing(message: OutgoingMessage): Reply {
  const { body, headers } = message
  const type =
    headers.get('content-type') ??
    (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream')
  const others = [...headers].filter(([name]) => name !== 'content-type')
  return {
    status: message.status,
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    file: { type, ...(others.length ? { headers: Object.fromEntries(others) } : {}) },
  }
}
