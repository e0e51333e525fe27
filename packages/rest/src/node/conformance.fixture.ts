/**
 * @module The conformance suite every transport adapter runs: real HTTP requests through the real
 * framework, each one sent both to the adapter and to the plain node:http listener (the reference),
 * which must answer byte-identically: the same status, the same body bytes and the same headers
 * that carry meaning. Two identical datastores (the company demo, a manual clock, numbered session
 * ids) answer the two sides, so that writes, stamps and session cookies come out alike. Each answer
 * is also checked for what it must say, so that two transports broken the same way do not pass.
 *
 * An adapter's test calls `conformance(name, start)`, where `start` serves a handler through the
 * framework on a free port and gives its base URL. The handler served (company-rest.fixture.ts)
 * wraps the real one only to add a second Set-Cookie header when a request asks for it
 * (`x-two-cookies`), so that keeping two headers apart is tested too.
 */
import {
  createServer,
  request as httpRequest,
  type Agent,
  type IncomingHttpHeaders,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toNodeListener } from './listener.js'
import type { MountableRest } from '../adapters/mount.js'
import { companyRest, MAX_BODY_BYTES, MAX_UPLOAD_BYTES } from './company-rest.fixture.js'

export { companyRest, MAX_BODY_BYTES, MAX_UPLOAD_BYTES }

/** A server an adapter started: its `http://127.0.0.1:<port>` and how to stop it. */
export interface Served {
  readonly url: string
  close(): Promise<void>
}

/** Serves `rest` through the framework under test on a free port. */
export type StartServer = (rest: MountableRest) => Promise<Served>

export interface ConformanceOptions {
  /** The handler's basePath (the public path). @default '/rest' */
  readonly basePath?: string
  /**
   * The Content-Type the runtime gives a reply that has none (the 204 to OPTIONS): @hono/node-server
   * writes `text/plain; charset=UTF-8` on every such reply, whatever the application answered.
   * @default none: a reply without one stays without one
   */
  readonly defaultContentType?: string
  /**
   * The runtime's JSON.parse says neither where a syntax error is nor words its reason as V8 does
   * (Bun's JavaScriptCore: `JSON Parse error: Unterminated string`), so the 9030 answer to a body
   * that is not JSON says `the parser gave no position` where node says the line and column. Only
   * that answer's message may then differ, and only in the parser's part: every other byte of it is
   * still compared. @default false: the message is compared too
   */
  readonly jsonParseErrorWithoutPosition?: boolean
  /**
   * The server under test makes its session ids otherwise than the reference's `S1, S2…`: several
   * processes sharing their sessions through Redis cannot count them together. The ids the two
   * sides' session cookies (`4DSID_…`) set for one request are then paired, and from then on the
   * server under test's id is read as the reference's wherever it appears (Set-Cookie, a body's
   * `__UNIQID`), and a cookie sent back reaches it with its own id. The sessions are still
   * followed and every other byte compared; a session set on one side only still differs.
   * @default false: session ids are compared as they are
   */
  readonly sessionIdsDiffer?: boolean
}

/** One request, its target written as sent on the request line. */
export interface Exchange {
  readonly method?: string
  readonly target: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /**
   * The agent to send it with: a keep-alive agent of one socket holds one connection, so that
   * requests reach the same process behind node:cluster. @default a fresh connection
   */
  readonly agent?: Agent
}

/** What is compared between two transports. */
export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | readonly string[] | undefined>
  readonly body: Buffer
}

// The headers that carry meaning; `connection`, `date` and framework extras are not compared.
const COMPARED = [
  'content-type',
  'x-content-type-options',
  'allow',
  'content-disposition',
  'set-cookie',
  'retry-after',
] as const

/**
 * Sends `exchange` to `base` on a fresh connection (or through `exchange.agent`), with the target
 * exactly as written.
 */
