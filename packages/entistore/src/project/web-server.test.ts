/**
 * `entistore serve --project` with a project's HTTP request handlers and rules
 * (test-projects/web-server: HTTPHandlers.json, HTTPRules.json, the 4D class of 4D's own pages and
 * a JavaScript singleton from `--functions`), through the CLI in process and over HTTP; a
 * malformed file stops the start with one line naming the file and the place.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startServe, type Started } from '../commands/cli-serve.fixture.js'
import { createFixture } from '../fixture.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read as JSON
const json = async (r: Response): Promise<any> => r.json()

const PROJECT = fileURLToPath(new URL('test-projects/web-server', import.meta.url))

describe('serve --project with HTTP request handlers and rules', () => {
  let s: Started
  beforeAll(async () => {
    s = await startServe([
      'serve',
      '--project',
      PROJECT,
      '--data',
      `${PROJECT}/csv`,
      '--functions',
      `${PROJECT}/functions.js`,
      '--no-explorer',
      '--quiet',
    ])
  })
  afterAll(() => s?.stop())

  it('answers with the 4D handler of 4D’s page, as the page shows its reply', async () => {
    const r = await fetch(`${s.url}/start/example?param=demo&name=4D`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/plain')
    expect(await r.text()).toBe(
      'Called URL: /start/example?param=demo&name=4D\n' +
        'The parameters are received as an object: \n' +
        '{\n\t"param": "demo",\n\t"name": "4D"\n}\n' +
        'The verb is: GET\n' +
        'There are 2 url parts - Url parts are: start - example\n\n',
    )
  })

  it('hands a 4D handler the body as JSON and text, and sends its status and headers', async () => {
    const r = await fetch(`${s.url}/putFile?fileName=testFile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"report"}',
    })
    expect(r.status).toBe(201)
    expect(r.headers.get('x-upload')).toBe('done')
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(await json(r)).toEqual({
      fileName: 'testFile',
      type: 'application/json',
      length: 17,
      name: 'report',
      text: '{"name":"report"}',
    })
  })

  it('hands a 4D handler the body as a BLOB, and sends the BLOB it makes', async () => {
    const r = await fetch(`${s.url}/frame`, { method: 'POST', body: new Uint8Array([1, 2, 255]) })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/octet-stream')
    expect([...new Uint8Array(await r.arrayBuffer())]).toEqual([0, 0, 0, 3, 1, 2, 255])
  })

  it('lets a 4D handler query the datastore', async () => {
    expect(await (await fetch(`${s.url}/staff/Curie`)).text()).toBe('Marie, Pierre')
  })

  it('answers with a JavaScript handler from --functions', async () => {
    const r = await fetch(`${s.url}/js/hello?name=Ada`)
    expect(r.status).toBe(200)
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(await r.text()).toBe('hello Ada (GET, call 1)')
  })

  it('refuses a verb its handlers do not take, and never hands /rest over', async () => {
    const r = await fetch(`${s.url}/js/hello`, { method: 'POST' })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET')
    const catalog = await fetch(`${s.url}/rest/$catalog`)
    expect(catalog.status).toBe(200)
    expect((await json(catalog)).dataClasses.length).toBe(2)
  })

  it('applies HTTPRules.json to every reply, REST and handlers, denies and redirects', async () => {
    const rest = await fetch(`${s.url}/rest/Employee(1)`)
    expect(rest.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(rest.headers.get('content-security-policy')).toBe("default-src 'self'")
    expect(rest.headers.get('allow')).toBe('POST')
    const handler = await fetch(`${s.url}/js/hello`)
    expect(handler.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(handler.headers.get('allow')).toBeNull()
    const denied = await fetch(`${s.url}/private/notes.txt`)
    expect(denied.status).toBe(403)
    expect((await json(denied)).__ERROR[0].errCode).toBe(9170)
    // Allowed again by the later rule: nothing serves it, so 404.
    expect((await fetch(`${s.url}/private/allowed/x`)).status).toBe(404)
    const css = await fetch(`${s.url}/start/site.css`, { redirect: 'manual' })
    expect(css.status).toBe(302)
    expect(css.headers.get('location')).toBe('https://cdn.example.com/')
  })

  it('finds nothing in the 4D code that cannot run here', () => {
    expect(s.err).toEqual([expect.stringMatching(/1 file of 4D code: no problem$/)])
  })
})

describe('serve --project with a malformed HTTP settings file', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
  const withFile = (name: string, text: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'entistore-web-'))
    dirs.push(dir)
    cpSync(PROJECT, dir, { recursive: true })
    writeFileSync(join(dir, 'Project/Sources', name), text)
    return dir
  }

  it('stops with one line naming the file, its line and column, for JSON that is not', async () => {
    const dir = withFile('HTTPHandlers.json', '[\n  { "class": "A", }\n]')
    const run = await runCli(['serve', '--project', dir, '--no-explorer', '--port', '0'])
    expect(run.code).toBe(1)
    expect(run.err).toHaveLength(1)
    expect(run.err[0]).toMatch(/HTTPHandlers\.json:2:\d+: the HTTP handlers file is not valid JSON/)
  })

  it('stops with one line naming the file and the entry, for an entry 4D would not take', async () => {
    const dir = withFile('HTTPRules.json', '[{ "regexPattern": "/x", "status": "teapot" }]')
    const run = await runCli(['serve', '--project', dir, '--no-explorer', '--port', '0'])
    expect(run.code).toBe(1)
    expect(run.err).toEqual([
      expect.stringMatching(
        /HTTPRules\.json: Invalid HTTP settings: rules\[0\]\.status: expected an HTTP status/,
      ),
    ])
  })
})

describe('createFixture with a project’s HTTP request handlers and rules', () => {
  it('serves them in process, as serve --project does', async () => {
    const fx = await createFixture({ project: PROJECT, data: `${PROJECT}/csv` })
    const r = await fx.request('/staff/Curie')
    expect(await r.text()).toBe('Marie, Pierre')
    expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })
})
