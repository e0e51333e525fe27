/**
 * 4D's own pages on the web server around REST, statement by statement, through `entistore serve
 * --project` (test-projects/web-server-docs: the pages' HTTPHandlers.json and HTTPRules.json as
 * they are printed, their handler classes in 4D, a copy per test that writes or needs another
 * file). What web-server.test.ts, quota-file.test.ts and the rest package's tests already check is
 * not checked again here. Quotas run on a clock the tests move.
 */
import { existsSync, readFileSync } from 'node:fs'
import { request, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ManualClock } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Started } from '../commands/cli-serve.fixture.js'
import { projectCopy } from './four-d-rest.fixture.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read as JSON
const json = async (r: Response): Promise<any> => r.json()

const DOCS_PROJECT = fileURLToPath(new URL('test-projects/web-server-docs', import.meta.url))

/** `serve --project` on a copy of the project with `files` written in it. */
async function serving(files: Record<string, string> = {}, clock?: ManualClock) {
  const project = projectCopy(DOCS_PROJECT, files)
  const s = await startServe(
    ['serve', '--project', project, '--no-explorer', '--quiet'],
    clock ? { datastoreOptions: { clock } } : {},
  )
  return { s, project }
}

describe('HTTP request handlers, as 4D’s pages write them', () => {
  let s: Started
  let project: string
  beforeAll(async () => ({ s, project } = await serving()))
  afterAll(() => s?.stop())
  const text = async (path: string, method = 'GET') =>
    (await fetch(`${s.url}${path}`, { method })).text()

  // http-request-handler.md, "Example": each URL the page lists calls the function it names,
  // `IP:port//docs/…` (written with two slashes) included.
  it.each([
    ['GET', '/info/', 'GeneralHandling.handle'],
    ['GET', '/info/general', 'GeneralHandling.handle'],
    ['POST', '/userAccount/update/', 'UsersHandling.manageAccount'],
    ['POST', '/userAccount/update/profile', 'UsersHandling.manageAccount'],
    ['GET', '/docs/invoices/past', 'FinancialHandling.handleInvoices'],
    ['GET', '/docs/invoices/today/latest', 'FinancialHandling.handleInvoices'],
    ['GET', '//docs/myPage.html', 'DocsHandling.handleDocs'],
    ['GET', '//docs/invoices/', 'InvoicesHandling.handleInvoices'],
    ['GET', '//docs/invoices/details/', 'InvoicesHandling.handleDetails'],
    ['GET', '//docs/invoices/details/theInvoice/xxxxxx', 'InvoicesHandling.handleTheInvoice'],
    ['GET', '/docs/invoices/details/theInvoice/xxxxxx', 'InvoicesHandling.handleTheInvoice'],
  ])('%s %s calls %s', async (method, path, handler) => {
    expect(await text(path, method)).toBe(`${handler} ${method} ${path}`)
  })

  // http-request-handler.md, "URL patterns": "Pattern" and "regexPattern" in one definition:
  // "only the "regexPattern" property is taken into account".
  it('uses the regexPattern of an entry that gives both', async () => {
    expect(await text('/x/both')).toBe('GeneralHandling.handle GET /x/both')
    expect((await json(await fetch(`${s.url}/never/x`))).url).toBe('/never/x')
  })

  // http-request-handler.md, "Forbidden patterns": `/4DACTION`, `/rest`, `/$lib/renderer` and
  // `/$shared` cannot be handled, even by the catch-all `"regexPattern": "/(.*)"` of the project,
  // nor reached past it with a doubled slash or an escaped letter.
  it('never hands 4D’s built-in paths to a handler, written any way', async () => {
    for (const path of [
      '/4DACTION/x',
      '/$lib/renderer/x',
      '/$shared/x',
      '//rest/$catalog',
      '/%72est/$catalog',
      '//4DACTION/x',
    ]) {
      const r = await fetch(`${s.url}${path}`)
      expect([path, r.status]).toEqual([path, 404])
      expect((await json(r)).__ERROR[0].errCode).toBe(9031)
    }
    const rest = await fetch(`${s.url}/rest/$catalog`)
    expect((await json(rest)).dataClasses).toHaveLength(2)
    // The catch-all takes the rest.
    expect((await json(await fetch(`${s.url}/restaurant`))).url).toBe('/restaurant')
  })

  // http-request-handler.md, "Function configuration": "If the singleton is missing or not
  // shared, an error "Cannot find singleton" is returned"; an unknown function, "Cannot find
  // singleton function".
  it('answers Cannot find singleton (function) for a class or function 4D would not call', async () => {
    for (const path of ['/notShared', '/notSingleton', '/missing']) {
      const r = await fetch(`${s.url}${path}`)
      expect(r.status).toBe(404)
      const [error] = (await json(r)).__ERROR
      expect(error).toMatchObject({ errCode: 9105, message: 'Cannot find singleton' })
    }
    const r = await fetch(`${s.url}/noFunction`)
    expect(r.status).toBe(404)
    expect((await json(r)).__ERROR[0]).toMatchObject({
      errCode: 1573,
      message: 'Cannot find singleton function',
    })
  })

  // http-request-handler.md, "Verbs": "No control is done on verb names. All names can be used"
  // (the project's `"verbs": "purge"`, in lower case).
  it('takes any verb name a handler lists', async () => {
    const r = await fetch(`${s.url}/custom/x`, { method: 'PURGE' })
    expect(r.status).toBe(200)
    expect((await json(r)).verb).toBe('PURGE')
  })

  // WebServerClass.md, ".HTTPTrace": "by default the Web server rejects HTTP TRACE requests with
  // an error 405", a handler that takes every verb included (`myCall`); one that names TRACE
  // takes it ("All names can be used").
  it('rejects TRACE with 405 unless a handler names it', async () => {
    // fetch() refuses to send TRACE: node:http does.
    const trace = (path: string) =>
      new Promise<IncomingMessage>((resolve, reject) =>
        request(`${s.url}${path}`, { method: 'TRACE' }, (r) => resolve(r.resume()))
          .on('error', reject)
          .end(),
      )
    for (const path of ['/myCall/x', '/rest/$catalog', '/info/']) {
      const r = await trace(path)
      expect([path, r.statusCode]).toEqual([path, 405])
      expect(r.headers.allow).not.toContain('TRACE')
    }
  })

  // http-request-handler.md, "Example" of the request handler code: the UploadFile class, as
  // printed, writes a PDF body to /PACKAGE/Files/<fileName>.pdf with File.setContent.
  it('runs the page’s UploadFile class: the PDF is written, its size answered', async () => {
    const pdf = '%PDF-1.4\n%\u00e2\u00e3\n'
    const r = await fetch(`${s.url}/putFile?fileName=testFile`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: pdf,
    })
    const bytes = new TextEncoder().encode(pdf)
    expect(await r.text()).toBe(`Upload OK - File size: ${bytes.length}`)
    expect(r.headers.get('content-type')).toBe('text/plain')
    expect(new Uint8Array(readFileSync(join(project, 'Files/testFile.pdf')))).toEqual(bytes)
    // Another type: "Not supported file", nothing written.
    const other = await fetch(`${s.url}/putFile?fileName=other`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: 'a,b',
    })
    expect(await other.text()).toBe('Not supported file')
    expect(existsSync(join(project, 'Files/other.pdf'))).toBe(false)
  })

  // IncomingMessageClass.md, "urlQuery", "Direct parameters": received as stringified values.
  it('gives direct URL parameters as text', async () => {
    const r = await fetch(`${s.url}/myCall?firstname=Marie&id=2&isWoman=true`)
    expect((await json(r)).urlQuery).toEqual({ firstname: 'Marie', id: '2', isWoman: 'true' })
  })

  // IncomingMessageClass.md, "JSON contents parameters": `?myparams='[…]'` is received as the
  // JSON text, which `JSON Parse` reads as a collection (the page's `$test` is true).
  it('gives a JSON parameter within single quotes as its JSON text', async () => {
    const r = await fetch(
      `${s.url}/myCall/?myparams='[{"firstname": "Marie","isWoman": true,"id": 3}]'`,
    )
    expect(await json(r)).toEqual({
      urlQuery: { myparams: '[{"firstname": "Marie","isWoman": true,"id": 3}]' },
      test: true,
    })
  })

  // IncomingMessageClass.md, "urlQuery": `?mdcode=%60%60%604d` is "```4d", 5 characters long.
  it('decodes escaped characters of a parameter', async () => {
    const r = await fetch(`${s.url}/syntax/?mdcode=%60%60%604d`)
    expect(await json(r)).toEqual({ urlQuery: { mdcode: '```4d' }, test: 5 })
  })

  // IncomingMessageClass.md: `.url` without IP:port, `.urlPath` a collection of its parts,
  // `.headers` with lowercased names, `.getHeader()` whatever the key's case, `.getPicture()`
  // null for a body that is not a picture, the picture for one whose content-type says it is.
  it('describes the request with the members 4D lists', async () => {
    const r = await fetch(`${s.url}/mirror/a/b?x=1`, {
      headers: { 'X-Custom-Header': 'Yes', 'Content-Type': 'text/plain' },
    })
    const got = await json(r)
    expect(got).toMatchObject({
      url: '/mirror/a/b?x=1',
      urlPath: ['mirror', 'a', 'b'],
      verb: 'GET',
      contentType: 'text/plain',
      pictureIsNull: true,
    })
    expect(got.headers['x-custom-header']).toBe('Yes')
    expect(Object.keys(got.headers).every((k) => k === k.toLowerCase())).toBe(true)
    const picture = await fetch(`${s.url}/custom/picture`, {
      method: 'PURGE',
      headers: { 'Content-Type': 'image/png' },
      body: new Uint8Array([137, 80, 78, 71]),
    })
    expect((await json(picture)).pictureIsNull).toBe(false)
  })

  // IncomingMessageClass.md, "getJSON()": "If the body has not been given as JSON valid content,
  // an error is raised" (a 4D error: the function fails as a REST call does).
  it('raises an error from getJSON() for a body that is not JSON', async () => {
    const ok = await fetch(`${s.url}/answer?kind=json`, { method: 'POST', body: '{"a":[1]}' })
    expect(await json(ok)).toEqual({ a: [1] })
    const r = await fetch(`${s.url}/answer?kind=json`, { method: 'POST', body: 'not json' })
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect((await json(r)).__ERROR[0].message).toContain('not JSON')
  })

  // IncomingMessageClass.md: "The HTTP request handler can return any value (or nothing)".
  it('sends any other value as JSON, and nothing as 204', async () => {
    const value = await fetch(`${s.url}/answer?kind=value`)
    expect(await json(value)).toEqual({ any: 'value' })
    const nothing = await fetch(`${s.url}/answer?kind=nothing`)
    expect(nothing.status).toBe(204)
    expect(await nothing.text()).toBe('')
  })

  // OutgoingMessageClass.md, "setBody()": Content-Type text/plain for a Text, application/
  // octet-stream for a Blob, application/json for an Object; "setHeader()" after setBody() sets
  // another; 4D adds `Set-Cookie` with its 4DSID cookie.
  it.each([
    ['text', 'text/plain', 'plain'],
    ['blob', 'application/octet-stream', 'bytes'],
    ['object', 'application/json', '{"a":1}'],
    ['typed', 'text/html', '<b>hi</b>'],
  ])('setBody of a %s sends %s', async (kind, type, body) => {
    const r = await fetch(`${s.url}/answer?kind=${kind}`)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe(type)
    expect(r.headers.get('set-cookie')).toMatch(/^4DSID_docsCompany=/)
    expect(await r.text()).toBe(body)
  })

  // OutgoingMessageClass.md, ".body": "read-write"; ".status" and ".headers" read what
  // setStatus() and setHeader() set.
  it('sends a body assigned to .body, and reads .status, .headers and .body', async () => {
    expect(await text('/answer?kind=property')).toBe('assigned')
    const r = await fetch(`${s.url}/answer?kind=status`)
    expect(await json(r)).toEqual({
      status: 201,
      headers: { 'Content-Type': 'text/plain' },
      body: 'made',
    })
  })

  // OutgoingMessageClass.md: setBody() of an unsupported type, setHeader() with a value that is
  // not Text, setStatus() with a value that is not an integer: "an error is raised".
  it.each(['badBody', 'badHeader', 'badStatus'])('raises an error: %s', async (kind) => {
    const r = await fetch(`${s.url}/answer?kind=${kind}`)
    expect(r.status).toBe(422)
    expect((await json(r)).__ERROR[0].errCode).toBe(9406)
  })
})

