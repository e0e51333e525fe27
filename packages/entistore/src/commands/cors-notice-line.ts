/**
 * @module What `serve --cors` writes on stderr when a browser hides something from the page
 * (cors-notices.ts in the REST package tells it, once per origin): an origin refused, whose page
 * reads nothing while the request log shows 200s, with the `--cors` that would allow it and the
 * localhost/127.0.0.1 mix-up behind most; a session cookie sent to a page on another site, which
 * the browser never sends back, so that a login answers 200 and every request after it 401.
 */
import { hostOf, loopbackTwins, serverAt, type CorsNotice } from '@entistore/rest'
import type { CorsOrigins } from './cors-option.js'

/** The stderr line of `notice`, for a server whose `--cors` is `origins`. */
export function corsNoticeLine(notice: CorsNotice, origins: CorsOrigins): string {
  return notice.kind === 'refused'
    ? refusedLine(notice.origin, origins)
    : `entistore: CORS: a page on ${notice.origin} was sent its session cookie by ${notice.host}, ` +
        `another site: the browser does not send it back from that page, so a login lasts no ` +
        `longer than its reply (the requests after it answer 401); call the server at ` +
        `${serverAt(notice.host, hostOf(notice.origin))} from the page, or open the page on ` +
        `the server's host`
}

function refusedLine(origin: string, origins: CorsOrigins): string {
  const head =
    `entistore: CORS: refused the origin ${origin} (not allowed by --cors): ` +
    `its pages read no reply (Failed to fetch), whatever the status logged`
  if (origin === 'null')
    return `${head}; a page opened from a file or in a sandboxed frame sends Origin: null: serve the page over http`
  if (origins === 'loopback' || origins === '*')
    return `${head}; --cors alone allows the pages on this machine only (localhost, 127.0.0.1, [::1]): to allow it, --cors ${origin}`
  const twin = loopbackTwins(origin).find((o) => origins.includes(o))
  const added = `--cors ${[...origins, origin].join(',')}`
  return twin === undefined
    ? `${head}; to allow it, ${added}`
    : `${head}; ${twin} is allowed, and ${origin} is another origin of the same machine: ` +
        `open the page at ${twin}, or allow both: ${added}`
}
