import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'
import type { WebServerHost } from '../context/command-context.js'

/** A host whose quotas refuse what a running server refuses (rest's liveQuotas does the same). */
function host(): WebServerHost {
  const values = new Map<string, number>([['nbRequestsPerMin', 100]])
  const quotas = {} as Record<string, number | undefined>
  for (const name of ['nbRequestsPerMin', 'nbSessions'])
    Object.defineProperty(quotas, name, {
      enumerable: true,
      get: () => values.get(name),
      set: (v: unknown) => {
        if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) > 0))
          throw new RangeError(`quotas.${name} must be a whole number above 0`)
        if (v === undefined) values.delete(name)
        else values.set(name, v as number)
      },
    })
  return {
    name: 'Company',
    HTTPPort: 8081,
    IPAddressToListen: '127.0.0.1',
    maxRequestSize: 2_000_000,
    sessionCookieName: '4DSID_Company',
    sessionCookieSameSite: 'Strict',
    quotas,
  }
}

describe('WEB Server', () => {
  it("is the host's running web server, its members under 4D's names (WebServerClass.md)", () => {
    const runtime = { webServer: host() }
    const ws = 'var $ws:=WEB Server\n'
    expect(run(`${ws}return $ws.isRunning`, { runtime })).toBe(true)
    expect(run(`${ws}return $ws.HTTPEnabled`, { runtime })).toBe(true)
    expect(run(`${ws}return $ws.HTTPSEnabled`, { runtime })).toBe(false)
    expect(run(`${ws}return $ws.HTTPPort`, { runtime })).toBe(8081)
    expect(run(`${ws}return $ws.name`, { runtime })).toBe('Company')
    expect(run(`${ws}return $ws.sessionCookieName`, { runtime })).toBe('4DSID_Company')
    expect(run(`${ws}return $ws.maxRequestSize`, { runtime })).toBe(2_000_000)
    expect(run('return WEB Server(1).quotas.nbRequestsPerMin', { runtime })).toBe(100)
    expect(run('return WEB Server:C1674.quotas.nbSessions', { runtime })).toBeUndefined()
  })

  it('is not running outside a server', () => {
    expect(run('return WEB Server.isRunning')).toBe(false)
    expect(run('return WEB Server.HTTPPort')).toBeUndefined()
  })

  it("sets the running server's quotas; Null stops enforcing one; a refused value raises and keeps the old one", () => {
    const webServer = host()
    const runtime = { webServer }
    run('WEB Server.quotas.nbSessions:=20', { runtime })
    expect(webServer.quotas.nbSessions).toBe(20)
    run('WEB Server.quotas.nbRequestsPerMin:=Null', { runtime })
    expect(webServer.quotas.nbRequestsPerMin).toBeUndefined()
    expect(errorOf('WEB Server.quotas.nbSessions:=0', { runtime }).message).toContain('nbSessions')
    expect(webServer.quotas.nbSessions).toBe(20)
    expect(errorOf('WEB Server.quotas.nbWhatever:=3', { runtime }).message).toContain(
      'not a web server quota',
    )
    expect(run('return JSON Stringify(WEB Server.quotas)', { runtime })).toBe('{"nbSessions":20}')
  })

  it('keeps its other members read-only', () => {
    expect(errorOf('WEB Server.HTTPPort:=80', { runtime: { webServer: host() } }).errCode).toBe(
      9411,
    )
  })
})

describe('WEB Get server info', () => {
  it('says the running server: started, uptime, requests, its port and address (web-get-server-info.md)', () => {
    const clock = { now: () => 90_500 }
    const runtime = { webServer: { ...host(), startedAt: 60_000, requestCount: 7 }, clock }
    expect(
      run(
        `$i:=WEB Get server info
return [$i.started; $i.uptime; $i.httpRequestCount; $i.options.webPortID; $i.options.webIPAddressToListen[0]; \\
$i.security.HTTPEnabled; $i.security.HTTPSEnabled; $i.SOAPServerStarted]`,
        { runtime },
      ),
    ).toEqual([true, 30, 7, 8081, '127.0.0.1', true, false, false])
    expect(run('return WEB Get server info(True).started')).toBe(false)
  })
})
