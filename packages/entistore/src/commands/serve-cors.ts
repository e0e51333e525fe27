/**
 * @module What `serve --cors` gives the REST handler (cors-option.ts reads the option without
 * loading the handler): a page on this machine or on an origin named sends its session cookie back
 * (credentials, the origin echoed); `*` lets any page read, without its cookie and without Chrome's
 * private network access, which cors.ts never gives the wildcard.
 */
import { isLoopbackOrigin, type CorsNotice, type CorsOptions } from '@entistore/rest'
import { corsNoticeLine } from './cors-notice-line.js'
import type { CorsOrigins } from './cors-option.js'

/** The handler's CORS options for `--cors`; what a browser hides from the page goes to `tell` (stderr). */
export function corsOptions(origins: CorsOrigins, tell?: (line: string) => void): CorsOptions {
  const onNotice =
    tell === undefined
      ? {}
      : { onNotice: (notice: CorsNotice) => tell(corsNoticeLine(notice, origins)) }
  if (origins === '*') return { origin: '*', ...onNotice }
  return {
    origin: origins === 'loopback' ? isLoopbackOrigin : origins,
    credentials: true,
    ...onNotice,
  }
}
