/**
 * @module The bytes a text takes in UTF-8, counted where there is no `Buffer` too: the REST
 * interface runs in a page or a worker (through MSW), where a reply's size is still checked against
 * its limit and counted against the session's quota.
 */

type ByteLength = (text: string, encoding: 'utf8') => number

// Node's, Bun's and Deno's native count, read once (a global in Node, absent in a page).
const nativeByteLength = (globalThis as { Buffer?: { byteLength?: ByteLength } }).Buffer?.byteLength

/**
 * The count without Buffer, as Buffer counts: 1 byte a code unit below 0x80, 2 below 0x800, 4 a
 * surrogate pair, 3 any other (a lone surrogate too, written as U+FFFD).
 */
export function countUtf8Bytes(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) continue
    if (c < 0x800) bytes += 1
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        // Two code units, four bytes.
        bytes += 2
        i++
      } else bytes += 2
    } else bytes += 2
  }
  return bytes
}

/** The bytes `text` takes in UTF-8: its length, plus one or two for each character past ASCII. */
export const utf8Bytes: (text: string) => number =
  nativeByteLength === undefined ? countUtf8Bytes : (text) => nativeByteLength(text, 'utf8')
