/**
 * @module What `serve --cors` gives the REST handler (cors-option.ts reads the option without
 * loading the handler): a page on this machine or on an origin named sends its session cookie back
 * (credentials, the origin echoed); `*` lets any page read, without its cookie and without Chrome's
 * private network access, which cors.ts never gives the wildcard.
 */
import { isLoopbackOrigin, type CorsOptions } from '@entistore/rest'
import type { CorsOrigins } from './cors-option.js'

export function corsOptions(origins: CorsOrigins): CorsOptions {
  if (origins === '*') return { origin: '*' }
  return { origin: origins === 'loopback' ? isLoopbackOrigin : origins, credentials: true }
}