export function send(base: string, exchange: Exchange): Promise<Answer> {
  const { hostname, port } = new URL(base)
  const headers: IncomingHttpHeaders = { ...exchange.headers }
  if (exchange.body !== undefined)
    headers['content-length'] = String(Buffer.byteLength(exchange.body))
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method: exchange.method ?? 'GET',
        path: exchange.target,
        headers,
        agent: exchange.agent ?? false,
      },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (part: Buffer) => parts.push(part))
        res.on('error', reject)
        res.on('end', () => {
          const picked: Record<string, string | readonly string[] | undefined> = {}
          for (const name of COMPARED) picked[name] = res.headers[name]
          resolve({ status: res.statusCode!, headers: picked, body: Buffer.concat(parts) })
        })
      },
    )
    req.on('error', reject)
    req.end(exchange.body)
  })
}

/** The JSON of an answer's body. */
export const json = (answer: Answer): any => JSON.parse(answer.body.toString('utf8'))

const JSON_BODY = { 'content-type': 'application/json' }
// A session cookie, in a Set-Cookie header or in a Cookie header: its name and its id.
const SESSION_COOKIE = /(4DSID_[^=;\s]*)=([^;\s]*)/g
const q = encodeURIComponent

/**
 * Runs the suite for one adapter: `start` serves the handler it is given through the framework.
 * Tests run in order on one pair of datastores (writes change what later reads see).
 */
