/**
 * `WEB Server` in a project's 4D code served by `entistore serve --project`: the running server's
 * 4D.WebServer object (WebServerClass.md), its `quotas` the very ones the server enforces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Started } from '../commands/cli-serve.fixture.js'
import { DOCS, projectCopy } from './four-d-rest.fixture.js'

const PROBE = `shared singleton Class constructor()

exposed Function info() : Object
	var $ws:=WEB Server
	return New object("isRunning"; $ws.isRunning; "HTTPPort"; $ws.HTTPPort; "name"; $ws.name; "sessionCookieName"; $ws.sessionCookieName; "maxRequestSize"; $ws.maxRequestSize; "quota"; $ws.quotas.nbRequestsPerMin)

exposed Function limit($perMinute : Variant)
	WEB Server.quotas.nbRequestsPerMin:=$perMinute
`

describe('WEB Server over REST', () => {
  const project = projectCopy(DOCS, { 'Project/Sources/Classes/WebProbe.4dm': PROBE })
  let s: Started
  beforeAll(async () => {
    s = await startServe(['serve', '--project', project, '--port', '0', '--no-explorer', '--quiet'])
  })
  afterAll(() => s?.stop())
  const call = (fn: string, body: unknown[] = []) =>
    fetch(`${s.url}/rest/$singleton/WebProbe/${fn}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it("reads the running server: its port, the datastore's name, its cookie and limits", async () => {
    const r = await call('info')
    expect(r.status).toBe(200)
    const { result } = (await r.json()) as { result: Record<string, unknown> }
    expect(result).toEqual({
      isRunning: true,
      HTTPPort: s.server.port,
      name: s.server.ds.name,
      sessionCookieName: r.headers.get('set-cookie')!.split('=')[0],
      maxRequestSize: 2_000_000,
    })
  })

  it('sets the quota the server enforces: the next requests meet it (429), Null lifts it', async () => {
    expect((await call('limit', [1])).status).toBe(200)
    expect(s.server.quotas.nbRequestsPerMin).toBe(1)
    let refused: Response | undefined
    for (let i = 0; i < 3 && refused === undefined; i++) {
      const r = await fetch(`${s.url}/rest/$catalog`)
      if (r.status === 429) refused = r
    }
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/)
    s.server.quotas.nbRequestsPerMin = 1000 // lets the next call through
    expect((await call('limit', [null])).status).toBe(200)
    expect(s.server.quotas.nbRequestsPerMin).toBeUndefined()
  })

  it('refuses a value the server refuses, keeping the quota', async () => {
    expect((await call('limit', [5])).status).toBe(200)
    const r = await call('limit', [0])
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect(s.server.quotas.nbRequestsPerMin).toBe(5)
  })
})
