/**
 * @module From a parsed request to a reply: the REST resources mapped to core calls. No HTTP in
 * here (handler.ts owns it); a reply is a status and a JSON body, which for an entity selection is
 * rendered lazily (serialize/json-chunks.ts).
 */
import {
  Ast,
  fail,
  parseOrderBy,
  parseCached,
  runQuery,
  orderSelection,
  isBinaryValue,
  LOGIC_OPERATORS,
  isPublic,
  SAVE_STATUS,
  type AttributeDef,
  type DataClass,
  type DataClassDef,
  type Datastore,
  type Entity,
  type EntitySelection,
  type EntitySet,
  type LockOwner,
  type LockResult,
  type LogicOperator,
  type RelatedEntitiesAttributeDef,
  type RelatedEntityAttributeDef,
  type Session,
  type StorageAttributeDef,
} from '@entistore/core'
import {
  catalogEnvelope,
  detailedDataClass,
  exposedDataClasses,
  shortDataClass,
} from './serialize/catalog.js'
import { isShown, type EntityWriter, type JsonObject } from './serialize/entity.js'
import type { JsonChunks } from './serialize/json-chunks.js'
import { dashboard } from './serialize/dashboard.js'
import { parseProjection, type Projection } from './serialize/projection.js'
import { selectionArray, selectionEnvelope, type Window } from './serialize/selection.js'
import type { Uris } from './serialize/uris.js'
import type { RestHeaders } from './exchange.js'
import type { RestParams } from './url/params.js'
import type { RestTarget } from './url/parse-rest-url.js'
import { computeReply } from './read/compute.js'
import { distinctReply } from './read/distinct.js'
import { deleteEntities } from './write/delete.js'
import { update } from './write/update.js'
import { refusedStatus } from './write/save-status-json.js'
import { directory, guard, type AuthOptions } from './sessions/directory.js'
import { Permissions } from './permissions.js'

export interface RouteContext {
  readonly ds: Datastore
  readonly uris: Uris
  readonly writer: EntityWriter
  readonly session: Session
  readonly method: string
  readonly target: RestTarget
  readonly params: RestParams
  /** The request's headers (`host` and `user-agent` describe a lock's holder). */
  readonly headers: RestHeaders
  /** The client's IP address, when the transport gives it (`lockInfo.IPAddr`). */
  readonly remoteAddress?: string | undefined
  /** The request body as JSON (read on first call; undefined when empty). Throws 400/415. */
  readonly body: () => unknown
  /** Login: the embedder's `authenticate` and `forceLogin`, and its `authorize`. */
  readonly auth?: AuthOptions
  /** This request's permissions, when the embedder gave `authorize` (set by `route`). */
  readonly perms?: Permissions | undefined
}

/** A JSON body: a value to stringify, JSON text already written, or text rendered piece by piece. */
export type JsonBody = JsonObject | string | JsonChunks

export interface Reply {
  readonly status: number
  /** JSON, or the bytes of a picture or BLOB (with `type`). */
  readonly body: JsonBody | Uint8Array
  /** For bytes: their media type, and how a browser should treat them (`attachment` to save). */
  readonly file?: { readonly type: string; readonly disposition?: string }
}

/** The HTTP methods of the REST interface: reads are GET (and HEAD), everything else is POST. */
export const ALLOWED_METHODS = 'GET, HEAD, POST'

const ok = (body: JsonBody): Reply => ({ status: 200, body })

// The $method values that change data: POST only (a GET must never write).
const WRITE_METHODS: ReadonlySet<string> = new Set(['update', 'insert', 'delete'])
// The $method values of reads: entity sets made, remade and released.
const READ_METHODS: ReadonlySet<string> = new Set(['entityset', 'subentityset', 'release'])