export function conformance(
  name: string,
  start: StartServer,
  options: ConformanceOptions = {},
): void {
  const base = options.basePath ?? '/rest'
  describe(`${name} answers as the node listener`, () => {
    let reference: Served
    let adapter: Served

    beforeAll(async () => {
      reference = await serveNode(companyRest(base))
      adapter = await start(companyRest(base))
    })
    afterAll(async () => {
      await adapter?.close()
      await reference?.close()
    })
    const sessions = new SessionIds(options.sessionIdsDiffer === true)

    /**
     * Sends `exchange` to both sides, expects the same answer, and returns it. `sameBodies` compares
     * the two bodies (byte for byte unless said).
     */
    const both = async (
      exchange: Exchange,
      sameBodies = (actual: Buffer, expected: Buffer): boolean => actual.equals(expected),
    ): Promise<Answer> => {
      const expected = await send(reference.url, exchange)
      const actual = sessions.asReference(
        await send(adapter.url, sessions.toServer(exchange)),
        expected,
      )
      const label = `${exchange.method ?? 'GET'} ${exchange.target}`
      const headers = { ...expected.headers }
      headers['content-type'] ??= options.defaultContentType
      expect({ label, status: actual.status, headers: actual.headers }).toEqual({
        label,
        status: expected.status,
        headers,
      })
      expect(
        sameBodies(actual.body, expected.body),
        `${label}: the same body bytes${whereTheyDiffer(actual.body, expected.body)}`,
      ).toBe(true)
      return actual
    }
    const errCode = (answer: Answer): unknown => json(answer).__ERROR?.[0]?.errCode

    it('reads: catalog, by key, filter with quotes, orderby, top/skip, expand, a whole class', async () => {
      const catalog = await both({ target: `${base}/$catalog` })
      expect(catalog.status).toBe(200)
      expect(json(catalog).dataClasses.map((d: { name: string }) => d.name)).toEqual([
        'Company',
        'Employee',
        'Project',
      ])
      expect((await both({ target: `${base}/$catalog/Employee` })).status).toBe(200)

      const one = json(await both({ target: `${base}/Employee(1)` }))
      expect([one.__KEY, one.lastName]).toEqual(['1', 'Silva'])

      const silva = json(
        await both({ target: `${base}/Employee?$filter=${q('"lastName=\'Silva\'"')}` }),
      )
      expect(silva.__COUNT).toBeGreaterThan(0)
      expect(silva.__ENTITIES.every((e: { lastName: string }) => e.lastName === 'Silva')).toBe(true)

      const page = json(
        await both({ target: `${base}/Employee?$orderby=${q('salary desc')}&$top=3&$skip=2` }),
      )
      const salaries = page.__ENTITIES.map((e: { salary: number }) => e.salary)
      expect(salaries).toHaveLength(3)
      expect([...salaries].sort((a, b) => b - a)).toEqual(salaries)

      const expanded = json(await both({ target: `${base}/Employee(1)?$expand=employer` }))
      expect(expanded.employer.name).toBe('Acme Industries')

      // Bigger than a chunk: written a chunk at a time (node) or streamed (fetch).
      const all = await both({ target: `${base}/Employee?$top=1000` })
      expect(json(all).__ENTITIES).toHaveLength(360)
      expect(all.body.length).toBeGreaterThan(64 * 1024)

      const logo = await both({ target: `${base}/Company(1)/logo?$binary=true` })
      expect(logo.headers['content-type']).toBe('image/png')
    })

    it('writes: create, update, $atomic and delete with POST bodies', async () => {
      const created = json(
        await both({
          method: 'POST',
          target: `${base}/Employee?$method=update`,
          headers: JSON_BODY,
          body: JSON.stringify({ firstName: 'Ada', lastName: 'Conformance', salary: 4000 }),
        }),
      )
      expect(created.lastName).toBe('Conformance')
      const key = created.__KEY as string

      const updated = json(
        await both({
          method: 'POST',
          target: `${base}/Employee?$method=update`,
          headers: JSON_BODY,
          body: JSON.stringify({ __KEY: key, __STAMP: created.__STAMP, salary: 4500 }),
        }),
      )
      expect(updated.salary).toBe(4500)

      const atomic = await both({
        method: 'POST',
        target: `${base}/Employee?$method=update&$atomic=true`,
        headers: JSON_BODY,
        body: JSON.stringify([
          { firstName: 'Bo', lastName: 'Atomic', salary: 1 },
          { firstName: 'Cy', lastName: 'Atomic', salary: 2 },
        ]),
      })
      expect(atomic.status).toBe(200)

      const deleted = await both({
        method: 'POST',
        target: `${base}/Employee(${key})?$method=delete`,
      })
      expect(deleted.status).toBe(200)
      expect((await both({ target: `${base}/Employee(${key})` })).status).toBe(404)
      const text = await both({
        method: 'POST',
        target: `${base}/Employee?$method=update`,
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ firstName: 'Text', lastName: 'Plain' }),
      })
      expect(json(text).lastName).toBe('Plain')
    })

    it('errors: malformed filter, unknown class, bad JSON, a body too large, a form', async () => {
      const filter = await both({ target: `${base}/Employee?$filter=${q('"salary >"')}` })
      expect(filter.status).toBeGreaterThanOrEqual(400)
      expect(filter.status).toBeLessThan(500)
      expect(errCode(filter)).toBeTypeOf('number')

      const unknown = await both({ target: `${base}/Nope` })
      expect(unknown.status).toBe(404)
      expect(errCode(unknown)).toBeTypeOf('number')

      const badJson = await both(
        {
          method: 'POST',
          target: `${base}/Employee?$method=update`,
          headers: JSON_BODY,
          body: '{"lastName": "unclosed',
        },
        options.jsonParseErrorWithoutPosition ? sameButTheParserPart : undefined,
      )
      expect([badJson.status, errCode(badJson)]).toEqual([400, 9030])

      const tooLarge = await both({
        method: 'POST',
        target: `${base}/Employee?$method=update`,
        headers: JSON_BODY,
        body: JSON.stringify({ lastName: 'x'.repeat(MAX_BODY_BYTES) }),
      })
      expect([tooLarge.status, errCode(tooLarge)]).toEqual([413, 9033])

      // A form that is not JSON: 415. JSON declared as a form is read as JSON, but not behind
      // express.urlencoded(), which one setup here has (lenient-bodies.test.ts tests both).
      const form = await both({
        method: 'POST',
        target: `${base}/Employee?$method=update`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'lastName=Form',
      })
      expect([form.status, errCode(form)]).toEqual([415, 9036])

      const empty = await both({
        method: 'POST',
        target: `${base}/Employee?$method=update`,
        headers: JSON_BODY,
        body: '',
      })
      expect(empty.status).toBeGreaterThanOrEqual(400)

      const put = await both({ method: 'PUT', target: `${base}/Employee(1)`, body: '{}' })
      expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, POST'])
    })

    it('files: raw bytes past maxBodyBytes taken up to maxUploadBytes, then 413', async () => {
      const OCTETS = { 'content-type': 'application/octet-stream' }
      // No JSON, and larger than a JSON body may be.
      const file = 'x'.repeat(MAX_BODY_BYTES + 1000)
      // Each side answers an ID of its own.
      const anId = (body: Buffer): boolean => /^\{"ID":"[0-9A-F]{32}"\}$/.test(body.toString())
      const uploaded = await both(
        { method: 'POST', target: `${base}/$upload?$binary=true`, headers: OCTETS, body: file },
        (actual, expected) => anId(actual) && anId(expected),
      )
      expect(uploaded.status).toBe(200)

      const raw = await both({
        method: 'POST',
        target: `${base}/Company(2)/logo?$rawPict=image/png`,
        headers: OCTETS,
        body: file,
      })
      expect([raw.status, raw.body.toString()]).toEqual([200, '{"ok":true}'])
      const logo = await both({ target: `${base}/Company(2)/logo?$imageformat=best&$expand=logo` })
      expect(logo.body.toString()).toBe(file)

      const tooLarge = await both({
        method: 'POST',
        target: `${base}/$upload?$binary=true`,
        headers: OCTETS,
        body: 'x'.repeat(MAX_UPLOAD_BYTES + 1),
      })
      expect([tooLarge.status, errCode(tooLarge)]).toEqual([413, 9033])
      // A JSON body to the same attribute's entity keeps the JSON limit.
      const json = await both({
        method: 'POST',
        target: `${base}/Company?$method=update`,
        headers: JSON_BODY,
        body: JSON.stringify({ __KEY: '2', name: file }),
      })
      expect([json.status, errCode(json)]).toEqual([413, 9033])
    })

    it('cookies: a session cookie set, sent back, and two Set-Cookie headers kept apart', async () => {
      const first = await both({ target: `${base}/Employee(2)` })
      const cookies = first.headers['set-cookie'] as readonly string[]
      expect(cookies).toHaveLength(1)
      const session = cookies[0]!.split(';')[0]!
      expect(session).toMatch(/^4DSID_company-demo=S\d+$/)

      const again = await both({ target: `${base}/Employee(2)`, headers: { cookie: session } })
      expect(again.headers['set-cookie']).toBeUndefined()

      const two = await both({ target: `${base}/$catalog`, headers: { 'x-two-cookies': '1' } })
      expect(two.headers['set-cookie']).toHaveLength(2)
    })

    it('HEAD and OPTIONS: the GET status and headers with no body; Allow', async () => {
      const head = await both({ method: 'HEAD', target: `${base}/Employee(1)` })
      expect([head.status, head.body.length]).toEqual([200, 0])
      expect(head.headers['content-type']).toMatch(/^application\/json/)
      const missing = await both({ method: 'HEAD', target: `${base}/Employee(99999)` })
      expect([missing.status, missing.body.length]).toEqual([404, 0])
      const options = await both({ method: 'OPTIONS', target: `${base}/Employee` })
      expect([options.status, options.headers.allow]).toEqual([204, 'GET, HEAD, POST'])
    })
  })
}

