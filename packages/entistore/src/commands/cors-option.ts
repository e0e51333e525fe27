/**
 * @module `entistore serve --cors [origins]`, read: the origins a browser page may call the server
 * from, as a browser writes them in its `Origin` header, or any origin when the option is alone.
 */
import { UsageError } from './command.js'

const EXAMPLE = 'http://localhost:5173,https://app.example.com'

/**
 * `--cors`'s value: `*` (the option alone: any origin) or origins separated by commas, each
 * `scheme://host[:port]` with no path. Written as a browser sends it, so that the comparison is
 * exact: the scheme and host in lower case, a default port (`:80` for http) left out, a trailing
 * slash dropped.
 */
export function parseCorsOrigins(text: string): readonly string[] | '*' {
  if (text.trim() === '*') return '*'
  const origins = text
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
  if (origins.length === 0)
    throw new UsageError(`--cors needs origins such as ${EXAMPLE}, or nothing for any origin`)
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
