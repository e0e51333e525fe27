/**
 * @module `GET /rest/$changes?$dataClasses=Employee,Company` and `GET /rest/Employee/$changes`: the
 * live feed (core's `ds.changes`) as server-sent events (docs/change-tracking.md, "Live feed").
 * Not a 4D resource: no 4D keyword is named `$changes`.
 *
 * Everything a request may get wrong is refused before the stream starts, with the usual
 * `__ERROR` reply: an unknown dataclass (404 1800), a bad `$filter` or `$attributes` (400, 404
 * 1500), no read privilege (403 1557). Then the reply is a stream (exchange.ts `RestStream`) that
 * the transport writes as events come and closes when the client goes: the subscription ends
 * with it. The session is the request's (its cookie), and each event is checked as it when sent.
 *
 * `Last-Event-ID` (what a browser's EventSource sends when it reconnects) wins over `$since`: the
 * stream resumes after that stamp, missing nothing and sending nothing twice.
 */
import {
  currentActor,
  fail,
  type ChangeSubscription,
  type DataClass,
  type Entity,
} from '@entistore/core'
import type { RestStream } from '../exchange.js'
import type { Reply } from '../reply.js'
import { changeEventText, streamHead } from '../serialize/change-events.js'
import { parseProjection } from '../serialize/projection.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import { check, exposedDataClass, type ChangesStreamOptions, type RouteContext } from './context.js'

export type { ChangesStreamOptions }

export const CHANGES_DEFAULTS = { heartbeatMs: 15_000, bufferLimit: 1000, retryMs: 3000 } as const

/** The stream of `/rest/$changes` (a 200 whose body is events). */
export function changes(
  ctx: RouteContext,
  target: Extract<RestTarget, { kind: 'changes' }>,
  options: ChangesStreamOptions = {},
): Reply {
  const { params, perms, ds } = ctx
  const names = target.dataClass !== undefined ? [target.dataClass] : params.dataClasses
  if (names === undefined)
    fail('InvalidParameter', ['$dataClasses', '', 'the dataclasses to follow (Employee,Company)'])
  if (target.dataClass !== undefined && params.dataClasses !== undefined)
    fail('InvalidParameter', [
      '$dataClasses',
      params.dataClasses.join(','),
      'nothing: the path names the dataclass already',
    ])
  const classes = names.map((name) => exposedDataClass(ds, name))
  for (const dc of classes) perms?.need('read', dc.name)
  const single = classes.length === 1 ? classes[0] : undefined
  if (single === undefined && (params.filter !== undefined || params.attributes !== undefined))
    fail('InvalidParameter', [
      params.filter !== undefined ? '$filter' : '$attributes',
      names.join(','),
      'one dataclass (/rest/Employee/$changes)',
    ])
  const sub = ds.changes<string>({
    dataClasses: classes.map((dc) => dc.name),
    filter: params.filter,
    parameters: params.params,
    since: lastEventId(ctx) ?? params.since,
    session: ctx.session,
    authorize: ctx.auth?.authorize,
    exposedOnly: true,
    heartbeatMs: options.heartbeatMs ?? CHANGES_DEFAULTS.heartbeatMs,
    bufferLimit: options.bufferLimit ?? CHANGES_DEFAULTS.bufferLimit,
    render: renderer(ctx, single),
  })
  return { status: 200, body: new ChangeStream(sub, options.retryMs ?? CHANGES_DEFAULTS.retryMs) }
}

/**
 * How an entity is written: as a REST reply writes one (`$attributes` for one dataclass), leaving
 * out what the session acting when it is sent (the subscription's) may not read.
 */
function renderer(ctx: RouteContext, single: DataClass | undefined): (entity: Entity) => string {
  const ds = ctx.ds
  const projection =
    single && parseProjection(ds.schema, single.def, ctx.params.attributes, undefined, check(ctx))
  // Nothing checked or restricted, no $attributes: every subscriber is sent the same text.
  if (ctx.actor === undefined && projection === undefined)
    return (entity) => ctx.writer.singleShared(entity)
  const writer = ctx.writer.restricted((dc, attr) => currentActor(ds)?.mayRead(dc, attr) ?? true)
  return (entity) => writer.single(entity, projection)
}

/** The stamp of `Last-Event-ID`, when the client sent one that is a stamp. */
function lastEventId(ctx: RouteContext): number | undefined {
  const raw = ctx.headers['last-event-id']
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (text === undefined || !/^\d+$/.test(text)) return undefined
  const stamp = Number(text)
  return Number.isSafeInteger(stamp) ? stamp : undefined
}

/** The events of a subscription as the text of server-sent events. */
class ChangeStream implements RestStream {
  readonly stream = true
  readonly #sub: ChangeSubscription<string>
  readonly #retryMs: number

  constructor(sub: ChangeSubscription<string>, retryMs: number) {
    this.#sub = sub
    this.#retryMs = retryMs
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    try {
      yield streamHead(this.#retryMs)
      for (;;) {
        const next = await this.#sub.next()
        if (next.done) return
        yield changeEventText(next.value)
        // A dropped client reconnects from the event's id: the stream ends here.
        if (next.value.type === 'dropped') return
      }
    } finally {
      this.#sub.close()
    }
  }

  close(): void {
    this.#sub.close()
  }
}
