import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { datastoreError } from '@entistore/core'
import type { RestRequest } from '@entistore/rest'
import { afterAll, describe, expect, it } from 'vitest'
import { requestLine, serverErrorLines } from './error-log.js'
import { startCli, stopChildren } from '../persist/cli-process.fixture.js'

const NOW = () => new Date(Date.UTC(2026, 10, 23, 10, 0, 0))
const request = (path: string, query = '', method = 'GET'): RestRequest => ({
  method,
  path,
  query,
  headers: { cookie: '4DSID_app=SECRETSESSION', authorization: 'Basic c2VjcmV0' },
})

describe('serverErrorLines', () => {
  it('writes one line: time, status, request line, and what went wrong', () => {
    const boom = new TypeError('boom')
    expect(
      serverErrorLines(boom, request('/rest/$catalog/f', '$top=1'), 500, {
        stacks: false,
        now: NOW,
      }),
    ).toEqual([
      'entistore: 2026-11-23T10:00:00.000Z 500 GET /rest/$catalog/f?$top=1: TypeError: boom',
    ])
    const late = datastoreError('FunctionTimedOut', ['"sync"', 30_000])
    expect(
      serverErrorLines(late, request('/rest/$catalog/sync', '', 'POST'), 504, {
        stacks: true,
        now: NOW,
      }),
    ).toEqual([
      `entistore: 2026-11-23T10:00:00.000Z 504 POST /rest/$catalog/sync: 9106 ${late.message}`,
    ])
    expect(serverErrorLines('a string', undefined, 503, { stacks: false, now: NOW })).toEqual([
      'entistore: 2026-11-23T10:00:00.000Z 503 (refused before the request was read): a string',
    ])
  })

  it('adds the stack of a 500 with stacks, indented, and nothing for other statuses', () => {
    const boom = new Error('boom')
    const lines = serverErrorLines(boom, request('/rest/T(1)'), 500, { stacks: true, now: NOW })
    expect(lines[0]).toMatch(/500 GET \/rest\/T\(1\): Error: boom$/)
    expect(lines.length).toBeGreaterThan(1)
    for (const frame of lines.slice(1)) expect(frame).toMatch(/^ {4}at /)
    expect(serverErrorLines(boom, request('/x'), 503, { stacks: true })).toHaveLength(1)
  })

  it('never writes a header, a session id, $params or a parameter named as a secret', () => {
    const line = requestLine(
      request(
        '/rest/$catalog/login',
        '$4DSID=S1&$params=%5B%22pw%22%5D&password=x&API_KEY=y&access%5Ftoken=z&$filter=ID%3D1&$4dsid=S2',
      ),
    )
    expect(line).toBe(
      'GET /rest/$catalog/login?$4DSID=…&$params=…&password=…&API_KEY=…&access%5Ftoken=…&$filter=ID%3D1&$4dsid=…',
    )
    const all = serverErrorLines(new Error('x'), request('/a', 'b=1'), 500, { stacks: true }).join(
      '\n',
    )
    expect(all).not.toMatch(/SECRETSESSION|c2VjcmV0/)
  })

  it('keeps one line per error: control characters escaped, long text cut', () => {
    const [line, ...rest] = serverErrorLines(
      new Error('first\nentistore: forged line\u2028'),
      request('/rest/x\r\ny', 'q=' + 'a'.repeat(5000)),
      500,
      { stacks: false, now: NOW },
    )
    expect(rest).toEqual([])
    expect(line).not.toMatch(/[\n\r\u2028]/)
    expect(line).toContain('first\\x0aentistore: forged line\\u2028')
    expect(line).toContain('/rest/x\\x0d\\x0ay')
    expect(line!.length).toBeLessThan(900)
  })
})

describe('entistore serve logs every 5xx on stderr', () => {
  const folder = mkdtempSync(join(tmpdir(), 'entistore-error-log-'))
  afterAll(() => {
    stopChildren()
    rmSync(folder, { recursive: true, force: true })
  })
  const root = fileURLToPath(new URL('../../../../', import.meta.url))
  const functions = join(folder, 'functions.mjs')
  writeFileSync(
    functions,
    `export default { dataStore: {
      crash: { exposed: true, onHTTPGet: true, call: () => ({ toJSON() { throw new TypeError('cannot render') } }) },
      stuck: { exposed: true, onHTTPGet: true, call: () => new Promise(() => {}) },
    } }`,
  )

  it('a 500 with its stack (--verbose), a 504 at --function-timeout, not a 4xx, never a cookie', async () => {
    const cli = await startCli(
      [
        'serve',
        '-m',
        `${root}examples/company/model.json`,
        '-f',
        functions,
        '--port',
        '0',
        '--function-timeout',
        '50',
        '--verbose',
      ],
      { ready: 'Functions from' },
    )
    const get = (path: string) =>
      fetch(`${cli.url}${path}`, { headers: { cookie: '4DSID_company-demo=PLANTED' } })
    expect((await get('/rest/$catalog/crash?$params=%5B%22hunter2%22%5D')).status).toBe(500)
    expect((await get('/rest/$catalog/stuck?$top=1')).status).toBe(504)
    expect((await get('/rest/Nope')).status).toBe(404)
    const t0 = Date.now()
    while (!cli.stderr().includes(' 504 ')) {
      expect(Date.now() - t0).toBeLessThan(10_000)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const lines = cli.stderr().trimEnd().split('\n')
    const T = String.raw`entistore: \d{4}-\d\d-\d\dT[\d:.]+Z`
    expect(lines[0]).toMatch(
      new RegExp(
        String.raw`^${T} 500 GET /rest/\$catalog/crash\?\$params=…: TypeError: cannot render$`,
      ),
    )
    expect(lines[1]).toMatch(/^ {4}at /)
    const after = lines.slice(1).findIndex((l) => !l.startsWith('    ')) + 1
    expect(lines.slice(after)).toEqual([
      expect.stringMatching(
        new RegExp(
          String.raw`^${T} 504 GET /rest/\$catalog/stuck\?\$top=1: 9106 The function "stuck" did not answer within 50 ms`,
        ),
      ),
    ])
    expect(cli.stderr()).not.toMatch(/PLANTED|hunter2|Nope/)
  })
})