export function route(input: RouteContext): Reply {
  const ctx = withPermissions(input)
  const { target, params, perms } = ctx
  if (ctx.auth) guard(ctx.auth, ctx.session, ctx.method, target)
  if (target.kind === 'directory') return directory({ ...ctx, auth: ctx.auth ?? {} }, target.action)
  // Writes are the session's: refused on an entity another session or process has locked.
  if (ctx.method === 'POST') return ctx.ds.runAs(sessionOwner(ctx), () => write(ctx))
  if (ctx.method !== 'GET') fail('MethodNotAllowed', [ctx.method, `it answers ${ALLOWED_METHODS}`])
  if (params.method !== undefined && !READ_METHODS.has(params.method)) {
    if (WRITE_METHODS.has(params.method))
      fail('MethodNotApplicable', [params.method, 'a GET request (send it with POST)'])
    fail('NotImplemented', [`$method=${params.method}`])
  }
  switch (target.kind) {
    case 'catalog': {
      // Only what the session may describe: the dataclasses, their attributes.
      const list = exposedDataClasses(ctx.ds.schema).filter(
        (dc) => !perms || perms.may('describe', dc.name),
      )
      const shows = perms && ((dc: DataClassDef, a: AttributeDef) => perms.mayDescribe(dc, a))
      const items =
        target.which === 'short'
          ? list.map((dc) => shortDataClass(dc, ctx.uris))
          : list.map((dc) => detailedDataClass(ctx.ds.schema, dc, ctx.uris, shows))
      return ok(catalogEnvelope(ctx.ds.schema, ctx.session.id, items))
    }
    case 'catalogDataClass': {
      // The bare dataclass object, as the real server's documentation shows it (and clients read
      // `name`, `key` and `attributes` at the top level), not wrapped in the catalog envelope.
      const dc = exposedDataClass(ctx.ds, target.name)
      if (!perms) return ok(detailedDataClass(ctx.ds.schema, dc.def, ctx.uris))
      perms.need('describe', dc.name)
      return ok(
        detailedDataClass(ctx.ds.schema, dc.def, ctx.uris, (d, a) => perms.mayDescribe(d, a)),
      )
    }
    case 'info':
      return ok(info(ctx))
    case 'dataClass':
      return readDataClass(ctx, target)
  }
}

/**
 * `GET /rest/$info`: the entity-set cache as the real server describes its cache (`cacheSize` and
 * `usedCache` are the set cache's bound and use, 8 bytes a member), every set, and the caller's own
 * session. Other sessions are not listed: a session id is a credential.
 */
function info(ctx: RouteContext): JsonObject {
  const sets = ctx.ds.entitySets
  const perms = ctx.perms
  // Only the sets of dataclasses the session may read.
  const list = sets.info().filter((e) => !perms || perms.may('read', e.dataClass))
  const iso = (ms: number): string => new Date(ms).toISOString()
  const s = ctx.session
  return {
    cacheSize: 8 * sets.maxMembers,
    usedCache: 8 * sets.members,
    entitySetCount: list.length,
    entitySet: list.map((e) => ({
      id: e.id,
      dataClass: e.dataClass,
      selectionSize: e.selectionSize,
      sorted: e.sorted,
      refreshed: iso(e.refreshed),
      expires: iso(e.expires),
    })),
    ProgressInfo: [],
    sessionInfo: [
      {
        sessionID: s.id,
        userName: 'default guest',
        lifeTime: Math.round(s.timeout / 1000),
        expiration: iso(s.lastAccess + s.timeout),
      },
    ],
    privileges: { privileges: [] },
  }
}

/** The dataclass if it exists and is exposed; 1800 otherwise (a hidden dataclass does not exist for REST). */
function exposedDataClass(ds: Datastore, name: string): DataClass {
  const dc = ds.findDataClass(name)
  if (!dc || !isPublic(dc.def)) return fail('DataClassNotFound', [name])
  return dc
}

