/**
 * @module From a parsed request to a reply: the permissions and the login guard, then a table from
 * each kind of target (url/parse-rest-url.ts) and method to its resource (resources/). No HTTP in
 * here (handler.ts owns it); a reply is a status and a JSON body, which for an entity selection is
 * rendered lazily (serialize/json-chunks.ts).
 */
import { fail } from '@entistore/core'
import { parseRestUrl, type RestTarget } from './url/parse-rest-url.js'
import { READ_METHODS } from './url/request-names.js'
import { directory, guard, throttledLogin } from './sessions/directory.js'
import { ALLOWED_METHODS, type Answer } from './reply.js'
import { sessionOwner, withPermissions, type RouteContext } from './resources/context.js'
import { catalog, catalogDataClass } from './resources/catalog.js'
import {
  dataClassCall,
  dataStoreCall,
  isDataStoreFunction,
  singletonCall,
} from './resources/functions.js'
import { info } from './resources/info.js'
import { releaseAnySets } from './resources/entity-set.js'
import { openapi } from './resources/openapi.js'
import { readDataClass } from './resources/read.js'
import { upload, uploadGet } from './resources/upload.js'
import { changes } from './resources/changes.js'
import { write, WRITE_METHODS } from './resources/write.js'
import { httpHandlerCall } from './web-server/handler-call.js'

type Kind = RestTarget['kind']
type Targets = { readonly [K in Kind]: Extract<RestTarget, { readonly kind: K }> }

/** A resource: the reply to one kind of target (a Promise of it for an async function's call). */
type Resource<K extends Kind> = (ctx: RouteContext, target: Targets[K]) => Answer

/**
 * How a kind of target is answered. Most take GET (HEAD is answered as GET) and POST, after the
 * checks common to both; a resource that takes `any` method answers every one itself, before them.
 */
type Route<K extends Kind> =
  { readonly GET: Resource<K>; readonly POST: Resource<K> } | { readonly any: Resource<K> }

/** The POST of a resource that only reads: 405. */
const readOnly = (name: string) => (): never =>
  fail('MethodNotAllowed', ['POST', `${name} answers GET and HEAD`])

/**
 * Every kind of target and its resources. The type asks for one entry per kind of `RestTarget`: a
 * new kind is a compile error here until it is routed.
 */
const ROUTES: { readonly [K in Kind]: Route<K> } = {
  catalog: { GET: catalog, POST: readOnly('the catalog') },
  // `/rest/$catalog/Employee` describes a dataclass; `/rest/$catalog/authentify` calls a function.
  catalogDataClass: {
    GET: (ctx, target) =>
      isDataStoreFunction(ctx, target.name)
        ? callDataStore(ctx, target.name)
        : catalogDataClass(ctx, target),
    POST: (ctx, target) => callDataStore(ctx, target.name),
  },
  // POST answered as GET: 4D's own quota demo reads `$info` with POST.
  info: { GET: info, POST: info },
  // `POST /rest/$entityset/$release`: sets of any dataclass released (4D's quota demo).
  releaseSets: {
    GET: () =>
      fail('MethodNotAllowed', ['GET', '$entityset/$release takes a POST of entity set ids']),
    POST: releaseAnySets,
  },
  // `/rest/$openapi`: the description of this interface, generated from the model.
  openapi: { GET: openapi, POST: readOnly('$openapi') },
  // `/rest/$directory/login` and its siblings check their own methods.
  directory: { any: (ctx, target) => directory({ ...ctx, auth: ctx.auth ?? {} }, target.action) },
  singleton: { GET: singletonCall, POST: singletonCall },
  // `POST /rest/$upload?$rawPict=true`: a file kept for a later write; nothing to GET.
  upload: { GET: uploadGet, POST: upload },
  // `/rest/$changes`, `/rest/Employee/$changes`: the live feed, as server-sent events.
  changes: { GET: (ctx, target) => changes(ctx, target, ctx.changes), POST: readOnly('$changes') },
  // A path an HTTP request handler takes: every verb its entry lists, answered by its function.
  httpHandler: { any: httpHandlerCall },
  // `/rest/Employee/raise`, `/rest/Employee(3)/raise`: a function; any other path a read or write.
  dataClass: {
    // A read runs again once an index it needs is built (handler.ts): it never builds one in one
    // piece, which at 1M rows held every other request for over half a second.
    GET: (ctx, target) =>
      dataClassCall(ctx, target) ?? reading(ctx, () => readDataClass(ctx, target)),
    // `$method=subentityset&$emMethod=fn` (Wakanda's client) calls a function on the related
    // entities: a read of the relation that ends in a call.
    POST: (ctx, target) =>
      dataClassCall(ctx, target) ??
      (ctx.params.emMethod !== undefined
        ? reading(ctx, () => readDataClass(ctx, target))
        : write(ctx, target)),
  },
}

/**
 * Runs a read where it never builds an index in one piece. With a slice scope (GET, HEAD), its heavy
 * work goes on in slices, and an index not built yet is read as absent: the read scans, in slices,
 * while the index is built first. Without one, it waits for the build. (handler.ts runs it again
 * in both cases.)
 */
function reading(ctx: RouteContext, read: () => Answer): Answer {
  const slices = ctx.slices
  return slices
    ? ctx.ds.withoutUnbuiltIndexes(() => slices.run(read))
    : ctx.ds.withoutIndexBuilds(read)
}

/** A datastore function's call; `authentify`, 4D's login function, under the login throttle. */
const callDataStore = (ctx: RouteContext, name: string): Answer =>
  name === 'authentify'
    ? throttledLogin(ctx, ctx.logins, () => dataStoreCall(ctx, name))
    : dataStoreCall(ctx, name)

/** The reply to one request: its permissions, the login guard, then its resource. */
export function route(input: RouteContext): Answer {
  const ctx = withPermissions(input)
  // A handler is the application's code outside the interface: it decides who it answers (4D
  // calls no authentication for it either).
  if (ctx.auth && ctx.target.kind !== 'httpHandler')
    guard(ctx.auth, ctx.session, ctx.method, ctx.target, ctx.ds)
  return dispatch(ctx, ctx.target.kind, ctx.target)
}

/** The reply of `target`'s resource for the request's method. */
function dispatch<K extends Kind>(ctx: RouteContext, kind: K, target: Targets[K]): Answer {
  const resources: Route<K> = ROUTES[kind]
  if ('any' in resources) return resources.any(ctx, target)
  // `$emMethod` names a function to call on the entities of a `$method=subentityset` only.
  if (ctx.params.emMethod !== undefined && ctx.params.method !== 'subentityset')
    fail('InvalidParameter', [
      '$emMethod',
      ctx.params.emMethod,
      'nothing without $method=subentityset on a relation (/rest/Farm(1)/trees)',
    ])
  // Writes are the session's: refused on an entity another session or process has locked.
  if (ctx.method === 'POST')
    return ctx.ds.runAs(sessionOwner(ctx), () => resources.POST(ctx, target))
  if (ctx.method !== 'GET') fail('MethodNotAllowed', [ctx.method, `it answers ${ALLOWED_METHODS}`])
  const { params } = ctx
  if (params.method !== undefined && !READ_METHODS.has(params.method)) {
    if (WRITE_METHODS.has(params.method))
      fail('MethodNotApplicable', [params.method, 'a GET request (send it with POST)'])
    fail('NotImplemented', [`$method=${params.method}`])
  }
  // A dataclass's `restrict` decides by the session its reads are for: the request's actor (the
  // handler runs the request and its reply as it).
  return resources.GET(ctx, target)
}