// http-request-handler.md, "Pattern matching": the first matching entry wins; an entry without
// verbs takes every verb "except those possibly used beforehand in a more detailed pattern".
describe('the page’s pattern-matching example', () => {
  const HANDLERS = `[
    {
        "class": "InvoiceslHandling",
        "method": "handleTheInvoice",
        "regexPattern": "/docs/invoices/details/theInvoice",
        "verbs": "GET"
    },
    {
        "class": "InvoiceslHandling",
        "method": "handleUnauthorizedVerbs",
        "regexPattern": "/docs/invoices/details/theInvoice",
        "comment": "This handler is triggered for all verbs except GET (handled above)"
    },
    {
        "class": "DocsHandling",
        "method": "handleDocs",
        "regexPattern": "/docs",
        "comment": "This handler is triggered for all the verbs"
    }
]`
  const CLASS = `shared singleton Class constructor()

Function handleTheInvoice($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	return This.named("handleTheInvoice"; $request)

Function handleUnauthorizedVerbs($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	return This.named("handleUnauthorizedVerbs"; $request)

Function named($name : Text; $request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $result:=4D.OutgoingMessage.new()
	$result.setBody("InvoiceslHandling."+$name+" "+$request.verb+" "+$request.url)
	return $result
`
  let s: Started
  beforeAll(async () => {
    ;({ s } = await serving({
      'Project/Sources/HTTPHandlers.json': HANDLERS,
      'Project/Sources/Classes/InvoiceslHandling.4dm': CLASS,
    }))
  })
  afterAll(() => s?.stop())

  it.each([
    ['GET', '/docs/invoices/details/theInvoice', 'InvoiceslHandling.handleTheInvoice'],
    ['POST', '/docs/invoices/details/theInvoice', 'InvoiceslHandling.handleUnauthorizedVerbs'],
    ['DELETE', '/docs/invoices/details/theInvoice', 'InvoiceslHandling.handleUnauthorizedVerbs'],
    ['PATCH', '/docs/anything', 'DocsHandling.handleDocs'],
  ])('%s %s calls %s', async (method, path, handler) => {
    const r = await fetch(`${s.url}${path}`, { method })
    expect(await r.text()).toBe(`${handler} ${method} ${path}`)
  })
})

