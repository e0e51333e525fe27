/**
 * @module SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash of short inputs, 64 bits out,
 * that nobody without the 128-bit key can compute or forge. The entity-set cache signs each id it
 * gives with it (set-ids.ts). Written here, synchronous and without `node:crypto`, because the core
 * runs anywhere JavaScript does; WebCrypto's HMAC is asynchronous.
 *
 * Arithmetic on 64-bit words is done on BigInt: a signature is made once per set kept and checked
 * once per remake, a few microseconds each.
 */

const MASK = (1n << 64n) - 1n
const rotl = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & MASK

/** The little-endian 64-bit word of `bytes` at `at` (missing bytes read as 0). */
function word(bytes: Uint8Array, at: number): bigint {
  let w = 0n
  for (let i = 7; i >= 0; i--) w = (w << 8n) | BigInt(bytes[at + i] ?? 0)
  return w
}

/** SipHash-2-4 of `message` under `key` (16 bytes), as a 64-bit unsigned BigInt. */
export function sipHash24(key: Uint8Array, message: Uint8Array): bigint {
  if (key.length !== 16) throw new RangeError('sipHash24: the key has 16 bytes')
  const k0 = word(key, 0)
  const k1 = word(key, 8)
  let v0 = k0 ^ 0x736f6d6570736575n
  let v1 = k1 ^ 0x646f72616e646f6dn
  let v2 = k0 ^ 0x6c7967656e657261n
  let v3 = k1 ^ 0x7465646279746573n
  const round = (): void => {
    v0 = (v0 + v1) & MASK
    v1 = rotl(v1, 13n) ^ v0
    v0 = rotl(v0, 32n)
    v2 = (v2 + v3) & MASK
    v3 = rotl(v3, 16n) ^ v2
    v0 = (v0 + v3) & MASK
    v3 = rotl(v3, 21n) ^ v0
    v2 = (v2 + v1) & MASK
    v1 = rotl(v1, 17n) ^ v2
    v2 = rotl(v2, 32n)
  }
  const whole = message.length - (message.length % 8)
  const compress = (m: bigint): void => {
    v3 ^= m
    round()
    round()
    v0 ^= m
  }
  for (let at = 0; at < whole; at += 8) compress(word(message, at))
  // The last word: the remaining bytes, and the length's low byte on top.
  compress(word(message.subarray(whole), 0) | (BigInt(message.length & 0xff) << 56n))
  v2 ^= 0xffn
  round()
  round()
  round()
  round()
  return v0 ^ v1 ^ v2 ^ v3
}
