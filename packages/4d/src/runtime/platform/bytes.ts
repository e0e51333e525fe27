/**
 * @module Bytes as text (Base64, hexadecimal) and random bytes, on what every JavaScript host has:
 * Node's `Buffer` where there is one (a native call for a large BLOB), else a plain loop (a page,
 * where the language runs inside the MSW handlers, issue 81). Both read Base64 as Node does:
 * either alphabet, padding or not, any other character skipped.
 */

type NodeBuffer = {
  from(bytes: Uint8Array): { toString(encoding: string): string }
  from(text: string, encoding: string): Uint8Array
}
const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

// Each character of either alphabet to its six bits; -1 for any other.
const SEXTETS = new Int8Array(128).fill(-1)
for (let i = 0; i < 64; i++) {
  SEXTETS[ALPHABET.charCodeAt(i)] = i
  SEXTETS[URL_ALPHABET.charCodeAt(i)] = i
}

/** `bytes` in Base64, padded; in Base64URL (RFC 4648 §5) unpadded with `url`. */
export function base64Of(bytes: Uint8Array, url: boolean): string {
  if (NodeBuffer) return NodeBuffer.from(bytes).toString(url ? 'base64url' : 'base64')
  return plainBase64Of(bytes, url)
}

/** `base64Of` without Buffer: what a page runs. */
export function plainBase64Of(bytes: Uint8Array, url: boolean): string {
  const abc = url ? URL_ALPHABET : ALPHABET
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += abc[n >> 18]! + abc[(n >> 12) & 63]! + abc[(n >> 6) & 63]! + abc[n & 63]!
  }
  const rest = bytes.length - i
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0)
    out += abc[n >> 18]! + abc[(n >> 12) & 63]!
    if (rest === 2) out += abc[(n >> 6) & 63]!
    if (!url) out += rest === 2 ? '=' : '=='
  }
  return out
}

/** The bytes `text` encodes in Base64 or Base64URL; other characters skipped, as Node does. */
export function bytesOfBase64(text: string): Uint8Array {
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(text, 'base64'))
  return plainBytesOfBase64(text)
}

/** `bytesOfBase64` without Buffer: what a page runs. */
export function plainBytesOfBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3)
  let bits = 0
  let held = 0
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // Node stops at the first `=`.
    if (c === 61) break
    const v = c < 128 ? SEXTETS[c]! : -1
    if (v < 0) continue
    bits = ((bits << 6) | v) & 0xffffff
    held += 6
    if (held >= 8) {
      held -= 8
      out[n++] = (bits >> held) & 0xff
    }
  }
  return out.slice(0, n)
}

/** `bytes` in hexadecimal, in capitals. */
export function hexOf(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out.toUpperCase()
}

/** `n` random bytes from the host's cryptographic generator (Web Crypto: Node and pages alike). */
export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n))
}

/** A random (version 4) UUID in its canonical form, from the host's generator. */
export function randomUuid(): string {
  return globalThis.crypto.randomUUID()
}