/**
 * The session ids of the two sides, when they differ (`sessionIdsDiffer`): the reference's id for
 * each id the server under test set, paired from the Set-Cookie headers of one request's answers.
 */
class SessionIds {
  readonly #differ: boolean
  // The server under test's id → the reference's, and back.
  readonly #toReference = new Map<string, string>()
  readonly #toServer = new Map<string, string>()

  constructor(differ: boolean) {
    this.#differ = differ
  }

  /**
   * `exchange` as sent to the server under test: the test holds the reference's ids (`both`
   * returns answers read as the reference's), so its session cookie carries the server's own id.
   */
  toServer(exchange: Exchange): Exchange {
    const cookie = exchange.headers?.['cookie']
    if (!this.#differ || cookie === undefined) return exchange
    const own = cookie.replace(
      SESSION_COOKIE,
      (_, name: string, id: string) => `${name}=${this.#toServer.get(id) ?? id}`,
    )
    return { ...exchange, headers: { ...exchange.headers, cookie: own } }
  }

  /**
   * `actual` with the ids its server set read as the reference's: in its Set-Cookie headers and
   * in its body (the catalog's `__UNIQID`), after pairing the ids this answer and `expected` set.
   */
  asReference(actual: Answer, expected: Answer): Answer {
    if (!this.#differ) return actual
    const theirs = sessionIdsSet(expected)
    sessionIdsSet(actual).forEach((id, i) => {
      if (theirs[i] === undefined) return
      this.#toReference.set(id, theirs[i])
      this.#toServer.set(theirs[i], id)
    })
    if (this.#toReference.size === 0) return actual
    // The longest first, and not inside a longer id: S12 is not the start of S123.
    const ids = [...this.#toReference.keys()].sort((a, b) => b.length - a.length)
    const named = new RegExp(`(?:${ids.map(escaped).join('|')})(?![\\w-])`, 'g')
    const read = (text: string) => text.replace(named, (id) => this.#toReference.get(id)!)
    const setCookie = actual.headers['set-cookie']
    return {
      status: actual.status,
      headers: {
        ...actual.headers,
        'set-cookie': typeof setCookie === 'string' ? read(setCookie) : setCookie?.map(read),
      },
      // latin1 both ways: every byte kept as it was but the ids.
      body: Buffer.from(read(actual.body.toString('latin1')), 'latin1'),
    }
  }
}

/** The ids of the session cookies an answer sets, in order. */
const sessionIdsSet = (answer: Answer): string[] =>
  [answer.headers['set-cookie'] ?? []]
    .flat()
    .flatMap((line) => [...line.matchAll(SESSION_COOKIE)].map((m) => m[2]!))

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Where two bodies differ first, with a few bytes around it from each, to read in a failure. */
function whereTheyDiffer(actual: Buffer, expected: Buffer): string {
  let at = 0
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++
  if (at === actual.length && at === expected.length) return ''
  const around = (body: Buffer) =>
    JSON.stringify(body.subarray(Math.max(0, at - 60), at + 60).toString('latin1'))
  return ` (they differ at byte ${at} of ${actual.length} and ${expected.length}: ${around(actual)} where the reference has ${around(expected)})`
}

// The 9030 message for a body that is not JSON: what the parser said, and where (when it says).
const NOT_JSON = /^The request body is not valid: it is not JSON \(.+\) at line \d+, column \d+$/
const NOT_JSON_NOWHERE =
  /^The request body is not valid: it is not JSON \(.+; the parser gave no position\)$/

/**
 * Whether two 9030 answers to a body that is not JSON are the same but for the parser's part of
 * their message: the node side saying where, the other side saying that its parser did not.
 */
function sameButTheParserPart(actual: Buffer, expected: Buffer): boolean {
  const said = (body: Buffer): string => JSON.parse(body.toString('utf8')).__ERROR[0].message
  const withoutMessage = (body: Buffer): string =>
    body.toString('utf8').replace(JSON.stringify(said(body)), '""')
  return (
    NOT_JSON.test(said(expected)) &&
    NOT_JSON_NOWHERE.test(said(actual)) &&
    withoutMessage(actual) === withoutMessage(expected)
  )
}

/** The reference: `rest` on a bare node:http server with the listener. */
export async function serveNode(rest: MountableRest): Promise<Served> {
  return listen(createServer(toNodeListener(rest)))
}

/** Listens on a free port of 127.0.0.1; `close` ends every connection. */
export async function listen(server: import('node:http').Server): Promise<Served> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
