/**
 * @module A picture or BLOB attribute read as its bytes, with their media type, instead of JSON:
 * `/rest/Employee(1)/photo?$imageformat=png&$version=3&$expand=photo`,
 * `/rest/Employee(1)/photo?$rawPict=true` and `/rest/Company(1)/brochure?$binary=true&$expand=brochure`.
 *
 * A picture is sent as stored (`best`, `$rawPict`, or the format it is already in) or converted
 * (pictures/): a conversion not in the cache is answered when it is made, the only wait of a read.
 * As the real server documents, a picture that is null, cannot be read or is asked in a format no
 * one serves is answered `{}`.
 *
 * Every reply of bytes carries an ETag and `Cache-Control: private, no-cache`: a browser keeps the
 * bytes and asks again with `If-None-Match`, answered 304 without them while the value is the same.
 * Not `immutable` under a `$version`: a version is the entity's stamp, which an entity deleted and
 * made again with the same key starts over, so a URL may name new bytes one day.
 */
import { isBinaryValue, isThenable, type Entity, type StorageAttributeDef } from '@entistore/core'
import { ok, type Answer, type Reply } from '../reply.js'
import { pictureTypeOf, readImageFormat } from '../pictures/image-format.js'
import type { Converted } from '../pictures/pictures.js'
import type { RouteContext } from './context.js'

const CACHE_CONTROL = 'private, no-cache'
// The bytes are whatever was stored or uploaded: an SVG or HTML file opened from this origin must
// not run script or load anything (the usual policy for user files served from an API's origin).
const SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

/** The headers of a reply of bytes with tag `tag`. */
const cacheHeaders = (tag: string) => ({
  etag: tag,
  'cache-control': CACHE_CONTROL,
  'content-security-policy': SANDBOX,
})

/** `{}`: the real server's answer for a picture it cannot give. */
const NO_PICTURE: Reply = ok({})

/** The bytes of the picture or BLOB `attr` of `entity`. */
export function binaryContent(
  ctx: RouteContext,
  entity: Entity,
  attr: StorageAttributeDef,
): Answer {
  const v = entity.values[attr.name]
  const value = isBinaryValue(v) ? v : undefined
  const disposition = ctx.params.binary ? `attachment; filename="${attr.name}"` : undefined
  if (attr.type !== 'image') {
    // A null BLOB is an empty document, as before: a client saving it gets an empty file.
    if (!value) return { status: 200, body: new Uint8Array(0), file: fileOf(BLOB, disposition) }
    return bytes(ctx, value.bytes, value.type, ctx.pictures.tag(value), disposition)
  }
  if (!value) return NO_PICTURE
  const format =
    ctx.params.rawPict !== undefined ? undefined : readImageFormat(ctx.params.imageFormat)
  if (format?.kind === 'unsupported') return NO_PICTURE
  const stored = (): Reply =>
    bytes(ctx, value.bytes, value.type, ctx.pictures.tag(value), disposition)
  if (format === undefined || format.kind === 'best') return stored()
  const type = format.type
  if (pictureTypeOf(value.type) === type) return stored()
  const tag = ctx.pictures.tag(value, type)
  if (notModified(ctx, tag)) return unchanged(type, tag)
  const converted = ctx.pictures.convert(value, type)
  const reply = (out: Converted): Reply =>
    out === undefined ? NO_PICTURE : bytes(ctx, out, type, tag, disposition)
  return isThenable(converted) ? converted.then(reply) : reply(converted)
}

const BLOB = 'application/octet-stream'

function fileOf(type: string, disposition: string | undefined, headers?: Record<string, string>) {
  return {
    type,
    ...(disposition !== undefined ? { disposition } : {}),
    ...(headers !== undefined ? { headers } : {}),
  }
}

/** Bytes with their tag: 304 without them when the client has them already. */
function bytes(
  ctx: RouteContext,
  body: Uint8Array,
  type: string,
  tag: string,
  disposition: string | undefined,
): Reply {
  if (notModified(ctx, tag)) return unchanged(type, tag)
  return {
    status: 200,
    body,
    file: fileOf(type, disposition, cacheHeaders(tag)),
  }
}

function unchanged(type: string, tag: string): Reply {
  return {
    status: 304,
    body: new Uint8Array(0),
    file: fileOf(type, undefined, cacheHeaders(tag)),
  }
}

/**
 * Whether `If-None-Match` names `tag` (or is `*`). Compared weakly, as RFC 9110 says for this
 * header: `W/"x"` matches `"x"`.
 */
function notModified(ctx: RouteContext, tag: string): boolean {
  const header = ctx.headers['if-none-match']
  if (header === undefined) return false
  const text = Array.isArray(header) ? header.join(',') : header
  if (text.trim() === '*') return true
  for (const part of text.split(',')) {
    const t = part.trim()
    if ((t.startsWith('W/') ? t.slice(2) : t) === tag) return true
  }
  return false
}
