/**
 * The request log of `entistore serve`: a line a request (method, URL, status, time, bytes of the
 * body, the session's user) on stdout, `--log json` for programs, none with `--quiet`, and never a
 * secret: no header, no body (a login's password), no session id or password-like parameter in
 * the URL. Through the real command in a child process (the text log, by default), and through
 * main() in-process for the other forms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'
import { logEntry } from './request-log.fixture.js'
import { milliseconds, requestLogLine } from './request-log.js'
import type { RunningServer } from './serve.js'

const root = new URL('../../../../', import.meta.url).pathname
const DEMO = ['-m', `${root}examples/company/model.json`, '-d', `${root}examples/company/data.json`]
const PASSWORD = 'lovelace-PASSWORD'

let dir: string
let users: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-request-log-'))
  users = join(dir, 'users.json')
  writeFileSync(users, JSON.stringify({ ada: { password: PASSWORD } }))
})
afterAll(() => {
  stopChildren()
  rmSync(dir, { recursive: true, force: true })
})

const entry = logEntry

describe('requestLogLine', () => {
  it('writes method, URL, status, time, bytes and user; in JSON, one object', () => {
    expect(requestLogLine(entry(), 'text')).toBe('GET /rest/Employee(1) 200 0.41 ms 312 B ada')
    expect(requestLogLine(entry({ ms: 1234.5, user: undefined }), 'text')).toBe(
      'GET /rest/Employee(1) 200 1235 ms 312 B -',
    )
    expect(JSON.parse(requestLogLine(entry(), 'json'))).toEqual({
      time: '2026-11-23T10:00:00.000Z',
      method: 'GET',
      url: '/rest/Employee(1)',
      status: 200,
      ms: 0.412,
      bytes: 312,
      user: 'ada',
    })
  })

  it('says a reply cut off, and a worker as the primary prints its other lines', () => {
    const cut = entry({ status: undefined, complete: false, bytes: 0 })
    expect(requestLogLine(cut, 'text', 2)).toBe(
      '[worker 2] GET /rest/Employee(1) - 0.41 ms 0 B ada (cut off)',
    )
    expect(JSON.parse(requestLogLine(cut, 'json', 2))).toMatchObject({
      worker: 2,
      status: null,
      complete: false,
    })
  })

  it('masks session ids, function arguments and secret parameters, in the query and the path', () => {
    const line = (target: string) => requestLogLine(entry({ target }), 'text')
    expect(line('/rest/Employee?$4DSID=S1&$filter=ID%3D1&api_key=k&Password=p')).toBe(
      'GET /rest/Employee?$4DSID=…&$filter=ID%3D1&api_key=…&Password=… 200 0.41 ms 312 B ada',
    )
    expect(line('/rest/$catalog/$4DSID=SECRET&$top=1')).toContain(
      'GET /rest/$catalog/$4DSID=…&$top=1 ',
    )
    expect(line('/rest/Employee/%244dsid=SECRET')).toContain('/rest/Employee/%244dsid=… ')
    expect(line('/rest/$catalog/f?$params=%5B%22hunter2%22%5D&token=t')).toContain(
      '?$params=…&token=… ',
    )
    // A name spelled with escapes or `+` is read decoded; a query naming no secret is kept as sent.
    expect(line('/rest/Employee?p%61ssword=hunter2&my+token=t&$top=1')).toContain(
      '?p%61ssword=…&my+token=…&$top=1 ',
    )
    expect(line('/rest/Item?$method=update&$top=10&$filter=%22ID%3E1%22')).toContain(
      '/rest/Item?$method=update&$top=10&$filter=%22ID%3E1%22 ',
    )
    // One line whatever the URL or the user holds.
    const forged = requestLogLine(
      entry({ target: '/rest/x\r\nGET /forged 200', user: 'a\nb' }),
      'text',
    )
    expect(forged).not.toMatch(/[\r\n]/)
    expect(
      requestLogLine(entry({ target: `/rest/${'a'.repeat(5000)}` }), 'text').length,
    ).toBeLessThan(700)
  })

  it('names the json-server parameters a read was refused for (400), in text and in JSON', () => {
    const target = '/rest/Post?views_gte=100&_sort=views&_order=desc&_=1700000000&$top=2'
    expect(requestLogLine(entry({ target, status: 400 }), 'text')).toBe(
      `GET ${target} 400 0.41 ms 312 B ada (json-server parameters: views_gte, _sort, _order)`,
    )
    expect(JSON.parse(requestLogLine(entry({ target, status: 400 }), 'json'))).toMatchObject({
      jsonServer: ['views_gte', '_sort', '_order'],
    })
    // Not where they were ignored (no dataclass read), nor a cache buster; a crafted URL stays short.
    expect(requestLogLine(entry({ target }), 'text')).not.toContain('json-server')
    expect(
      requestLogLine(entry({ target: '/rest/Post?_=1&v=2', status: 400 }), 'text'),
    ).not.toContain('json-server')
    const many = Array.from({ length: 50 }, (_, i) => `a${i}_ne=1`).join('&')
    expect(requestLogLine(entry({ target: `/rest/Post?${many}`, status: 400 }), 'text')).toMatch(
      /\(json-server parameters: a0_ne, (a\d_ne, ){6}a7_ne, …\)$/,
    )
  })
})

/** The lines of a log that are request lines (the others: the URL line and the like). */
const requestLines = (out: string): string[] =>
  out.split('\n').filter((l) => /^(GET|POST|HEAD|OPTIONS) \//.test(l))

describe('milliseconds', () => {
  it('two decimals under 100 ms, rounded to the nearest hundredth; whole milliseconds above', () => {
    expect(
      [0, 0.004, 0.005001, 0.41, 1.999, 9.5, 99.994, 99.995, 100.4, 1234.5].map(milliseconds),
    ).toEqual(['0.00', '0.00', '0.01', '0.41', '2.00', '9.50', '99.99', '100', '100', '1235'])
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), (ms) => {
        const text = milliseconds(ms)
        const shown = Number(text)
        expect(text).toMatch(shown < 100 ? /^\d+\.\d\d$/ : /^\d+$/)
        expect(Math.abs(shown - ms)).toBeLessThanOrEqual(shown < 100 ? 0.005 + 1e-9 : 0.5)
      }),
    )
  })
})

