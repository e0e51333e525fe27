/**
 * @module `$imageformat`: the format a picture is asked in. The real server documents GIF, PNG,
 * JPEG, TIFF and `best` (the picture as stored), and its clients spell them `.png`, `image/png` or
 * `png`; any other value is a format it does not serve, answered `{}` like an unreadable picture.
 */

/** The media types a picture can be converted to: the real server's list. */
export type PictureType = 'image/gif' | 'image/png' | 'image/jpeg' | 'image/tiff'

/** What a request asks for: the stored picture, a conversion, or a format no one serves. */
export type ImageFormat =
  | { readonly kind: 'best' }
  | { readonly kind: 'convert'; readonly type: PictureType }
  | { readonly kind: 'unsupported' }

const BEST: ImageFormat = Object.freeze({ kind: 'best' })
const UNSUPPORTED: ImageFormat = Object.freeze({ kind: 'unsupported' })

/** Each spelling's bare name (`jpg` and `tif` are the short forms of two of them) → media type. */
const TYPES: ReadonlyMap<string, PictureType> = new Map([
  ['gif', 'image/gif'],
  ['png', 'image/png'],
  ['jpeg', 'image/jpeg'],
  ['jpg', 'image/jpeg'],
  ['tiff', 'image/tiff'],
  ['tif', 'image/tiff'],
])

const CONVERT: ReadonlyMap<string, ImageFormat> = new Map(
  [...TYPES].map(([name, type]) => [name, Object.freeze({ kind: 'convert', type })]),
)

/** The bare name of a spelling: `.png`, `image/png` and `png` are all `png`. */
function bareName(text: string): string {
  const t = text.trim().toLowerCase()
  if (t.startsWith('.')) return t.slice(1)
  if (t.startsWith('image/')) return t.slice('image/'.length)
  return t
}

/** `$imageformat` read: absent and `best` are the stored picture. */
export function readImageFormat(text: string | undefined): ImageFormat {
  if (text === undefined) return BEST
  const name = bareName(text)
  if (name === 'best') return BEST
  return CONVERT.get(name) ?? UNSUPPORTED
}

/**
 * The conversion type a stored media type is already in (`image/jpg` is `image/jpeg`), or
 * undefined for a format conversion never writes (WebP, BMP…): asking for JPEG of a stored JPEG
 * sends it as stored, without decoding and encoding it again.
 */
export function pictureTypeOf(mediaType: string): PictureType | undefined {
  const t = mediaType.trim().toLowerCase()
  return t.startsWith('image/') ? TYPES.get(bareName(t)) : undefined
}

/** The file extension of a conversion type, for ETags. */
export function extensionOf(type: PictureType): string {
  return type.slice('image/'.length)
}
