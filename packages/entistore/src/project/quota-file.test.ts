/**
 * `serve` under web server quotas (4D 21 R5) from a file: a project's
 * `Project/Sources/QuotaManager.json`, or `--quotas <file>`, which wins over it; enforced over
 * HTTP on the datastore's clock (moved by hand), changed at run time through `server.quotas`; a
 * malformed file stops the start with one line naming the file, the place and 4D's error 551.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ManualClock } from '@entistore/core'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startServe } from '../commands/cli-serve.fixture.js'

const DOCS = fileURLToPath(new URL('test-projects/docs-company', import.meta.url))
const WEB = fileURLToPath(new URL('test-projects/web-server', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'entistore-quotas-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let copies = 0
/** A copy of the small project whose QuotaManager.json holds `text` (none when undefined). */
function project(text?: string, from = DOCS): string {
  const to = join(dir, `p${++copies}`)
  cpSync(from, to, { recursive: true })
  if (text !== undefined) writeFileSync(join(to, 'Project/Sources/QuotaManager.json'), text)
  return to
}

/** A file of its own, as `--quotas` takes it. */
function file(text: string): string {
  const to = join(dir, `q${++copies}.json`)
  writeFileSync(to, text)
  return to
}

async function serving(argv: string[]) {
  // 10:00:20: 40 s left in the minute.
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 20))
  const s = await startServe(['serve', ...argv, '--quiet'], { datastoreOptions: { clock } })
  const get = () => fetch(`${s.url}/rest/$catalog`)
  return { s, clock, get }
}

describe('serve with web server quotas', () => {
  it("reads the project's QuotaManager.json: 429 with Retry-After, a new minute lets requests in", async () => {
    const { s, clock, get } = await serving(['--project', project('{ "nbRequestsPerMin": 2 }')])
    try {
      expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(200)
      const res = await get()
      expect(res.status).toBe(429)
      expect(res.headers.get('retry-after')).toBe('40')
      expect(((await res.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
        9065,
      )
      clock.advance(40_000)
      expect((await get()).status).toBe(200)
      // At run time (4D's WebServer.quotas).
      s.server.quotas.nbRequestsPerMin = undefined
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200)
    } finally {
      await s.stop()
    }
  })

  it('--quotas wins over the project’s file', async () => {
    const own = file('{ "nbRequestsPerMin": 1 }')
    const { s, get } = await serving([
      '--project',
      project('{ "nbRequestsPerMin": 5 }'),
      '--quotas',
      own,
    ])
    try {
      expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(429)
    } finally {
      await s.stop()
    }
  })

  it('a project without the file enforces nothing', async () => {
    const { s, get } = await serving(['--project', project()])
    try {
      for (let i = 0; i < 5; i++) expect((await get()).status).toBe(200)
      expect(s.server.quotas.nbRequestsPerMin).toBeUndefined()
    } finally {
      await s.stop()
    }
  })

  // Issue 78: a client that only reads by key took the quick lane, which kept no session: 7 of
  // 7 requests passed a per-session quota of 4, a third guest passed a quota of 2.
  it('a client that only reads by key is held by its session’s quotas and counted as a guest', async () => {
    const quotas = '{ "nbRequestsPerMinPerSession": 4, "nbGuestSessions": 2 }'
    const folder = project(quotas, WEB)
    const { s } = await serving(['--project', folder, '--data', join(folder, 'csv')])
    try {
      /** A client with its own cookie jar: the status and errCode of each `GET /rest/Employee(1)`. */
      const reader = () => {
        let cookie: string | undefined
        return async () => {
          const r = await fetch(`${s.url}/rest/Employee(1)`, cookie ? { headers: { cookie } } : {})
          cookie = r.headers.get('set-cookie')?.split(';')[0] ?? cookie
          const body = (await r.json()) as { __ERROR?: { errCode: number; message: string }[] }
          return r.status === 200 ? 200 : [r.status, body.__ERROR?.[0]?.message]
        }
      }
      const attacker = reader()
      const statuses = []
      for (let i = 0; i < 7; i++) statuses.push(await attacker())
      const perSession = [429, expect.stringContaining('nbRequestsPerMinPerSession')]
      expect(statuses).toEqual([200, 200, 200, 200, perSession, perSession, perSession])
      // Another client is served: the second guest.
      const other = reader()
      expect([await other(), await other()]).toEqual([200, 200])
      // A third guest is refused, the two others are not.
      const guests = [429, expect.stringContaining('nbGuestSessions')]
      expect(await reader()()).toEqual(guests)
      expect(await other()).toBe(200)
    } finally {
      await s.stop()
    }
  })

  /** The one line a start stops with. */
  async function refusal(argv: string[]): Promise<string> {
    const r = await runCli(['serve', ...argv, '--port', '0', '--quiet'])
    expect(r.code).toBe(1)
    expect(r.out).toEqual([])
    expect(r.err).toHaveLength(1)
    return r.err[0]!
  }

  it('a malformed file stops the start: one line with the file, the place and error 551', async () => {
    const folder = project('{\n  "nbRequestsPerMin": 10,\n  "nbSessions" 5\n}')
    const line = await refusal(['--project', folder])
    expect(line).toContain(join(folder, 'Project/Sources/QuotaManager.json:3:16'))
    expect(line).toContain('error 551, JSON malformed')
  })

  it('a name or a value 4D does not take stops it too, at its line', async () => {
    const bad = file('{\n  "nbRequestsPerMin": 10,\n  "nbRequestPerHour": 5\n}')
    expect(await refusal(['--project', project(), '--quotas', bad])).toMatch(
      new RegExp(
        `${bad}:3:3: error 551, JSON malformed: "nbRequestPerHour" is not a web server quota`,
      ),
    )
    const zero = file('{ "inBytesPerMin": 0 }')
    expect(await refusal(['--project', project(), '--quotas', zero])).toContain(
      `${zero}:1:3: error 551, JSON malformed: inBytesPerMin must be a whole number above 0, not 0`,
    )
    const list = file('[1]')
    expect(await refusal(['--project', project(), '--quotas', list])).toContain(
      'a JSON object of quotas is expected',
    )
  })
})
