/** The explorer's files as served: which targets are its, caching, headers, and nothing else. */
import { readFileSync, statSync } from 'node:fs'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { explorerFileName, explorerListener, type ExplorerOptions } from './explorer-files.js'

describe('explorerFileName', () => {
  it.each([
    ['/', '/', 'index.html'],
    ['/?dataclass=Employee', '/', 'index.html'],
    ['/explorer.js', '/', 'explorer.js'],
    ['/explorer.css?v=2', '/', 'explorer.css'],
    ['/rest/$catalog', '/', undefined],
    ['/../package.json', '/', undefined],
    ['/%2e%2e/package.json', '/', undefined],
    ['/sub/explorer.js', '/', undefined],
    ['/ui', '/ui/', 'index.html'],
    ['/ui/', '/ui/', 'index.html'],
    ['/ui/explorer.js', '/ui/', 'explorer.js'],
    ['/uix/explorer.js', '/ui/', undefined],
    ['/explorer.js', '/ui/', undefined],
  ])('%s under %s is %s', (target, base, name) => {
    expect(explorerFileName(target, base)).toBe(name)
  })
})

describe('explorerListener', () => {
  let close: (() => void) | undefined
  afterEach(() => close?.())

  /** A server whose other requests answer 418, so that a request passed on is seen. */
  async function start(options: ExplorerOptions = {}): Promise<string> {
    const next: RequestListener = (_req, res) => res.writeHead(418).end('next')
    const server = createServer(explorerListener(next, options))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    close = () => server.close()
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  it('answers 403 for its files while `disabled` says so (4D’s setAdminProtection), and passes the rest on', async () => {
    let off = true
    const url = await start({ disabled: () => off })
    const page = await fetch(`${url}/`)
    expect(page.status).toBe(403)
    expect(await page.text()).toMatch(/setAdminProtection/)
    expect((await fetch(`${url}/explorer.js`)).status).toBe(403)
    expect((await fetch(`${url}/rest/$catalog`)).status).toBe(418)
    off = false
    expect((await fetch(`${url}/`)).status).toBe(200)
  })

  it('serves the page with its REST path, a CSP, and a 304 for an unchanged ETag', async () => {
    const url = await start({ restPath: '/api/v1/' })
    const page = await fetch(`${url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await page.text()
    expect(html).toContain('<meta name="entistore-rest" content="/api/v1" />')
    const etag = page.headers.get('etag')!
    const again = await fetch(`${url}/`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const script = await fetch(`${url}/explorer.js`)
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toContain('entistore-rest')
    const head = await fetch(`${url}/explorer.css`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000)
  })

  it('passes on every other request: other paths, other methods, other files', async () => {
    const url = await start({ path: '/ui' })
    for (const target of ['/', '/rest/$catalog', '/ui/tsconfig.json', '/ui/../package.json'])
      expect((await fetch(`${url}${target}`)).status, target).toBe(418)
    expect((await fetch(`${url}/ui`, { method: 'POST', body: '{}' })).status).toBe(418)
    expect((await fetch(`${url}/ui/`)).status).toBe(200)
  })
})

describe('docs/explorer.md', () => {
  it("states the size of the page's three files, to the nearest KB", () => {
    const folder = new URL('../../explorer/', import.meta.url)
    const bytes = ['index.html', 'explorer.js', 'explorer.css']
      .map((name) => statSync(new URL(name, folder)).size)
      .reduce((a, b) => a + b)
    const page = readFileSync(new URL('../../../../docs/explorer.md', import.meta.url), 'utf8')
    const stated = /`explorer\.css`, (\d+) KB in\s+all/.exec(page)?.[1]
    const actual = Math.round(bytes / 1000)
    expect(
      Number(stated),
      `docs/explorer.md says ${stated} KB; the files are ${bytes} bytes: say ${actual} KB`,
    ).toBe(actual)
  })
})