function readDataClass(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
): Reply {
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  const { params, perms } = ctx
  perms?.need('read', dc.name)
  // `/rest/Employee/salary?$compute=sum`, `/rest/Company/name?$distinct=true`: the path names the
  // attribute a computation reads, as `$attributes` does in Qodly's form of the same requests.
  const paths = target.attributes
  if (paths) {
    // A name the dataclass does not have is the client's mistake whatever this version supports:
    // 404 1500 as for any unknown attribute. Only the first step of a dotted path is checked here
    // (`extra.city` reads into an object attribute).
    for (const name of paths) visibleAttribute(dc, name.split('.')[0]!)
    for (const name of paths) perms?.needPath(dc.def, name.split('.'))
  }
  if (target.entitySet !== undefined) {
    if (target.key !== undefined || target.lookup !== undefined)
      fail('UrlMalformed', [target.entitySet, 'an entity set follows a dataclass, not an entity'])
    return readEntitySet(ctx, dc, target.entitySet, paths)
  }
  if (params.method === 'release')
    fail('MethodNotApplicable', ['release', `${dc.name}: it releases an entity set`])
  if (params.lock !== undefined) return lock(ctx, dc, target, params.lock)
  if (target.key !== undefined || target.lookup !== undefined) {
    const entity =
      target.key !== undefined ? dc.getOrFail(target.key) : lookupEntity(ctx, dc, target.lookup!)
    lookerFormat(params, false)
    const relation = paths?.length === 1 ? dc.def.attributesByName.get(paths[0]!) : undefined
    if (relation?.kind === 'relatedEntity' || relation?.kind === 'relatedEntities')
      return navigate(ctx, entity, relation)
    if (
      relation?.kind === 'storage' &&
      (relation.type === 'image' || relation.type === 'blob') &&
      (params.expand?.includes(relation.name) || params.binary)
    )
      return binaryContent(params, entity, relation)
    oneAttributeList(paths, params)
    const projection = parseProjection(
      ctx.ds.schema,
      dc.def,
      paths ?? params.attributes,
      params.expand,
      check(ctx),
    )
    return ok(ctx.writer.single(entity, projection))
  }
  if (params.method === 'subentityset')
    fail('MethodNotApplicable', ['subentityset', `${dc.name}: it follows a to-many relation`])
  // An aggregate needs no order, nor a kept set: the query alone.
  const aggregate = params.compute !== undefined || params.distinct
  const { selection, head } = selectionOfRequest(ctx, dc, { ordered: !aggregate })
  return readSelection(ctx, selection, { paths, head })
}

/** The session of a request as the owner of its locks and writes, with its client for `lockInfo`. */
function sessionOwner(ctx: RouteContext): LockOwner {
  const header = (name: string): string | undefined => {
    const v = ctx.headers[name]
    return Array.isArray(v) ? v[0] : v
  }
  const host = header('host')
  const userAgent = header('user-agent')
  return {
    id: ctx.session.id,
    kind: 'session',
    info: {
      ...(host !== undefined ? { host } : {}),
      ...(ctx.remoteAddress !== undefined ? { IPAddr: ctx.remoteAddress } : {}),
      ...(userAgent !== undefined ? { userAgent } : {}),
    },
  }
}

/**
 * `GET /rest/Employee(3)?$lock=true` locks the entity for the session, `$lock=false` unlocks it.
 * The reply is 200 either way, `{"result": true, "__STATUS": {"success": true}}` or `result` false
 * with the status of the refusal: 3 "Already locked" (with `lockKind`, `lockKindText`, `lockInfo`)
 * when another session or a process holds it, 5 when the entity does not exist (deleted, or never
 * there). Only one entity can be locked: a selection is refused (1806).
 */