describe('entistore serve logs every request on stdout', { timeout: 30_000 }, () => {
  let cli: CliProcess
  beforeAll(async () => {
    cli = await startCli(['serve', ...DEMO, '-u', users, '--port', '0'], {
      ready: 'Explorer at',
    })
  })

  it('a line a request, with its status, time, body bytes and user; never a password or cookie', async () => {
    const base = `${cli.url}/rest`
    const refused = await fetch(`${base}/Employee(1)`)
    const refusedBody = await refused.arrayBuffer()
    // A login with 4D's headers, then one with Wakanda's body: neither password is written.
    const login = await fetch(`${base}/$directory/login`, {
      method: 'POST',
      headers: { 'username-4D': 'ada', 'password-4D': PASSWORD },
    })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!
    await login.text()
    const second = await fetch(`${base}/$directory/login`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(['ada', PASSWORD]),
    })
    const sessionCookie = second.headers.get('set-cookie')!.split(';')[0]!
    await second.text()
    const sid = sessionCookie.split('=')[1]!
    const headers = { cookie: sessionCookie }
    // A big reply (written in chunks) and a HEAD: the bytes are the body's as the client got it.
    const all = await fetch(`${base}/Employee?$top=300&password=${PASSWORD}`, { headers })
    const allBytes = (await all.arrayBuffer()).byteLength
    await (await fetch(`${base}/Employee(1)`, { method: 'HEAD', headers })).arrayBuffer()
    // The session given in the URL instead of the cookie: its user, its id masked.
    await (await fetch(`${base}/Employee(2)?$4DSID=${sid}`)).arrayBuffer()
    await (await fetch(`${base}/Nope`, { headers })).arrayBuffer()
    await (await fetch(`${base}/$directory/logout`, { method: 'POST', headers })).arrayBuffer()
    await (await fetch(`${cli.url}/health`)).arrayBuffer()
    await cli.printed('GET /health 200 ')

    const lines = requestLines(cli.stdout())
    const N = String.raw`\d+(\.\d\d)? ms`
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(String.raw`^GET /rest/Employee\(1\) 401 ${N} ${refusedBody.byteLength} B -$`),
      ),
      expect.stringMatching(
        new RegExp(String.raw`^POST /rest/\$directory/login 200 ${N} 15 B ada$`),
      ),
      expect.stringMatching(
        new RegExp(String.raw`^POST /rest/\$directory/login 200 ${N} 15 B ada$`),
      ),
      expect.stringMatching(
        new RegExp(
          String.raw`^GET /rest/Employee\?\$top=300&password=… 200 ${N} ${allBytes} B ada$`,
        ),
      ),
      expect.stringMatching(new RegExp(String.raw`^HEAD /rest/Employee\(1\) 200 ${N} 0 B ada$`)),
      expect.stringMatching(
        new RegExp(String.raw`^GET /rest/Employee\(2\)\?\$4DSID=… 200 ${N} \d+ B ada$`),
      ),
      expect.stringMatching(new RegExp(String.raw`^GET /rest/Nope 404 ${N} \d+ B ada$`)),
      // The one who logged out.
      expect.stringMatching(
        new RegExp(String.raw`^POST /rest/\$directory/logout 200 ${N} \d+ B ada$`),
      ),
      expect.stringMatching(new RegExp(String.raw`^GET /health 200 ${N} 15 B -$`)),
    ])
    expect(allBytes).toBeGreaterThan(64 * 1024)
    const everything = cli.stdout() + cli.stderr()
    expect(everything).not.toContain(PASSWORD)
    expect(everything).not.toContain(sid)
    // The URL line comes first, as scripts read it.
    expect(cli.stdout().split('\n')[0]).toMatch(/^Entistore serving company-demo/)
  })
})

