/**
 * @module The path that HTTP request handlers and HTTP rules match their patterns against: the
 * request's path without its query, percent-decoded (`/caf%C3%A9` is `/café`), as 4D matches the
 * URL a browser shows, its repeated slashes made one (4D's handler page calls
 * `IP:port//docs/invoices/` the prefix `docs/invoices`'s, and neither `//rest/…` nor `/%72est/…`
 * slips past the paths no handler may take, nor `//private/…` past a rule's `^/private`). A
 * malformed escape leaves the path as sent. Also where the settings' two
 * files say where a mistake is: one line naming the file and the place.
 */
import { fail } from '@entistore/core'

/** `path` (percent-encoded, without the query) as the patterns see it. */
export function matchedPath(path: string): string {
  return decoded(path).replace(/\/{2,}/g, '/')
}

function decoded(path: string): string {
  if (!path.includes('%')) return path
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** A regular expression from settings, or InvalidHttpSettings (9172) naming `where`. */
export function settingsRegex(source: unknown, where: string): RegExp {
  if (typeof source !== 'string' || source === '')
    return invalid(where, 'expected a regular expression as text')
  try {
    return new RegExp(source, 'u')
  } catch (error) {
    return invalid(where, (error as Error).message)
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Refuses settings: InvalidHttpSettings (9172), `where` naming the file (or option) and entry. */
export const invalid = (where: string, why: string): never =>
  fail('InvalidHttpSettings', [where, why])
