/**
 * @module The data explorer's files: a page that shows what a datastore holds using only the REST
 * interface it sits beside (docs/explorer.md). Served at `/` by `entistore serve`, opt-in for an
 * embedder (`serve(ds, { explorer: true })`, or `explorerListener()` in front of any node listener).
 *
 * The page is three static files shipped in the package (`explorer/`: HTML, one ES module, one
 * style sheet), read once and kept in memory: no build step, no CDN, works offline. Only those
 * names are served (a fixed table, so no path ever reaches the file system), each with an ETag so
 * a reload costs a 304, and a Content-Security-Policy that allows the page's own script and style
 * and the REST interface's pictures, nothing from elsewhere.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'

export interface ExplorerOptions {
  /** Where the page is served; its files are below it. @default '/' */
  readonly path?: string
  /** The REST interface's base path, which the page calls. @default '/rest' */
  readonly restPath?: string
  /**
   * Asked at each request for the page: true turns it off (403), as 4D's
   * `ds.setAdminProtection(true)` turns off its Data Explorer. `serve` asks the datastore's
   * `isAdminProtected()`. @default never
   */
  readonly disabled?: () => boolean
}

interface ExplorerFile {
  readonly type: string
  readonly body: Buffer
  readonly etag: string
}

// The page's files, by the name it asks them under. Nothing else is ever served.
const FILES: readonly (readonly [string, string])[] = [
  ['index.html', 'text/html; charset=utf-8'],
  ['explorer.js', 'text/javascript; charset=utf-8'],
  ['explorer.css', 'text/css; charset=utf-8'],
]

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** The folder of the page's files: `explorer/` beside `src/` and `dist/` in the package. */
const FOLDER = new URL('../../explorer/', import.meta.url)

let loaded: ReadonlyMap<string, { readonly type: string; readonly text: string }> | undefined

function sources(): ReadonlyMap<string, { readonly type: string; readonly text: string }> {
  loaded ??= new Map(
    FILES.map(([name, type]) => [
      name,
      { type, text: readFileSync(new URL(name, FOLDER), 'utf8') },
    ]),
  )
  return loaded
}

const withSlash = (path: string): string => (path.endsWith('/') ? path : `${path}/`)

/** The files as served under `options`: the page is told where the REST interface is. */
function filesFor(options: ExplorerOptions): ReadonlyMap<string, ExplorerFile> {
  const restPath = (options.restPath ?? '/rest').replace(/\/+$/, '')
  const out = new Map<string, ExplorerFile>()
  for (const [name, { type, text }] of sources()) {
    const served =
      name === 'index.html'
        ? text.replace('content="/rest"', `content="${escapeAttr(restPath)}"`)
        : text
    const body = Buffer.from(served, 'utf8')
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
    out.set(name, { type, body, etag })
  }
  return out
}

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * Answers the explorer's requests (GET and HEAD of its page and files) and gives every other
 * request to `next`. The page is `path` itself (and `path/`); its files are `path/<name>`.
 */
export function explorerListener(
  next: RequestListener,
  options: ExplorerOptions = {},
): RequestListener {
  const base = withSlash(options.path ?? '/')
  const files = filesFor(options)
  return (req: IncomingMessage, res: ServerResponse) => {
    const name = explorerFileName(req.url ?? '', base)
    if (name === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return next(req, res)
    const file = files.get(name)
    if (!file) return next(req, res)
    if (options.disabled?.() === true) {
      const body = 'The data explorer is turned off (ds.setAdminProtection(true)).\n'
      res.writeHead(403, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      res.end(req.method === 'HEAD' ? undefined : body)
      return
    }
    const headers = {
      'content-type': file.type,
      etag: file.etag,
      'cache-control': 'no-cache',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    }
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers)
      res.end()
      return
    }
    res.writeHead(200, { ...headers, 'content-length': file.body.length })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }
}

/** The file a request target names under `base` (`index.html` for the page itself), if any. */
export function explorerFileName(target: string, base: string): string | undefined {
  const q = target.indexOf('?')
  const path = q < 0 ? target : target.slice(0, q)
  if (path === base || path === base.slice(0, -1)) return 'index.html'
  if (!path.startsWith(base)) return undefined
  const rest = path.slice(base.length)
  return /^[a-z-]+\.(?:html|js|css)$/.test(rest) ? rest : undefined
}
