/**
 * @module `entistore serve --cors [origins]`, read: the origins a browser page may call the server
 * from, as a browser writes them in its `Origin` header; alone (or `loopback`), the pages on this
 * machine; `*`, written, any page (without its cookie: serve-run.ts).
 */
import { UsageError } from './command.js'

const EXAMPLE = 'http://localhost:5173,https://app.example.com'

/** What `--cors` allows: origins, the pages on this machine (the option alone), or any page. */
export type CorsOrigins = readonly string[] | 'loopback' | '*'

/**
 * `--cors`'s value: `loopback` (what the option alone is read as: `http` or `https` on `localhost`,
 * `127.0.0.1` or `[::1]`, any port), `*` (any page), or origins separated by commas, each
 * `scheme://host[:port]` with no path. Written as a browser sends it, so that the comparison is
 * exact: the scheme and host in lower case, a default port (`:80` for http) left out, a trailing
 * slash dropped.
 */
export function parseCorsOrigins(text: string): CorsOrigins {
  const word = text.trim()
  if (word === '*' || word === 'loopback') return word
  const origins = text
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
  if (origins.length === 0)
    throw new UsageError(
      `--cors needs origins such as ${EXAMPLE}, or nothing for the pages on this machine`,
    )
  return [...new Set(origins.map(origin))]
}

function origin(text: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)\/?$/i.exec(text)
  if (m === null)
    throw new UsageError(
      `--cors takes origins as a browser sends them, scheme://host[:port] with no path, ` +
        `separated by commas (${EXAMPLE}), got "${text}"`,
    )
  const scheme = m[1]!.toLowerCase()
  // http and https as the URL parser writes them (`:80` and `:443` dropped); an app's own scheme
  // (capacitor://localhost) as given, in lower case.
  if (scheme === 'http' || scheme === 'https') {
    try {
      return new URL(`${scheme}://${m[2]}`).origin
    } catch {
      throw new UsageError(`--cors: "${text}" is not an origin (${EXAMPLE})`)
    }
  }
  return `${scheme}://${m[2]!.toLowerCase()}`
}
