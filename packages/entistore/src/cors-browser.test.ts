/**
 * `entistore serve --cors <origin>` from a real browser: a page served on another port (another
 * origin, the same site, as a Vite dev server and the API are on one machine) logs in through
 * `$directory/login`, reads, writes and locks with `fetch(…, { credentials: 'include' })`, its
 * session cookie going back by itself; it reads the headers the server exposes (a picture's
 * ETag). A page on an origin not in the list reads nothing. Debian's Chromium driven by
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, root } from './explorer/chromium.fixture.js'
import { startCli, stopChildren, type CliProcess } from './persist/cli-process.fixture.js'

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
})
