import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { chain, companyDatastore as company } from '../serialize/chain.fixture.js'
import { countedTurns, turnBound } from '../slices/counted-turns.fixture.js'
import { TURNS_WAITED, watchResponsiveness } from './responsiveness.fixture.js'
import { serveOnSocket } from './serve.fixture.js'

// Issue 28, the chain: `GET /rest/Company?$attributes=staff.employer.staff.employer…` multiplies
// its reply by about 15 at each level. Before: five levels made 1.78 GB, and six such requests in
// parallel held every other client for 9 s; four levels (118 MB) held the loop 3.4 s in one piece.
// Counted, not timed (slices/counted-turns.fixture.ts): the work of each turn of the event loop,
// in steps (a related entity measured or written, a chunk written), and the turns each fresh GET
// waited.

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
    const counted = countedTurns()
    const { base, internal } = await serveOnSocket(company(), { turns: counted.turns })
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted })
    const attack = `${base}/rest/Company?$attributes=${chain(5)}`
    const answers = await Promise.all(Array.from({ length: 6 }, () => getFromChild(attack)))
    const seen = await watch.stop()
    const turns = counted.take()
    for (const answer of answers) {
      expect(answer.status).toBe(400)
      expect(answer.bytes).toBeLessThan(1000)
    }
    // The six measured in slices that share a turn (in one piece: a chain's 69 steps a turn).
    expect(turns.length).toBeGreaterThan(20)
    expect(Math.max(...turns)).toBeLessThanOrEqual(turnBound(6))
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })

  it('writes a reply of 118 MB in slices that let fresh GETs in', async () => {
    // Within the limits: by default the chain's repeats (the same companies' pages, again and
    // again) pass maxRepeatedBytes, and it is refused (read/reply-limit.test.ts).
    const counted = countedTurns()
    const { base, internal } = await serveOnSocket(company(), {
      maxRepeatedBytes: Infinity,
      turns: counted.turns,
    })
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted })
    const answer = await getFromChild(`${base}/rest/Company?$attributes=${chain(4)}`)
    const seen = await watch.stop()
    const turns = counted.take()
    expect(answer).toEqual({ status: 200, bytes: 118_421_173 })
    // Its pieces and their writes, a slice a turn: 1.4 million steps in 116,000 turns.
    expect(turns.length).toBeGreaterThan(1000)
    expect(Math.max(...turns)).toBeLessThanOrEqual(turnBound(2))
    expect(seen.probes).toBeGreaterThan(3)
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })
})
