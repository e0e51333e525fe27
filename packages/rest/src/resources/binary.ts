/**
 * @module A picture or BLOB attribute read as its bytes, with their media type, instead of JSON.
 */
import { fail, isBinaryValue, type Entity, type StorageAttributeDef } from '@entistore/core'
import type { RestParams } from '../url/params.js'
import type { Reply } from '../reply.js'

/**
 * `/rest/Employee(1)/photo?$imageformat=best&$version=3&$expand=photo` and
 * `/rest/Company(1)/brochure?$binary=true&$expand=brochure`: the bytes themselves, with their media
 * type (a BLOB asked with `$binary` as an attachment, to save). No value is an empty reply, as the
 * real server documents. Converting a picture to another format is not done yet: a format other
 * than `best` or the picture's own is 501.
 */
export function binaryContent(
  params: RestParams,
  entity: Entity,
  attr: StorageAttributeDef,
): Reply {
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
