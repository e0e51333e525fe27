import { describe, expect, it } from 'vitest'
import { isPending, type RestReply, type RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { chain, companyDatastore } from '../serialize/chain.fixture.js'
import { countedTurns, turnBound } from '../slices/counted-turns.fixture.js'
import { replyText } from '../sync-reply.fixture.js'

// Issue 61: six relation chains at once held other clients 100–450 ms at 100,000 rows, each
// reply's measure and pieces taking a slice of 10 ms of its own in the same turn of the event
// loop. The turns here are counted, never timed (slices/counted-turns.fixture.ts): the measure and
// the pieces read the clock after each related entity.

const get = (query: string): RestRequest => ({
  method: 'GET',
  path: '/rest/Company',
  query,
  headers: {},
})

const CHAINS = 6
const TURN_BOUND = turnBound(CHAINS)

describe('replies in slices', () => {
  it('share one slice a turn: six chains measured at once, then written at once', async () => {
    const counted = countedTurns()
    const rest = createRestHandler(companyDatastore(), { turns: counted.turns })
    // Three levels: 5 MB each, within the limits, some 1,000 related entities to measure.
    const query = `$attributes=${chain(3)}`
    const pending = Array.from({ length: CHAINS }, () => rest.respond(get(query)))
    expect(pending.every(isPending)).toBe(true)
    const replies: RestReply[] = await Promise.all(pending)
    const measured = counted.take()
    expect(replies.map((r) => r.status)).toEqual(Array(CHAINS).fill(200))
    expect(measured.length).toBeGreaterThan(50)
    expect(Math.max(...measured)).toBeLessThanOrEqual(TURN_BOUND)

    // Six clients that take each piece as soon as it is written: one piece of each a turn.
    const bodies = replies.map((r) => (r.body as Iterable<string>)[Symbol.iterator]())
    const texts: string[] = Array(CHAINS).fill('')
    let open = CHAINS
    while (open > 0) {
      open = 0
      bodies.forEach((body, i) => {
        const next = body.next()
        if (next.done) return
        texts[i] += next.value
        open++
      })
      await new Promise((resolve) => setImmediate(resolve))
    }
    const written = counted.take()
    expect(written.length).toBeGreaterThan(50)
    expect(Math.max(...written)).toBeLessThanOrEqual(TURN_BOUND)
    // The same text as one reply read alone.
    const alone = replyText((await createRestHandler(companyDatastore()).respond(get(query))).body)
    expect(texts).toEqual(Array(CHAINS).fill(alone))
  })
})
