/**
 * @module Who an entity set belongs to, and who may manage it. A set belongs to the session that
 * made it and to the user logged in on that session then (4D 21 R4: sets live "in memory during
 * the current session" and count against its quota), or to the process for code outside any
 * request. Reading a set is anyone's who names its id (under their own privileges and restrict,
 * orda/objects/entity-sets.ts); releasing it, or remaking it under its id once it is gone, is its owner's.
 */
import { sipHash24 } from './siphash.js'

/** The owner of a set: a session (by id, with its user's name if one was logged in) or the process. */
export interface SetOwner {
  readonly kind: 'session' | 'process'
  /** The session's id (followed when it is renewed at a login); `process` for the process. */
  readonly id: string
  /** The user logged in on the session when it made the set: any session of theirs manages it. */
  readonly user?: string | undefined
}

/** The owner of sets kept by code outside any request: it manages every set. */
export const PROCESS_OWNER: SetOwner = Object.freeze({ kind: 'process', id: 'process' })

/**
 * Whether `actor` may release `owner`'s set (or remake it): the process always; a session of the
 * owner's user when the owner had one; else the owning session itself.
 */
export function mayManage(owner: SetOwner, actor: SetOwner): boolean {
  if (actor.kind === 'process') return true
  if (owner.user !== undefined) return actor.user === owner.user
  return actor.kind === owner.kind && actor.id === owner.id
}

/** The name a set's id is signed for: its user's, else its session's (or the process's). */
export function signingName(owner: SetOwner): string {
  return owner.user !== undefined ? `u:${owner.user}` : `${owner.kind[0]}:${owner.id}`
}

/**
 * The names an id signed for `actor` may carry: its user's, its session's, and those of the ids
 * its session had before a login renewed it (`previous`), for a set it made as a guest.
 */
export function actorNames(actor: SetOwner, previous: readonly string[] = []): string[] {
  const names = [signingName({ kind: actor.kind, id: actor.id })]
  if (actor.user !== undefined) names.push(signingName(actor))
  for (const id of previous) names.push(signingName({ kind: actor.kind, id }))
  return names
}

const encoder = new TextEncoder()
const HEX = /^[0-9A-F]{32}$/

/**
 * Set ids signed for their owner: 16 random hex digits, then 16 of a SipHash of them and the
 * owner's signing name under the cache's secret key. An id thus says, to this server only, whose
 * it was, after the set is gone: a remake from `$savedfilter` is allowed to its owner alone, with
 * nothing remembered per id (no table an attacker could flood), and an id nobody was given fails
 * for everyone alike.
 */
export class SetIdSigner {
  readonly #key: Uint8Array

  /** `key`: 32 hex digits (128 bits); processes serving one datastore share it. */
  constructor(key: string) {
    if (!/^[0-9a-fA-F]{32}$/.test(key)) throw new RangeError('a set id key has 32 hex digits')
    this.#key = Uint8Array.from({ length: 16 }, (_, i) => parseInt(key.slice(2 * i, 2 * i + 2), 16))
  }

  /**
   * An id made of `random` (hex digits; its two halves folded into 16 by exclusive or, so that
   * what varies in either half varies in the id) and signed for `name`.
   */
  sign(random: string, name: string): string {
    const hex = random.replace(/[^0-9a-fA-F]/g, '').padEnd(32, '0')
    let head = ''
    for (let i = 0; i < 16; i++)
      head += (parseInt(hex[i]!, 16) ^ parseInt(hex[i + 16]!, 16)).toString(16).toUpperCase()
    return head + this.#tag(head, name)
  }

  /** Whether `id` was signed for one of `names`. */
  signedFor(id: string, names: readonly string[]): boolean {
    if (!HEX.test(id)) return false
    const head = id.slice(0, 16)
    const tag = id.slice(16)
    return names.some((name) => this.#tag(head, name) === tag)
  }

  #tag(head: string, name: string): string {
    const hash = sipHash24(this.#key, encoder.encode(`${head}\n${name}`))
    return hash.toString(16).toUpperCase().padStart(16, '0')
  }
}
