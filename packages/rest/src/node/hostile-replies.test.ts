import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { chain, companyDatastore as company } from '../serialize/chain.fixture.js'
import { FRESH_GET_BOUND_MS, freshGet, watchResponsiveness } from './responsiveness.fixture.js'
import { serveOnSocket } from './serve.fixture.js'

// Issue 28, the chain: `GET /rest/Company?$attributes=staff.employer.staff.employer…` multiplies
// its reply by about 15 at each level. Before: five levels made 1.78 GB, and six such requests in
// parallel held every other client for 9 s; four levels (118 MB) held the loop 3.4 s in one piece.

/**
 * GETs `url` from another process, which reads as fast as loopback goes (a client in this process
 * would share the server's event loop and slow it down itself): its status and byte count.
 */
function getFromChild(url: string): Promise<{ status: number; bytes: number }> {
  const script = `
    require('node:http').get(process.argv[1], { agent: false }, (res) => {
      let bytes = 0
      res.on('data', (c) => { bytes += c.length })
      res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, bytes })))
    })`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.on('error', reject)
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as { status: number; bytes: number })
      } catch {
        reject(new Error(`the client printed ${JSON.stringify(out)}`))
      }
    })
  })
}

describe('hostile replies', () => {
  it('refuses six parallel chains of five levels at once, while fresh GETs answer', async () => {
    const { base, internal } = await serveOnSocket(company())
    const watch = watchResponsiveness(`${base}/rest/Company(1)`)
    const attack = `${base}/rest/Company?$attributes=${chain(5)}`
    const answers = await Promise.all(Array.from({ length: 6 }, () => getFromChild(attack)))
    const seen = await watch.stop()
    for (const answer of answers) {
      expect(answer.status).toBe(400)
      expect(answer.bytes).toBeLessThan(1000)
    }
    expect(seen.failed).toBe(0)
    expect(seen.slowestMs).toBeLessThan(FRESH_GET_BOUND_MS)
    expect(internal).toEqual([])
  })

  it('writes a reply of 118 MB in slices that let fresh GETs in', async () => {
    // Within the limits: by default the chain's repeats (the same companies' pages, again and
    // again) pass maxRepeatedBytes, and it is refused (read/reply-limit.test.ts).
    const { base, internal } = await serveOnSocket(company(), { maxRepeatedBytes: Infinity })
    // Warm up the writer, so that the watch sees the reply, not the first compilation.
    expect((await freshGet(`${base}/rest/Company?$attributes=${chain(2)}`)).ok).toBe(true)
    const watch = watchResponsiveness(`${base}/rest/Company(1)`)
    const answer = await getFromChild(`${base}/rest/Company?$attributes=${chain(4)}`)
    const seen = await watch.stop()
    expect(answer).toEqual({ status: 200, bytes: 118_421_173 })
    expect(seen.probes).toBeGreaterThan(3)
    expect(seen.failed).toBe(0)
    expect(seen.slowestMs).toBeLessThan(FRESH_GET_BOUND_MS)
    expect(seen.loopHeldMs).toBeLessThan(FRESH_GET_BOUND_MS)
    expect(internal).toEqual([])
  })
})
