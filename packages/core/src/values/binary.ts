/** @module Picture and BLOB values: bytes, a media type and a version that changes with every write. */

export interface BinaryValue {
  readonly kind: 'binary'
  readonly bytes: Uint8Array
  /** The media type, `image/png` or `application/octet-stream`. */
  readonly type: string
  /**
   * The stamp of the entity write that set it (1 when created or loaded without one): every write
   * of it gives a new version, which URIs carry as `$version`, so a cached copy is never taken for it.
   */
  readonly version: number
}

// The bytes are checked too: JSON input can say "kind": "binary", but cannot hold a Uint8Array.
export function isBinaryValue(v: unknown): v is BinaryValue {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { kind?: unknown }).kind === 'binary' &&
    (v as { bytes?: unknown }).bytes instanceof Uint8Array
  )
}

export function binaryValue(bytes: Uint8Array, type: string, version = 1): BinaryValue {
  return Object.freeze({ kind: 'binary', bytes, type, version })
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Decodes standard base64 (whitespace allowed); returns undefined for anything else. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, '')
  if (clean.length % 4 !== 0 || !BASE64.test(clean)) return undefined
  // atob is global in Node 20 and in browsers: the core stays free of Buffer.
  const raw = atob(clean)
  const out = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

export function encodeBase64(bytes: Uint8Array): string {
  let raw = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    raw += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(raw)
}

const SIGNATURES: readonly [string, readonly number[]][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
  ['image/bmp', [0x42, 0x4d]],
]

/** The image media type read from the first bytes, or undefined if the format is not recognised. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  for (const [type, sig] of SIGNATURES) if (sig.every((b, i) => bytes[i] === b)) return type
  if (bytes.length > 12 && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP')
    return 'image/webp'
  return undefined
}
