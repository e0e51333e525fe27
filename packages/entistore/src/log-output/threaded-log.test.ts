/**
 * The request log on its own thread, a real worker thread writing to a real file: every entry's
 * line and every other line in order; entries beyond a full ring counted and said, never memory
 * without end; nothing lost when the process ends at once; and, when the thread cannot run, the
 * lines made and written by the serving thread, said once.
 */
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { requestLogLine, type RequestLogEntry } from '../serve/request-log.js'
import { EntryRing } from './entry-ring.js'
import { linesOfExitingScript } from './exiting-script.fixture.js'
import { droppedLine, MAX_WRITE } from './line-batch.js'
import { threadedLog } from './threaded-log.js'

const dir = mkdtempSync(join(tmpdir(), 'entistore-threaded-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const output = () => {
  const path = join(dir, `out-${++files}.log`)
  return {
    fd: openSync(path, 'w'),
    lines: () => readFileSync(path, 'utf8').split('\n').slice(0, -1),
  }
}

const entry = (n: number, more: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  at: Date.UTC(2026, 10, 27, 3),
  method: 'GET',
  target: `/rest/Item(${n})?password=${n}`,
  status: 200,
  ms: 0.5,
  bytes: n,
  user: n % 2 === 0 ? 'ada' : undefined,
  complete: true,
  ...more,
})

const until = async (done: () => boolean, ms = 10_000): Promise<void> => {
  for (const end = Date.now() + ms; !done();) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('threadedLog', { timeout: 20_000 }, () => {
  it('writes each entry as the line request-log.ts makes, and the other lines in their place', async () => {
    const out = output()
    const log = threadedLog({
      fd: out.fd,
      format: 'json',
      worker: 2,
      maxWrite: MAX_WRITE,
      flushMs: 5,
    })
    log.line('Entistore serving x')
    for (let i = 0; i < 500; i++) {
      log.entry(entry(i))
      if (i === 249) log.line('reloaded')
    }
    await until(() => out.lines().length === 502)
    const expected = Array.from({ length: 500 }, (_, i) => requestLogLine(entry(i), 'json', 2))
    expect(out.lines()).toEqual([
      'Entistore serving x',
      ...expected.slice(0, 250),
      'reloaded',
      ...expected.slice(250),
    ])
    // No secret reaches the file.
    expect(out.lines().join('\n')).not.toMatch(/password=\d/)
    expect(log.close()).toBe(true)
  })

  it('a line said on stdout goes at once, not at the next reading, and the entries before it too', async () => {
    const out = output()
    const log = threadedLog({ fd: out.fd, format: 'text', maxWrite: MAX_WRITE, flushMs: 60_000 })
    // The first reading, at start, is over before these come.
    await new Promise((r) => setTimeout(r, 100))
    log.entry(entry(1))
    log.line('Entistore serving x')
    await until(() => out.lines().length === 2, 5000)
    expect(out.lines()).toEqual([requestLogLine(entry(1), 'text'), 'Entistore serving x'])
    expect(log.close()).toBe(true)
  })

  it('a full ring: the entries beyond it are counted and said, none kept in memory', async () => {
    const out = output()
    const log = threadedLog({
      fd: out.fd,
      format: 'text',
      maxWrite: MAX_WRITE,
      ringUnits: EntryRing.MIN_UNITS,
      flushMs: 200,
    })
    // Put at once, faster than a reading every 200 ms: about 3,000 fit.
    const n = 20_000
    for (let i = 0; i < n; i++) log.entry(entry(i, { target: `/rest/Item(${i})` }))
    expect(log.close()).toBe(true)
    const lines = out.lines()
    const dropped = lines.filter((l) => l.startsWith('entistore: '))
    expect(dropped).toHaveLength(1)
    const kept = lines.length - 1
    expect(kept).toBeGreaterThan(1000)
    expect(kept).toBeLessThan(n)
    expect(dropped[0]).toBe(droppedLine(n - kept))
  })

  it('a thread that cannot start: the lines are made here, and that is said once', async () => {
    const out = output()
    const said: string[] = []
    const log = threadedLog({
      fd: out.fd,
      format: 'text',
      maxWrite: MAX_WRITE,
      flushMs: 5,
      entry: new URL('file:///nowhere/logging-thread.js'),
      onFallback: (reason) => said.push(reason),
    })
    log.entry(entry(1))
    log.line('between')
    await until(() => said.length === 1)
    log.entry(entry(2))
    await until(() => out.lines().length === 3)
    expect(said[0]).toMatch(
      /^entistore: the request log's thread stopped \(.*\); its lines are written/,
    )
    expect(out.lines()).toEqual([
      requestLogLine(entry(1), 'text'),
      'between',
      requestLogLine(entry(2), 'text'),
    ])
  })

  it('process.exit right after the entries: none lost', () => {
    const lines = linesOfExitingScript(`
      import { threadedLog } from './threaded-log.ts'
      const log = threadedLog({ format: 'text', maxWrite: 65536 })
      for (let i = 0; i < 5000; i++)
        log.entry({ at: 0, method: 'GET', target: '/rest/T(' + i + ')', status: 200, ms: 0.1, bytes: 2, user: undefined, complete: true })
      process.exit(0)`)
    expect(lines).toHaveLength(5000)
    expect(lines.every((l, i) => l === `GET /rest/T(${i}) 200 0.10 ms 2 B -`)).toBe(true)
  })
})
