/**
 * @module The file a request's body carries, as `POST /rest/$upload` and a raw write to an
 * attribute (`POST /rest/Employee(3)/photo?$rawPict=image/png`) send it: the bytes as they came,
 * read as a picture or as a BLOB, with the media type each is kept with.
 */
import { fail, sniffImageType } from '@entistore/core'
import type { RestHeaders } from '../exchange.js'
import type { Upload } from './upload-store.js'

/** The formats a picture's own bytes are recognised in, for the messages. */
const KNOWN_FORMATS = 'PNG, JPEG, GIF, TIFF, BMP or WebP'

/**
 * A picture. Its media type is `$rawPict`'s when that is one (`image/png`), trusted as the client's
 * word (an SVG is not recognised from its bytes); with `$rawPict=true`, read from the first bytes,
 * and a format not recognised is refused: stored under a guessed type it would be served as one.
 */
export function pictureFile(bytes: Uint8Array, rawPict: string | undefined): Upload {
  const type = rawPict !== undefined && rawPict !== 'true' ? rawPict : sniffImageType(bytes)
  if (type === undefined)
    fail('UploadRefused', [
      `the body is not a picture in a format recognised (${KNOWN_FORMATS}): give its media type as $rawPict=image/…`,
    ])
  return { bytes, type, picture: true }
}

/** A BLOB, of the request's Content-Type (`application/octet-stream` when it gives none). */
export function blobFile(bytes: Uint8Array, contentType: RestHeaders[string]): Upload {
  return { bytes, type: mediaType(contentType), picture: false }
}

/**
 * The media type a picture upload given to a picture attribute is kept as, or undefined for a BLOB
 * upload whose bytes are not a picture in a recognised format.
 */
export function pictureType(upload: Upload): string | undefined {
  return upload.picture ? upload.type : sniffImageType(upload.bytes)
}

// RFC 9110's token characters on both sides of the slash.
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/

/** The type of a Content-Type header, lowercased and without its parameters. */
function mediaType(header: RestHeaders[string]): string {
  const value = (Array.isArray(header) ? header[0] : header) ?? ''
  const type = value.split(';')[0]!.trim().toLowerCase()
  if (type === '') return 'application/octet-stream'
  // A browser's FormData: the file is inside the envelope, which would be kept as the BLOB.
  if (type.startsWith('multipart/'))
    fail('UploadRefused', [`send the file's own bytes as the body, not a form (${type})`])
  if (!MEDIA_TYPE.test(type))
    fail('UploadRefused', [
      `its Content-Type ${JSON.stringify(type.slice(0, 100))} is not a media type`,
    ])
  return type
}

/**
 * The bytes of a request body that carries a file: a copy (the upload store keeps it, and a
 * transport's buffer may be a view of a larger one), or no bytes when there is no body. A text body
 * (a parser in front of the adapter read it as text) is its UTF-8. Past `limit`, 413 (9033): the
 * transports refuse such a body before reading it whole (`RestCore.bodyLimit`); this catches a body
 * handed to `respond` by other code.
 */
export function bodyBytes(body: Uint8Array | string | undefined, limit: number): Uint8Array {
  if (body === undefined) return new Uint8Array(0)
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  if (bytes.length > limit) fail('BodyTooLarge', [limit])
  return typeof body === 'string' ? bytes : new Uint8Array(bytes)
}
