/**
 * @module Session ids a store can tell as its own without keeping them.
 *
 * A client without a cookie is sent one, but its session is kept only once it holds something
 * (session-store.ts, `visit`): most such clients never come back, and keeping a guest for each was
 * a Map entry, a place in a recency list and an eviction per request. A client that does come back
 * with the cookie must find its session as 4D keeps it — the same id, no new cookie — and an id
 * that expired must not: so the id itself says when it was issued, and that this store issued it.
 *
 * The form is the real server's, 32 uppercase hex digits: 8 of the issue time (seconds of the
 * store's clock), 16 random (64 bits: ids issued in one second do not meet), 8 of a tag, a keyed
 * mix of the other 24 under 64 secret bits drawn when the store is made. The tag is not a
 * cryptographic MAC (a synchronous HMAC is not in every runtime the core runs on): it keeps an id
 * made up by a client, or another store's, from being taken as one of ours. What a forged id would
 * win is little: a new guest, holding nothing, under a name of the client's choosing — the same as
 * planting an id it was given, which any client can do.
 */

// Session ids are 128 random bits as 32 uppercase hex digits. Random bytes are drawn 4 KB at a
// time (one call to the system's generator per 256 ids, not one per id) and spelled through a
// table of hex digit codes into one flat string: concatenating 16 pieces made 15 intermediate
// strings per id and a flattening copy when the id was first hashed as a Map key, work that a
// server answering cookie-less clients (one new session per request) paid on every request.
const POOL = new Uint8Array(4096)
let poolAt = POOL.length
const DIGITS = '0123456789ABCDEF'
const HIGH = Array.from({ length: 256 }, (_, b) => DIGITS.charCodeAt(b >> 4))
const LOW = Array.from({ length: 256 }, (_, b) => DIGITS.charCodeAt(b & 15))
const CODES: number[] = new Array<number>(32).fill(0)

/**
 * 128 random bits as 32 uppercase hex digits, the form of the real server's ids: sessions here, and
 * other ids a client must not guess (the REST interface's uploads).
 */
export function randomId(): string {
  if (poolAt + 16 > POOL.length) {
    globalThis.crypto.getRandomValues(POOL)
    poolAt = 0
  }
  for (let i = 0; i < 32; i += 2) {
    const byte = POOL[poolAt++]!
    CODES[i] = HIGH[byte]!
    CODES[i + 1] = LOW[byte]!
  }
  return String.fromCharCode.apply(null, CODES)
}

/** Writes the 8 hex digits of the 32-bit `word` in CODES from `at`. */
function spell(word: number, at: number): void {
  for (let shift = 24; shift >= 0; shift -= 8, at += 2) {
    const byte = (word >>> shift) & 255
    CODES[at] = HIGH[byte]!
    CODES[at + 1] = LOW[byte]!
  }
}

/** murmur3's final mix: every bit of the result depends on every bit of `h`. */
function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** The value of 8 hex digits of `id` from `at`, or -1 when one is not an uppercase hex digit. */
function hex8(id: string, at: number): number {
  let v = 0
  for (let i = at; i < at + 8; i++) {
    const c = id.charCodeAt(i)
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : -1
    if (d < 0) return -1
    v = v * 16 + d
  }
  return v
}

export class SignedSessionIds {
  // The secret, drawn at the first id made or read: the system's generator is slow to start (16 ms
  // of a `serve`'s start when it was drawn with the store), and a store may never make an id.
  #k0 = 0
  #k1 = 0
  #keyed = false
  // Random words drawn 4 KB at a time: one call to the system's generator per 512 ids.
  readonly #pool = new Uint32Array(1024)
  #at = this.#pool.length

  /** A new id, issued at `now` (milliseconds of the store's clock). */
  issue(now: number): string {
    const time = Math.floor(now / 1000) >>> 0
    const r0 = this.#word()
    const r1 = this.#word()
    spell(time, 0)
    spell(r0, 8)
    spell(r1, 16)
    spell(this.#tag(time, r0, r1), 24)
    return String.fromCharCode.apply(null, CODES)
  }

  /**
   * When `id` was issued (milliseconds, to the second below), or undefined when this store did not
   * issue it: another form, another store's, made up.
   */
  issuedAt(id: string): number | undefined {
    if (id.length !== 32) return undefined
    const time = hex8(id, 0)
    const r0 = hex8(id, 8)
    const r1 = hex8(id, 16)
    const tag = hex8(id, 24)
    if (time < 0 || r0 < 0 || r1 < 0 || tag !== this.#tag(time, r0, r1)) return undefined
    return time * 1000
  }

  #word(): number {
    if (this.#at === this.#pool.length) {
      globalThis.crypto.getRandomValues(this.#pool)
      this.#at = 0
    }
    return this.#pool[this.#at++]!
  }

  #tag(time: number, r0: number, r1: number): number {
    if (!this.#keyed) {
      this.#k0 = this.#word()
      this.#k1 = this.#word()
      this.#keyed = true
    }
    return mix(mix(mix(time ^ this.#k0) ^ r0) ^ r1 ^ this.#k1)
  }
}
