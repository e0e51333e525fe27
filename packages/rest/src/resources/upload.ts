/**
 * @module Files sent as raw bytes (the body is never read as JSON):
 * - `POST /rest/$upload?$rawPict=true` (a picture) or `?$binary=true` (any other file) keeps the
 *   file for `$timeout` seconds and answers `{"ID": "…"}`, which a later write gives as the value of
 *   a picture or BLOB attribute (write/upload-values.ts);
 * - `POST /rest/Employee(3)/photo?$rawPict=image/png` (Wakanda's client) writes the bytes straight
 *   to that attribute of that entity and answers `{"ok": true}`, as the real server does.
 * Which requests these are is decided once, for the router and the transports' body limit:
 * uploads/raw-target.ts.
 */
import { binaryValue, datastoreError, fail, isPublic, type DataClass } from '@entistore/core'
import { ok, type Reply } from '../reply.js'
import { isFileAttribute } from '../uploads/raw-target.js'
import { blobFile, pictureFile } from '../uploads/uploaded-file.js'
import type { Upload } from '../uploads/upload-store.js'
import { visibleAttribute, type RouteContext } from './context.js'
import { isShown } from '../serialize/entity.js'

/**
 * `POST /rest/$upload`: keeps the file and answers its ID. Only for a session that may store it
 * somewhere: a file kept for one that may write no picture or BLOB attribute would only take the
 * server's memory (403, 1558).
 */
export function upload(ctx: RouteContext): Reply {
  const { params } = ctx
  const picture = params.rawPict !== undefined
  if (ctx.perms && !mayStoreFiles(ctx)) fail('UploadForbidden', [])
  if (picture === params.binary)
    fail('UploadRefused', [
      picture
        ? 'give $rawPict or $binary, not both'
        : 'say what the file is: $rawPict=true for a picture (or its media type, $rawPict=image/png), $binary=true for any other file',
    ])
  const file = picture
    ? pictureFile(ctx.bytes(), params.rawPict)
    : blobFile(ctx.bytes(), ctx.headers['content-type'])
  return ok({ ID: ctx.uploads.keep(file, params.timeout) })
}

/**
 * Whether the session may write a file anywhere: create or update a picture or BLOB attribute of
 * some dataclass a client may see. Pictures and BLOBs both count, a picture upload being storable
 * in a BLOB too.
 */
function mayStoreFiles(ctx: RouteContext): boolean {
  const perms = ctx.perms!
  const schema = ctx.ds.schema
  for (const dc of schema.dataClasses) {
    if (!isPublic(dc)) continue
    for (const attr of dc.attributes)
      if (
        isFileAttribute(attr) &&
        isShown(schema, attr) &&
        (perms.may('create', dc.name, attr.name) || perms.may('update', dc.name, attr.name))
      )
        return true
  }
  return false
}

/** A GET of `$upload`: 405, `Allow: POST`. */
export function uploadGet(ctx: RouteContext): never {
  throw datastoreError('MethodNotAllowed', [ctx.method, '$upload takes POST'], {
    details: { allow: 'POST' },
  })
}

/**
 * `POST /rest/{dataClass}({key})/{attribute}`: the body's bytes become the attribute's value, by the
 * same write as any other (the session's permissions and locks, the stamp bumped). A picture's type
 * is `$rawPict`'s or read from its bytes; a BLOB's is the request's Content-Type, or `$rawPict`'s.
 */
export function writeAttribute(ctx: RouteContext, dc: DataClass, key: string, name: string): Reply {
  const attr = visibleAttribute(dc, name)
  if (!isFileAttribute(attr))
    fail('UploadRefused', [
      `only picture and BLOB attributes take a file's bytes, and ${dc.name}.${name} is not one (write other values with $method=update)`,
    ])
  ctx.perms?.need('update', dc.name)
  ctx.perms?.needUpdate(dc.name, name)
  const { rawPict } = ctx.params
  const file: Upload =
    attr.type === 'image' || rawPict !== undefined
      ? pictureFile(ctx.bytes(), rawPict)
      : blobFile(ctx.bytes(), ctx.headers['content-type'])
  dc.update(key, { [name]: binaryValue(file.bytes, file.type) })
  return ok('{"ok":true}')
}
