/**
 * @module The width and height of an image, read from its header (`PICTURE PROPERTIES`): PNG
 * (IHDR), GIF (the logical screen), BMP (the info header), JPEG (the first start-of-frame marker),
 * WebP (VP8, VP8L, VP8X). Undefined for bytes of another kind or a header cut short; nothing is
 * decoded.
 */

export interface ImageSize {
  readonly width: number
  readonly height: number
}

export function imageSize(b: Uint8Array): ImageSize | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength)
  const has = (n: number): boolean => b.length >= n
  const ascii = (at: number, text: string): boolean =>
    has(at + text.length) && [...text].every((c, i) => b[at + i] === c.charCodeAt(0))
  if (ascii(1, 'PNG') && has(24)) return { width: v.getUint32(16), height: v.getUint32(20) }
  if (ascii(0, 'GIF8') && has(10))
    return { width: v.getUint16(6, true), height: v.getUint16(8, true) }
  if (ascii(0, 'BM') && has(26))
    return { width: v.getInt32(18, true), height: Math.abs(v.getInt32(22, true)) }
  if (b[0] === 0xff && b[1] === 0xd8) return jpegSize(b, v)
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return webpSize(b, v, has, ascii)
  return undefined
}

// The start-of-frame markers (baseline, progressive, lossless…): C0–CF but C4, C8 and CC.
const isFrame = (m: number): boolean =>
  m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc

function jpegSize(b: Uint8Array, v: DataView): ImageSize | undefined {
  let at = 2
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined
    const marker = b[at + 1]!
    if (isFrame(marker)) return { height: v.getUint16(at + 5), width: v.getUint16(at + 7) }
    at += 2 + v.getUint16(at + 2)
  }
  return undefined
}

function webpSize(
  b: Uint8Array,
  v: DataView,
  has: (n: number) => boolean,
  ascii: (at: number, text: string) => boolean,
): ImageSize | undefined {
  if (ascii(12, 'VP8 ') && has(30))
    return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff }
  if (ascii(12, 'VP8L') && has(25)) {
    const bits = v.getUint32(21, true)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  if (ascii(12, 'VP8X') && has(30)) {
    const w = b[24]! | (b[25]! << 8) | (b[26]! << 16)
    const h = b[27]! | (b[28]! << 8) | (b[29]! << 16)
    return { width: w + 1, height: h + 1 }
  }
  return undefined
}
