/**
 * Issue 78's attacks on `entistore serve --project` over a socket: an HTTP handler whose loop never
 * ends holds no other client, and after every attack in a row the process is up and right.
 */
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Started } from '../commands/cli-serve.fixture.js'
import { HOSTILE, projectCopy } from './four-d-rest.fixture.js'

describe('entistore serve under a guest’s attacks on its 4D code', () => {
  const project = projectCopy(HOSTILE, {})
  mkdirSync(join(project, 'Resources', 'loop'), { recursive: true })
  symlinkSync('.', join(project, 'Resources', 'loop', 'a'))
  let s: Started
  const post = (path: string, body: unknown) =>
    fetch(`${s.url}/rest/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    s = await startServe(['serve', '--project', project, '--port', '0', '--no-explorer', '--quiet'])
    expect((await post('$catalog/seed', [50])).status).toBe(200)
  })
  afterAll(() => s?.stop())

  it('answers a read by key and another handler beside a handler that never ends', async () => {
    const order: string[] = []
    const spin = fetch(`${s.url}/spin`).then(async (r) => {
      order.push('spin')
      return { status: r.status, body: await r.text() }
    })
    // Sent once the loop runs: a server running it in one piece would answer them after it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const byKey = fetch(`${s.url}/rest/Employee(2)`).then(async (r) => {
      order.push('key')
      return (await r.json()) as { lastname: string }
    })
    const hello = fetch(`${s.url}/hello`).then(async (r) => {
      order.push('hello')
      return r.text()
    })
    const [spun, one, hi] = await Promise.all([spin, byKey, hello])
    expect(order.at(-1)).toBe('spin')
    expect(one.lastname).toBe('Last2')
    expect(hi).toContain('hello')
    expect(JSON.parse(spun.body).__ERROR[0].errCode).toBe(9410)
  })

  it('is up and right after every attack in a row', async () => {
    const attacks: [string, unknown[]][] = [
      ['down', [0]],
      ['grow', [2_000_000_000]],
      ['array', [2_000_000_000]],
      ['shout', [250_000_000]],
      ['validName', ['abcdefghijklmnopqrstuvwxyz!']],
      ['matches', ['(a+)+$', `${'a'.repeat(40)}!`]],
      ['listing', ['Resources/loop']],
      ['spin', []],
    ]
    for (const [fn, args] of attacks) {
      const r = await post(`$catalog/${fn}`, args)
      expect(r.status, fn).toBeLessThan(500)
    }
    const one = (await (await fetch(`${s.url}/rest/Employee(9)`)).json()) as { lastname: string }
    expect(one.lastname).toBe('Last9')
    const counted = (await (await post('$catalog/count', [100])).json()) as { result: number }
    expect(counted.result).toBe(297)
  })
})