// http-rules.md, "Using a HTTPRules.json file": the page's file, as printed, in the project.
describe('the HTTP rules page’s HTTPRules.json', () => {
  let s: Started
  beforeAll(async () => ({ s } = await serving()))
  afterAll(() => s?.stop())

  // "All requests": Allow set to GET, security headers set; "REST requests": POST added to Allow.
  it('sets headers on every reply and adds to Allow on REST’s', async () => {
    const rest = await fetch(`${s.url}/rest/$catalog`)
    expect(rest.headers.get('allow')).toBe('GET, POST')
    expect(rest.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(rest.headers.get('content-security-policy')).toBe("default-src 'self'")
    expect(rest.headers.get('server')).toBeNull()
    const handler = await fetch(`${s.url}/info/`)
    expect(handler.headers.get('allow')).toBe('GET')
    expect(handler.headers.get('cache-control')).toBeNull()
  })

  // "HTML files in 'doc' folder: set cache control".
  it('sets Cache-Control on /docs/….html, a handler’s reply', async () => {
    const r = await fetch(`${s.url}/docs/myPage.html`)
    expect(await r.text()).toBe('DocsHandling.handleDocs GET /docs/myPage.html')
    expect(r.headers.get('cache-control')).toBe('max-age=3600')
  })

  // "Status 503 on 'maintenance' page": the reply is served with that status.
  it('answers /maintenance.html with 503', async () => {
    const r = await fetch(`${s.url}/maintenance.html`)
    expect(r.status).toBe(503)
    expect((await json(r)).url).toBe('/maintenance.html')
    expect((await fetch(`${s.url}/info/maintenance.html`)).status).toBe(200)
  })

  // "Deny access … 'private' folder", "Allow access … 'private/allowed' folder": 403 by default,
  // the later rule wins.
  it('denies /private/… with 403, lets /private/allowed/… through', async () => {
    const denied = await fetch(`${s.url}/private/notes.txt`)
    expect(denied.status).toBe(403)
    const allowed = await fetch(`${s.url}/private/allowed/notes.txt`)
    expect(allowed.status).toBe(200)
    expect((await json(allowed)).url).toBe('/private/allowed/notes.txt')
  })

  // "Redirect CSS and JS files", "Redirect images with permanent status code": the page writes
  // `"^(.*\\\\.(css|js))"`, the regular expression `^(.*\\.(css|js))`, a backslash before any
  // character: it redirects such a path (status 301 for the images), not `/style.css`
  // (docs/compat.md, "HTTP rules as written").
  it('reads the redirections’ patterns as the regular expressions they are', async () => {
    const css = await fetch(`${s.url}/style%5C.css`, { redirect: 'manual' })
    expect(css.status).toBe(302)
    expect(css.headers.get('location')).toBe('https://cdn.example.com/')
    const png = await fetch(`${s.url}/logo%5C.png`, { redirect: 'manual' })
    expect(png.status).toBe(301)
    expect(png.headers.get('location')).toBe('https://cdn.example.com/images/')
    expect((await fetch(`${s.url}/style.css`, { redirect: 'manual' })).status).toBe(200)
  })

  // "Current rules": `$rules:=WEB Server.rules //current rules`, the file's collection.
  it('reads the rules in force with WEB Server.rules', async () => {
    const r = await fetch(`${s.url}/rest/$singleton/RulesProbe/rules`, {
      method: 'POST',
      body: '[]',
    })
    const file = join(DOCS_PROJECT, 'Project/Sources/HTTPRules.json')
    expect((await json(r)).result).toEqual(JSON.parse(readFileSync(file, 'utf8')))
  })
})

// http-rules.md, "Non-modifiable headers", "Other properties are ignored", "RegExPattern".
describe('HTTP rules on the headers 4D does not let change', () => {
  const RULES = `[
  {
    "RegExPattern": "/info/(.*)",
    "note": "an unknown property, ignored",
    "setHeaders": { "Date": "Mon, 01 Jan 2001 00:00:00 GMT", "Content-Length": "1", "Content-Encoding": "gzip", "Vary": "Cookie", "Set-Cookie": "theme=dark" },
    "addHeaders": { "Vary": "Origin", "X-Added": "yes" },
    "removeHeaders": ["Date", "Content-Length", "Content-Encoding", "Set-Cookie"]
  }
]`
  let s: Started
  beforeAll(async () => ({ s } = await serving({ 'Project/Sources/HTTPRules.json': RULES })))
  afterAll(() => s?.stop())

  it('keeps Date, Content-Length and Content-Encoding, only adds to Vary and Set-Cookie', async () => {
    const r = await fetch(`${s.url}/info/x`)
    const body = await r.text()
    expect(body).toBe('GeneralHandling.handle GET /info/x')
    expect(r.headers.get('x-added')).toBe('yes')
    expect(r.headers.get('date')).not.toBe('Mon, 01 Jan 2001 00:00:00 GMT')
    expect(r.headers.get('date')).not.toBeNull()
    expect(r.headers.get('content-length')).toBe(String(body.length))
    expect(r.headers.get('content-encoding')).toBeNull()
    expect(r.headers.get('vary')).toBe('Origin')
    const cookies = r.headers.getSetCookie()
    expect(cookies).toHaveLength(2)
    expect(cookies[0]).toMatch(/^4DSID_docsCompany=/)
    expect(cookies[1]).toBe('theme=dark')
  })
})

// quotas.md, "Using a QuotaManager.json file" (the page's file) and "Rate limiting responses".
describe('the quotas page’s QuotaManager.json', () => {
  const QUOTAS = `{
    "inBytesPerHour": 100000000,
    "inBytesPerHourPerSession": 10000000,
    "nbRequestsPerMin": 1000,
    "nbRequestsPerMinPerSession": 100
}`
  // 10:00:15: 45 s left in the minute.
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 15))
  let s: Started
  beforeAll(async () => {
    ;({ s } = await serving({ 'Project/Sources/QuotaManager.json': QUOTAS }, clock))
  })
  afterAll(() => s?.stop())

  it('refuses the 1001st request of the minute with 429 and the seconds left in Retry-After', async () => {
    const get = () => fetch(`${s.url}/rest/$catalog`)
    for (let i = 0; i < 1000; i++) expect((await get()).status).toBe(200)
    const refused = await get()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('45')
    clock.advance(45_000)
    expect((await get()).status).toBe(200)
  })

  // The request that opened the session and the first one back (which keeps it) count too.
  it('refuses a session’s 101st request of the minute, not another session’s', async () => {
    clock.advance(60_000)
    const first = await fetch(`${s.url}/rest/$catalog`)
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!
    const get = () => fetch(`${s.url}/rest/$catalog`, { headers: { cookie } })
    for (let i = 1; i < 100; i++) expect((await get()).status).toBe(200)
    const refused = await get()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await fetch(`${s.url}/rest/$catalog`)).status).toBe(200)
  })
})

// quotas.md, "Rate limiting responses": "When one of concurrent quotas (nbSessions, …) is
// reached, the response includes an empty Retry-After header".
describe('a concurrent quota from QuotaManager.json', () => {
  let s: Started
  beforeAll(async () => {
    ;({ s } = await serving({ 'Project/Sources/QuotaManager.json': '{ "nbSessions": 1 }' }))
  })
  afterAll(() => s?.stop())

  // A session is open once its client comes back with the cookie (a guest that never does is not
  // kept: docs/security.md, "Guests and established sessions").
  it('refuses a request that would open a second session: 429, Retry-After empty', async () => {
    const first = await fetch(`${s.url}/info/`)
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!
    expect((await fetch(`${s.url}/info/`, { headers: { cookie } })).status).toBe(200)
    const refused = await fetch(`${s.url}/info/`)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('')
    expect((await fetch(`${s.url}/info/`, { headers: { cookie } })).status).toBe(200)
  })
})
