/**
 * `entistore serve --cors <origin>` from a real browser: a page served on another port (another
 * origin, the same site, as a Vite dev server and the API are on one machine) logs in through
 * `$directory/login`, reads, writes and locks with `fetch(…, { credentials: 'include' })`, its
 * session cookie going back by itself; it reads the headers the server exposes (a picture's
 * ETag), and reads the clear 405 of a method the interface does not take (PATCH, PUT, DELETE),
 * not an opaque CORS failure. A page on an origin not in the list reads nothing, and the server
 * says so on stderr, once, naming the localhost/127.0.0.1 mix-up; a page on localhost that logs in
 * at the 127.0.0.1 URL serve prints reads, in the 401s after, why its cookie never comes back.
 * Debian's Chromium driven by
 * playwright-core (the explorer's fixture), against the demo served by the real command in a child
 * process, whose request log names the user and never the password.
 *
 * Without Chromium the suite is skipped, except under CI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { chromiumAvailable, launchChromium, root } from '../explorer/chromium.fixture.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'

const PASSWORD = 'lovelace-PASSWORD'

/** What the page's script did, step by step: each reply's status and what it read. */
interface Steps {
  before: number
  login: { status: number; body: unknown }
  currentUser: unknown
  read: { status: number; lastName: unknown; stamp: number }
  write: { status: number; salary: unknown }
  lock: { status: number; body: unknown }
  picture: { status: number; etag: string | null; type: string | null }
}

/** The page's script: every call of a front-end's first day, against `api`. */
async function firstDay([api, password]: readonly [string, string]): Promise<Steps> {
  const include = { credentials: 'include' } as const
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })
  const before = (await fetch(`${api}/Employee(1)`, include)).status
  const login = await json(
    await fetch(`${api}/$directory/login`, {
      method: 'POST',
      ...include,
      headers: { 'username-4D': 'ada', 'password-4D': password },
    }),
  )
  const currentUser = (await json(await fetch(`${api}/$directory/currentUser`, include))).body
  const employee = await json(await fetch(`${api}/Employee(1)`, include))
  const written = await json(
    await fetch(`${api}/Employee?$method=update`, {
      method: 'POST',
      ...include,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ __KEY: 1, __STAMP: employee.body.__STAMP, salary: 12345 }),
    }),
  )
  const lock = await json(await fetch(`${api}/Employee(1)?$lock=true`, include))
  const picture = await fetch(`${api}/Company(1)/logo?$imageformat=best&$expand=logo`, include)
  await picture.arrayBuffer()
  return {
    before,
    login,
    currentUser,
    read: {
      status: employee.status,
      lastName: employee.body.lastName,
      stamp: employee.body.__STAMP,
    },
    write: { status: written.status, salary: written.body.salary },
    lock,
    picture: {
      status: picture.status,
      etag: picture.headers.get('etag'),
      type: picture.headers.get('content-type'),
    },
  }
}