describe('--log json, --quiet, and --cors in the same process', () => {
  /** Serves the demo in-process with `argv`; `stop()` resolves to the exit code. */
  async function start(argv: string[]) {
    const out: string[] = []
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(['serve', ...DEMO, '--port', '0', '--no-explorer', ...argv], {
      out: (l) => out.push(l),
      err: () => {},
      stopSignal: new Promise((resolve) => (stop = resolve)),
      onListening: (s) => listening(s),
    })
    const server = await started
    return { url: server.url, out, stop: () => (stop(), done) }
  }

  it('--log json: one JSON object a line, for a program', async () => {
    const s = await start(['--log', 'json'])
    const res = await fetch(`${s.url}/rest/Employee?$top=2&$4DSID=XYZ`)
    const bytes = (await res.arrayBuffer()).byteLength
    expect(await s.stop()).toBe(0)
    const logged = s.out.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
    expect(logged).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
        method: 'GET',
        url: '/rest/Employee?$top=2&$4DSID=…',
        status: 200,
        ms: expect.any(Number),
        bytes,
        user: null,
      },
    ])
  })

  it('--quiet: no request line; the URL line stays. --cors alone: a page on this machine, named', async () => {
    const s = await start(['--quiet', '--cors'])
    const res = await fetch(`${s.url}/rest/Employee(1)`, {
      headers: { origin: 'http://localhost:4321' },
    })
    await res.arrayBuffer()
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4321')
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    expect(await s.stop()).toBe(0)
    expect(s.out).toEqual([expect.stringMatching(/^Entistore serving company-demo/)])
  })

  it('--cors with --fail-rate: a page reads the injected 503 and when to try again', async () => {
    const s = await start(['--quiet', '--cors', 'http://localhost:4321', '--fail-rate', '1'])
    const res = await fetch(`${s.url}/rest/Employee(1)`, {
      headers: { origin: 'http://localhost:4321' },
    })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
      9095,
    )
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4321')
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after')
    expect(await s.stop()).toBe(0)
  })
})