function lock(
  ctx: RouteContext,
  dc: DataClass,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
  wanted: boolean,
): Reply {
  if (target.key === undefined && target.lookup === undefined)
    fail('InvalidParameter', [
      '$lock',
      String(wanted),
      `one entity: GET /rest/${dc.name}({key})?$lock=true`,
    ])
  // Locking is for writing: it needs update permission (read too, as every GET of the dataclass).
  ctx.perms?.need('update', dc.name)
  const entity =
    target.key !== undefined ? dc.get(target.key) : lookupOrNull(ctx, dc, target.lookup!)
  // A guest that locks now holds state: established first, so a flood of guests cannot evict it
  // (and, in refuse mode, refused with 402 before it takes the lock).
  if (wanted && entity) ctx.ds.sessions.establish(ctx.session.id)
  const owner = sessionOwner(ctx)
  const result: LockResult = !entity
    ? { success: false, status: 5, statusText: SAVE_STATUS.entityDoesNotExist.statusText }
    : wanted
      ? entity.lock({ owner })
      : entity.unlock({ owner })
  if (result.success) return ok('{"result":true,"__STATUS":{"success":true}}')
  return ok({ result: false, __STATUS: refusedStatus(result) })
}

/** A lookup's entity, or null when none matches (a lock answers status 5, not 404). */
function lookupOrNull(
  ctx: RouteContext,
  dc: DataClass,
  lookup: { readonly attribute: string; readonly value: string },
): Entity | null {
  try {
    return lookupEntity(ctx, dc, lookup)
  } catch (error) {
    if ((error as { name?: unknown }).name === 'EntityNotFound') return null
    throw error
  }
}

/**
 * What a read does with the selection it names: `$compute`, `$distinct`, or the selection written
 * (envelope, `$asArray`, `$format=looker`), kept first as an entity set with `$method=entityset`
 * (the reply then starts with `__ENTITYSET`).
 */
function readSelection(
  ctx: RouteContext,
  selection: EntitySelection,
  options: {
    /** Attributes named in the path. */
    readonly paths?: readonly string[] | undefined
    /** Members written before the envelope (the query plan and path). */
    readonly head?: JsonObject | undefined
    /** For a kept set: whether it is in a chosen order, and the filter that made it. */
    readonly sorted?: boolean
    readonly filter?: string | undefined
    /** `$expand` as it applies to this selection's dataclass. */
    readonly expand?: readonly string[] | undefined
  } = {},
): Reply {
  const { params } = ctx
  const { paths, head } = options
  const expand = 'expand' in options ? options.expand : params.expand
  const dc = selection.dataClass
  const window = { skip: params.skip, top: params.top ?? dc.def.defaultTopSize }
  if (params.compute !== undefined || params.distinct) {
    for (const path of paths ?? params.attributes ?? [])
      ctx.perms?.needPath(dc.def, path.split('.'))
    const read = { dc, selection, paths: paths ?? params.attributes, window, params }
    return params.compute !== undefined ? computeReply(read, params.compute) : distinctReply(read)
  }
  oneAttributeList(paths, params)
  const projection = parseProjection(
    ctx.ds.schema,
    dc.def,
    paths ?? params.attributes,
    expand,
    check(ctx),
  )
  let first = head
  if (params.method === 'entityset' || params.method === 'subentityset') {
    const set = keepSet(ctx, selection, {
      sorted: options.sorted ?? (params.orderBy !== undefined || params.subOrderBy !== undefined),
      filter: 'filter' in options ? options.filter : params.filter,
    })
    first = { __ENTITYSET: ctx.uris.entitySet(dc.name, set.id), ...head }
  }
  return ok(selectionReply(ctx, selection, window, first, projection))
}