describe.skipIf(!chromiumAvailable)('a page on another origin, through --cors, in Chromium', () => {
  const on = {} as {
    dir: string
    pages: Server
    pagePort: number
    cli: CliProcess
    api: string
    browser: Browser
    page: Page
  }

  beforeAll(async () => {
    on.dir = mkdtempSync(join(tmpdir(), 'entistore-cors-'))
    const users = join(on.dir, 'users.json')
    writeFileSync(users, JSON.stringify({ ada: { password: PASSWORD, privileges: ['admin'] } }))
    // The front-end's dev server: a blank page, from which the script calls the API.
    on.pages = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
    )
    await new Promise<void>((resolve) => on.pages.listen(0, '127.0.0.1', resolve))
    on.pagePort = (on.pages.address() as AddressInfo).port
    const browserReady = launchChromium()
    on.cli = await startCli(
      [
        'serve',
        '-m',
        `${root}examples/company/model.json`,
        '-d',
        `${root}examples/company/data.json`,
        '--roles',
        `${root}examples/company/roles.json`,
        '-u',
        users,
        '--port',
        '0',
        '--no-explorer',
        '--cors',
        `http://localhost:${on.pagePort}`,
      ],
      { ready: '\n' },
    )
    // localhost for both: another port is another origin, but the same site, so the session
    // cookie (SameSite=Strict) goes with the page's requests.
    on.api = `${on.cli.url.replace('127.0.0.1', 'localhost')}/rest`
    on.browser = await browserReady
    on.page = await on.browser.newPage()
  }, 60_000)

  afterAll(async () => {
    await on.browser?.close()
    stopChildren()
    await new Promise((resolve) => on.pages?.close(resolve))
    if (on.dir) rmSync(on.dir, { recursive: true, force: true })
  })

  it('logs in, reads, writes and locks with its session cookie, and reads the exposed headers', async () => {
    await on.page.goto(`http://localhost:${on.pagePort}/`)
    const steps = await on.page.evaluate(firstDay, [on.api, PASSWORD] as const)
    expect(steps.before).toBe(401)
    expect(steps.login).toEqual({ status: 200, body: { result: true } })
    expect(steps.currentUser).toMatchObject({ result: { userName: 'ada' } })
    expect(steps.read).toMatchObject({ status: 200, lastName: expect.any(String) })
    expect(steps.write).toEqual({ status: 200, salary: 12345 })
    expect(steps.lock).toMatchObject({ status: 200, body: { result: true } })
    expect(steps.picture.status).toBe(200)
    expect(steps.picture.etag).toMatch(/^"/)
    expect(steps.picture.type).toMatch(/^image\//)

    // The lock is the page's session's: another session is refused it.
    const other = await fetch(`${on.cli.url}/rest/$directory/login`, {
      method: 'POST',
      headers: { 'username-4D': 'ada', 'password-4D': PASSWORD },
    })
    const cookie = other.headers.get('set-cookie')!.split(';')[0]!
    await other.text()
    const refused = await fetch(`${on.cli.url}/rest/Employee(1)?$lock=true`, {
      headers: { cookie },
    })
    expect(await refused.json()).toMatchObject({ result: false, __STATUS: { status: 3 } })

    // The request log names the page's user, never the password.
    await on.cli.printed('/rest/Company(1)/logo')
    expect(on.cli.stdout()).toMatch(/^OPTIONS \/rest\/\$directory\/login 204 .* -$/m)
    expect(on.cli.stdout()).toMatch(/^POST \/rest\/\$directory\/login 200 .* ada$/m)
    expect(on.cli.stdout()).toMatch(/^GET \/rest\/Employee\(1\)\?\$lock=true 200 .* ada$/m)
    expect(on.cli.stdout() + on.cli.stderr()).not.toContain(PASSWORD)
  })

  it('a page on an origin not in the list reads nothing', async () => {
    // 127.0.0.1 and localhost are two origins (and two sites): only the second is listed.
    await on.page.goto(`http://127.0.0.1:${on.pagePort}/`)
    const outcome = await on.page.evaluate(async (api) => {
      try {
        const res = await fetch(`${api}/$catalog`, { credentials: 'include' })
        return `read ${res.status}`
      } catch (e) {
        return (e as Error).name
      }
    }, on.api)
    expect(outcome).toBe('TypeError')
  })

  it('reads the clear 405 of a method the interface does not take, with the CORS headers', async () => {
    await on.page.goto(`http://localhost:${on.pagePort}/`)
    const answers = await on.page.evaluate(async (api) => {
      const out: { method: string; status: number; errCode: unknown; allow: string | null }[] = []
      for (const method of ['PATCH', 'PUT', 'DELETE']) {
        const res = await fetch(`${api}/Employee(1)`, {
          method,
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'fetch' },
          body: method === 'DELETE' ? undefined : '{"salary":1}',
        })
        const body = (await res.json()) as { __ERROR: { errCode: number }[] }
        out.push({
          method,
          status: res.status,
          errCode: body.__ERROR[0]!.errCode,
          allow: res.headers.get('allow'),
        })
      }
      return out
    }, on.api)
    expect(answers).toEqual(
      ['PATCH', 'PUT', 'DELETE'].map((method) => ({
        method,
        status: 405,
        errCode: 9032,
        allow: 'GET, HEAD, POST',
      })),
    )
  })

  it('says on stderr, once, that it refused a page on 127.0.0.1 and that localhost is allowed', async () => {
    await on.page.goto(`http://127.0.0.1:${on.pagePort}/`)
    const failed = await on.page.evaluate(async (api) => {
      let n = 0
      for (let i = 0; i < 5; i++) await fetch(`${api}/Employee(${i + 1})`).catch(() => n++)
      return n
    }, on.api)
    expect(failed).toBe(5)
    const refused = () =>
      on.cli
        .stderr()
        .split('\n')
        .filter((l) => l.includes('refused the origin'))
    await vi.waitFor(() => expect(refused()).toHaveLength(1))
    expect(refused()[0]).toContain(
      `refused the origin http://127.0.0.1:${on.pagePort} (not allowed by --cors)`,
    )
    expect(refused()[0]).toContain(`open the page at http://localhost:${on.pagePort}`)
  })

  it('tells a page on localhost that logs in at 127.0.0.1 why its cookie never comes back', async () => {
    await on.page.goto(`http://localhost:${on.pagePort}/`)
    // The URL serve prints, with 127.0.0.1: another site than the page's.
    const server = `${on.cli.url}/rest`
    const steps = await on.page.evaluate(
      async ([api, password]) => {
        const include = { credentials: 'include' } as const
        const login = await fetch(`${api}/$directory/login`, {
          method: 'POST',
          ...include,
          headers: { 'username-4D': 'ada', 'password-4D': password },
        })
        await login.text()
        const read = await fetch(`${api}/Employee(1)`, include)
        return { login: login.status, read: read.status, body: (await read.json()) as any }
      },
      [server, PASSWORD] as const,
    )
    const port = new URL(on.cli.url).port
    expect([steps.login, steps.read]).toEqual([200, 401])
    expect(steps.body.__ERROR.at(-1)).toEqual({
      message:
        `The session cookie is kept for 127.0.0.1, and a browser does not send it with requests ` +
        `from a page on localhost, another site: call the server at localhost:${port}, or open ` +
        `the page on 127.0.0.1`,
      componentSignature: 'enti',
      errCode: 9180,
    })
    await vi.waitFor(() =>
      expect(on.cli.stderr()).toContain(
        `a page on http://localhost:${on.pagePort} was sent its session cookie by 127.0.0.1:${port}`,
      ),
    )
  })
})
