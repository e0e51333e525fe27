/**
 * @module `{"ID": "D507BC03E613487E9B4C2F6A0512FE50"}` as the value of a picture or BLOB attribute
 * in a write body: the file uploaded under that ID (`POST /rest/$upload`), as 4D documents it. Read
 * here, at the REST edge, so that the core only ever gets bytes: the core knows nothing of uploads.
 */
import { binaryValue, fail, type DataClass } from '@entistore/core'
import { isFileAttribute } from '../uploads/raw-target.js'
import { pictureType } from '../uploads/uploaded-file.js'
import type { UploadStore } from '../uploads/upload-store.js'

type Values = Readonly<Record<string, unknown>>

/** The ID of `{"ID": "…"}`; undefined for any other value (`{"$base64": …}` goes to the core). */
function uploadId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const id = (value as { ID?: unknown }).ID
  return typeof id === 'string' && !('$base64' in value) ? id : undefined
}

/**
 * `values` with each `{"ID": …}` given to a picture or BLOB attribute replaced by the file uploaded
 * under that ID; `values` itself when there is none. On any other attribute the object is left as
 * it is: an object attribute stores it, another type refuses it as it refuses any wrong value.
 * A picture upload is fine for a BLOB (bytes are bytes); a BLOB upload for a picture only if its
 * bytes are a picture in a recognised format.
 *
 * Throws UploadNotFound (9120) for an ID no upload has (never made, expired or evicted), and
 * InvalidAttributeValue (1570) for a BLOB upload that is not a picture given to a picture: both
 * before anything is written, so that a whole `$atomic` batch is refused with them.
 */
export function withUploads(dc: DataClass, values: Values, uploads: UploadStore): Values {
  let out: Record<string, unknown> | undefined
  for (const name of Object.keys(values)) {
    const id = uploadId(values[name])
    if (id === undefined) continue
    const attr = dc.def.attributesByName.get(name)
    if (!isFileAttribute(attr)) continue
    const upload = uploads.get(id) ?? fail('UploadNotFound', [id, name])
    const type = attr.type === 'image' ? pictureType(upload) : upload.type
    if (type === undefined)
      fail(
        'InvalidAttributeValue',
        [
          JSON.stringify({ ID: id }),
          name,
          attr.type,
          dc.name,
          'the upload is not a picture in a recognised format: upload it with $rawPict=<its media type>',
        ],
        { details: { attribute: name } },
      )
    out ??= { ...values }
    out[name] = binaryValue(upload.bytes, type)
  }
  return out ?? values
}