/** Keeps `selection` as an entity set with the request's `$timeout`, `$savedfilter`, `$savedorderby`. */
function keepSet(
  ctx: RouteContext,
  selection: EntitySelection,
  options: { readonly sorted: boolean; readonly filter: string | undefined },
): EntitySet {
  const { params } = ctx
  // `$savedfilter=true` (as the method page and some clients put it) saves the request's `$filter`.
  const saved = (value: string | undefined, own: string | undefined): string | undefined =>
    value === undefined ? undefined : /^(true|1)$/i.test(value) ? own : value
  return ctx.ds.entitySets.keep(selection, {
    ...(params.timeout !== undefined ? { timeout: params.timeout } : {}),
    sorted: options.sorted,
    ...optional('savedFilter', saved(params.savedFilter, options.filter)),
    ...optional('savedOrderBy', saved(params.savedOrderBy, params.orderBy)),
  })
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

/** How long a set remade from its saved filter lives: 10 minutes, whatever `$timeout` said (4D). */
const REMADE_TIMEOUT = 600

/**
 * `/rest/{dataClass}/$entityset/{id}`: the kept set, its lifetime restarted, read like any selection
 * (`$filter` and `$orderby` narrow and reorder it); `$method=release` forgets it; `$logicOperator`
 * with `$otherCollection` combines it with another set; `$clean=true` leaves its deleted members
 * out. A set that is gone is remade under its id from `$savedfilter` / `$savedorderby` when they are
 * passed (for 600 s), else 1802.
 */
function readEntitySet(
  ctx: RouteContext,
  dc: DataClass,
  id: string,
  paths: readonly string[] | undefined,
): Reply {
  const { params } = ctx
  if (params.method === 'release') {
    if (!ctx.ds.entitySets.release(id)) fail('EntitySetNotFound', [id])
    return ok('{"ok":true}')
  }
  const set = findSet(ctx, dc, id)
  let selection = set.selection
  if (params.logicOperator !== undefined || params.otherCollection !== undefined) {
    const operator = params.logicOperator
    if (operator === undefined) return fail('WrongLogicOperator', [''])
    if (!LOGIC_OPERATORS.includes(operator as LogicOperator))
      return fail('WrongLogicOperator', [operator])
    if (params.otherCollection === undefined) return fail('MissingOtherCollection', [])
    const other = ctx.ds.entitySets.get(params.otherCollection)
    if (!other) return fail('WrongOtherCollection', [params.otherCollection])
    if (other.dataClass !== dc)
      fail('EntitySetOfOtherDataClass', [other.id, other.dataClass.name, dc.name])
    // INTERSECT answers a bare true or false, as clients of the real server expect.
    if (operator === 'INTERSECT') return ok(String(selection.intersects(other.selection)))
    selection =
      operator === 'AND'
        ? selection.and(other.selection)
        : operator === 'OR'
          ? selection.or(other.selection)
          : selection.minus(other.selection)
  }
  if (params.clean) selection = selection.clean()
  selection = narrow(ctx, selection)
  return readSelection(ctx, selection, {
    paths,
    sorted: set.sorted || params.orderBy !== undefined,
    filter: params.filter ?? set.savedFilter,
  })
}

/** The set `id` of `dc`, its lifetime restarted, or remade from the saved filter and order. */
function findSet(ctx: RouteContext, dc: DataClass, id: string): EntitySet {
  const { params } = ctx
  const set = ctx.ds.entitySets.get(id)
  if (set) {
    if (set.dataClass !== dc) fail('EntitySetOfOtherDataClass', [id, set.dataClass.name, dc.name])
    return set
  }
  const filter = remakeText(params.savedFilter)
  const orderBy = remakeText(params.savedOrderBy)
  if (filter === undefined && orderBy === undefined) return fail('EntitySetNotFound', [id])
  if (filter !== undefined) ctx.perms?.needFilter(dc.def, filter, '$savedfilter')
  if (orderBy !== undefined) ctx.perms?.needOrderBy(dc.def, orderBy, '$savedorderby')
  const remade = runQuery(dc, parseCached(filter ?? '', '$savedfilter'), {
    ...(params.params ? { params: params.params } : {}),
    ...(orderBy !== undefined ? { orderBy: parseOrderBy(orderBy, '$savedorderby') } : {}),
    exposedOnly: true,
  }).selection
  return ctx.ds.entitySets.keep(remade, {
    id,
    timeout: REMADE_TIMEOUT,
    sorted: orderBy !== undefined,
    ...optional('savedFilter', filter),
    ...optional('savedOrderBy', orderBy),
  })
}

/** A saved filter or order to remake a set from: its text (`true` names none, `$all` is all). */
function remakeText(value: string | undefined): string | undefined {
  if (value === undefined || /^(true|1)$/i.test(value)) return undefined
  return value === '$all' ? '' : value
}

/** `selection` narrowed by the request's `$filter` (its order kept) and reordered by `$orderby`. */
function narrow(ctx: RouteContext, selection: EntitySelection): EntitySelection {
  const { params } = ctx
  const dc = selection.dataClass
  if (params.filter !== undefined) ctx.perms?.needFilter(dc.def, params.filter, '$filter')
  if (params.orderBy !== undefined) ctx.perms?.needOrderBy(dc.def, params.orderBy, '$orderby')
  if (params.filter !== undefined) {
    const found = runQuery(dc, parseCached(params.filter, '$filter'), {
      ...(params.params ? { params: params.params } : {}),
      exposedOnly: true,
    }).selection
    selection = selection.and(found)
  }
  if (params.orderBy !== undefined) {
    selection = orderSelection(selection, parseOrderBy(params.orderBy, '$orderby'), {
      exposedOnly: true,
    })
  }
  return selection
}

function selectionReply(
  ctx: RouteContext,
  selection: EntitySelection,
  window: Window,
  head: JsonObject | undefined,
  projection: Projection | undefined,
): JsonBody {
  const perms = ctx.perms
  if (lookerFormat(ctx.params, true))
    return dashboard(selection, window, projection, perms && ((dc, a) => perms.mayRead(dc, a)))
  return ctx.params.asArray
    ? selectionArray(selection, window, ctx.writer, projection)
    : selectionEnvelope(selection, window, ctx.writer, head, projection)
}

/**
 * `/rest/Employee(1)/photo?$imageformat=best&$version=3&$expand=photo` and
 * `/rest/Company(1)/brochure?$binary=true&$expand=brochure`: the bytes themselves, with their media
 * type (a BLOB asked with `$binary` as an attachment, to save). No value is an empty reply, as the
 * real server documents. Converting a picture to another format is not done yet: a format other
 * than `best` or the picture's own is 501.
 */
function binaryContent(params: RestParams, entity: Entity, attr: StorageAttributeDef): Reply {
  const v = entity.values[attr.name]
  const value = isBinaryValue(v) ? v : undefined
  const format = params.imageFormat
  if (value && format !== undefined && format !== 'best') {
    const own = value.type.replace(/^image\//, '').toLowerCase()
    const wanted = format === 'jpg' ? 'jpeg' : format
    if (wanted !== own && !(wanted === 'tiff' && own === 'tif'))
      fail('NotImplemented', [`Converting pictures to ${format} ($imageformat)`])
  }
  const type = value?.type ?? (attr.type === 'image' ? 'image/png' : 'application/octet-stream')
  const disposition = params.binary ? `attachment; filename="${attr.name}"` : undefined
  return {
    status: 200,
    body: value?.bytes ?? new Uint8Array(0),
    file: disposition ? { type, disposition } : { type },
  }
}

/**
 * `/rest/Employee(3)/employer` and `/rest/Company(1)/staff`, with or without `$expand` naming the
 * relation (the form of the URIs the server writes): the related entity, or the related selection
 * with `$filter`, `$orderby`, `$skip`, `$top`, `$attributes` applied to it. No related entity is
 * `null`.
 */
function navigate(
  ctx: RouteContext,
  entity: Entity,
  relation: RelatedEntityAttributeDef | RelatedEntitiesAttributeDef,
): Reply {
  const { params } = ctx
  const target = ctx.ds.dataClass(relation.target)
  // `$expand=staff` on `/Company(1)/staff` names the relation followed, not one of the target's.
  const expand = params.expand?.filter((name) => name !== relation.name)
  if (relation.kind === 'relatedEntity') {
    const projection = parseProjection(
      ctx.ds.schema,
      target.def,
      params.attributes,
      expand?.length ? expand : undefined,
      check(ctx),
    )
    const related = entity.valueOf(relation) as Entity | null
    return ok(related ? ctx.writer.single(related, projection) : 'null')
  }
  if (
    params.method !== undefined &&
    params.method !== 'entityset' &&
    params.method !== 'subentityset'
  )
    fail('MethodNotApplicable', [params.method, `${relation.name}, a relation`])
  let selection = narrow(ctx, entity.valueOf(relation) as EntitySelection)
  if (params.method === 'subentityset' && params.subOrderBy !== undefined) {
    ctx.perms?.needOrderBy(target.def, params.subOrderBy, '$subOrderby')
    selection = orderSelection(selection, parseOrderBy(params.subOrderBy, '$subOrderby'), {
      exposedOnly: true,
    })
  }
  return readSelection(ctx, selection, { expand: expand?.length ? expand : undefined })
}

/** Attributes are named in the path or in `$attributes`, not both (which would win is a guess). */
function oneAttributeList(paths: readonly string[] | undefined, params: RestParams): void {
  if (!paths || !params.attributes) return
  fail('InvalidParameter', [
    '$attributes',
    params.attributes.join(','),
    'one list of attributes: in the path or in $attributes, not both',
  ])
}

/** The `$format` values: `json` (the default), and `looker` with its other name `dashboard`. */
const FORMATS = new Set(['json', 'looker', 'dashboard'])

/** `$format`, checked: true for the Looker form. Only a selection has one. */
function lookerFormat(params: RestParams, selection: boolean): boolean {
  const format = params.format
  if (format === undefined || format === 'json') return false
  if (!FORMATS.has(format)) fail('UnsupportedFormat', [format, 'json, looker, dashboard'])
  if (!selection) fail('UnsupportedFormat', [format, 'one entity is written as json only'])
  return true
}

/**
 * The selection a read names: every entity, or those `$filter` selects, ordered by `$orderby`
 * (unless `ordered` is false: an aggregate needs no order). `head` holds the query plan and path
 * when asked for: the real server writes them first, before the envelope.
 */
function selectionOfRequest(
  ctx: RouteContext,
  dc: DataClass,
  options: { readonly ordered: boolean },
): { selection: EntitySelection; head: JsonObject | undefined } {
  const { params } = ctx
  const orderBy = options.ordered ? params.orderBy : undefined
  if (params.filter !== undefined) ctx.perms?.needFilter(dc.def, params.filter, '$filter')
  if (orderBy !== undefined) ctx.perms?.needOrderBy(dc.def, orderBy, '$orderby')
  if (
    params.filter === undefined &&
    orderBy === undefined &&
    !params.queryPlan &&
    !params.queryPath
  )
    return { selection: dc.all(), head: undefined }
  const result = runQuery(dc, parseCached(params.filter ?? '', '$filter'), {
    ...(params.params ? { params: params.params } : {}),
    ...(orderBy !== undefined ? { orderBy: parseOrderBy(orderBy, '$orderby') } : {}),
    exposedOnly: true,
    queryPlan: params.queryPlan,
    queryPath: params.queryPath,
  })
  if (!params.queryPlan && !params.queryPath)
    return { selection: result.selection, head: undefined }
  const head: JsonObject = {}
  if (params.queryPlan) {
    head.__queryPlan = result.queryPlan ?? null
    head.__extendedQueryPlan = result.extendedQueryPlan ?? null
  }
  if (params.queryPath) {
    head.__queryPath = result.queryPath ?? null
    head.__extendedQueryPath = result.extendedQueryPath ?? null
  }
  return { selection: result.selection, head }
}

/**
 * The attribute if the client may see it; 1500 otherwise (a hidden attribute does not exist for
 * REST, nor does a relation to a hidden dataclass).
 */
function visibleAttribute(dc: DataClass, name: string): AttributeDef {
  const attr = dc.def.attributesByName.get(name)
  if (!attr || !isShown(dc.datastore.schema, attr))
    return fail('AttributeNotFound', [name, dc.name])
  return attr
}

/**
 * `Employee:lastName(Jones)`: the entity whose attribute equals the value. 4D documents it for
 * unique attributes; when several match, the first in key order is returned.
 */
function lookupEntity(
  ctx: RouteContext,
  dc: DataClass,
  lookup: { readonly attribute: string; readonly value: string },
): Entity {
  const attr = visibleAttribute(dc, lookup.attribute)
  ctx.perms?.needRead(dc.def, attr)
  if (attr.kind !== 'storage') return fail('AttributeNotFound', [lookup.attribute, dc.name])
  const wanted = dc.coerce(attr, lookup.value)
  // The query engine, so that an indexed attribute is looked up, not scanned (`===`: no wildcards).
  const query = Ast.query(
    Ast.comparison(Ast.path([{ name: attr.name }]), 'strictEq', Ast.placeholder(1)),
    [],
  )
  const found = runQuery(dc, query, { params: [wanted], exposedOnly: true }).selection.at(0)
  return found ?? fail('EntityNotFound', [`${lookup.attribute}(${lookup.value})`, dc.name])
}

/**
 * POST: `$method=update` / `insert` / `delete` on a dataclass (a bare `$atomic=true` with a body
 * is an update, as Qodly documents). Everything else is refused before the body is looked at.
 */
function write(ctx: RouteContext): Reply {
  const { target, params } = ctx
  if (target.kind !== 'dataClass')
    fail('MethodNotAllowed', [
      'POST',
      `${target.kind === 'info' ? '$info' : 'the catalog'} answers GET and HEAD`,
    ])
  const dc = exposedDataClass(ctx.ds, target.dataClass)
  const perms = ctx.perms
  if (target.entitySet !== undefined) {
    // `POST /rest/Employee/$entityset/{id}?$method=delete`: the set's entities (those still there).
    if (params.method !== 'delete')
      return fail('MethodNotApplicable', [
        params.method ?? '(none)',
        'an entity set (POST takes $method=delete)',
      ])
    perms?.need('delete', dc.name)
    findSet(ctx, dc, target.entitySet).selection.drop()
    return ok('{"ok":true}')
  }
  const method = params.method ?? (params.atomic ? 'update' : undefined)
  if (method === undefined)
    return fail('MethodNotApplicable', [
      '(none)',
      `a POST on ${dc.name}: add $method=update, insert or delete`,
    ])
  if (!WRITE_METHODS.has(method)) return fail('NotImplemented', [`$method=${method}`])
  if (target.attributes !== undefined || target.lookup !== undefined)
    return fail('MethodNotApplicable', [method, 'a path with attributes or a lookup'])
  if (method === 'delete') {
    // Refused whole, whichever way the entities are named; a $filter must also be readable.
    perms?.need('delete', dc.name)
    if (params.filter !== undefined) perms?.needFilter(dc.def, params.filter, '$filter')
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
  if (target.key !== undefined)
    return fail('MethodNotApplicable', [
      method,
      `${dc.name}(${target.key}): send the key as "__KEY" in the body`,
    ])
  return update({
    ds: ctx.ds,
    dc,
    writer: ctx.writer,
    body: ctx.body(),
    insert: method === 'insert',
    atomic: params.atomic,
    perms,
  })
}

/** The context with this request's permissions and a writer that leaves out what it may not read. */
function withPermissions(ctx: RouteContext): RouteContext {
  const authorize = ctx.auth?.authorize
  if (!authorize) return ctx
  const perms = new Permissions(authorize, ctx.session, ctx.ds.schema)
  const writer = ctx.writer.restricted((dc, attr) => perms.mayRead(dc, attr))
  return { ...ctx, perms, writer }
}

/** The check `parseProjection` makes of each attribute `$attributes` or `$expand` names. */
function check(ctx: RouteContext): ((dc: DataClassDef, attr: AttributeDef) => void) | undefined {
  const perms = ctx.perms
  return perms && ((dc, attr) => perms.needRead(dc, attr))
}
