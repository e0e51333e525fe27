/**
 * @module `entistore serve`'s web server limits and session cookie flags (docs/web-server.md,
 * "Limits and the session cookie"): the options `createRestHandler` and the datastore already take,
 * read from the command line, a bad value a usage error.
 */
import { integerIn, read, UsageError, type Values } from './command.js'

export const LIMITS_HELP = `  --max-body    the largest request body in bytes, 4D's Maximum Request Size (default 2000000);
                a larger one is refused with 413
  --max-sessions  how many sessions may be open at once (default 10000); past it the least
                recent one that may make room is closed
  --cookie-samesite  the session cookie's SameSite: Strict (the default, as 4D), Lax or None
                (None adds Secure)
  --cookie-secure  mark the session cookie Secure: for a server behind a proxy that ends TLS
  --no-cookie-httponly  let page scripts read the session cookie (HttpOnly by default, as 4D)`

export const LIMITS_OPTIONS = {
  'max-body': { type: 'string' },
  'max-sessions': { type: 'string' },
  'cookie-samesite': { type: 'string' },
  'cookie-secure': { type: 'boolean' },
  'no-cookie-httponly': { type: 'boolean' },
} as const

/** What the command line gave of them; an option left out is absent (the handler's default). */
export interface ServeLimits {
  readonly maxBodyBytes?: number
  readonly maxSessions?: number
  readonly sessionCookieSameSite?: 'Strict' | 'Lax' | 'None'
  readonly sessionCookieSecure?: true
  readonly sessionCookieHttpOnly?: false
}

const SAME_SITE = ['Strict', 'Lax', 'None'] as const

export function serveLimits(values: Values): ServeLimits {
  const maxBodyBytes = read(
    values['max-body'],
    integerIn(1, Number.MAX_SAFE_INTEGER),
    '--max-body must be a number of bytes, an integer from 1',
  )
  const maxSessions = read(
    values['max-sessions'],
    integerIn(1, Number.MAX_SAFE_INTEGER),
    '--max-sessions must be an integer from 1',
  )
  const sameSite = values['cookie-samesite'] as string | undefined
  if (sameSite !== undefined && !(SAME_SITE as readonly string[]).includes(sameSite))
    throw new UsageError(`--cookie-samesite must be Strict, Lax or None, got "${sameSite}"`)
  return {
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(maxSessions === undefined ? {} : { maxSessions }),
    ...(sameSite === undefined
      ? {}
      : { sessionCookieSameSite: sameSite as (typeof SAME_SITE)[number] }),
    ...(values['cookie-secure'] === true ? { sessionCookieSecure: true as const } : {}),
    ...(values['no-cookie-httponly'] === true ? { sessionCookieHttpOnly: false as const } : {}),
  }
}
