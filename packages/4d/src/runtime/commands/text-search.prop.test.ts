import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { budgetOf } from '../context/budget.js'
import { errorOf } from './run.fixture.js'
import { KEYS, matchesOf, type CharKey, type Match } from './text-search.js'

// The search as it was written before `matchesOf`: the whole text keyed at each call.
function findOnce(find: string, text: string, from: number, key: CharKey): Match | undefined {
  if (find === '' || from >= text.length) return undefined
  const keyedOf = (t: string) => {
    let out = ''
    const origin: number[] = []
    for (let i = 0; i < t.length; i++) {
      const k = key(t[i]!)
      for (let j = 0; j < k.length; j++) origin.push(i)
      out += k
    }
    origin.push(t.length)
    return { text: out, origin }
  }
  const k = key === KEYS.exact ? { text, origin: [] as number[] } : keyedOf(text)
  const f = key === KEYS.exact ? find : keyedOf(find).text
  if (f === '') return undefined
  const origin = (i: number) => (key === KEYS.exact ? i : k.origin[i]!)
  const start = key === KEYS.exact ? from : k.origin.findIndex((o) => o >= from)
  const at = k.text.indexOf(f, start)
  if (at < 0) return undefined
  return { index: origin(at), length: origin(at + f.length) - origin(at) }
}

function allByOnce(find: string, text: string, key: CharKey): Match[] {
  const out: Match[] = []
  for (let from = 0; ;) {
    const m = findOnce(find, text, from, key)
    if (m === undefined) return out
    out.push(m)
    from = m.index + Math.max(1, m.length)
  }
}

describe('matchesOf', () => {
  it('finds what the search one match at a time found, keying the text once', () => {
    const text = fc
      .array(fc.constantFrom('a', 'A', 's', 'S', 'ß', 'e', 'é', 'É', ' ', 'æ', 'ﬁ'), {
        maxLength: 30,
      })
      .map((cs) => cs.join(''))
    const find = fc
      .array(fc.constantFrom('a', 's', 'ss', 'e', 'é', 'f', 'i', ' '), {
        minLength: 1,
        maxLength: 3,
      })
      .map((cs) => cs.join(''))
    const key = fc.constantFrom(KEYS.folded, KEYS.exact, KEYS.caseInsensitive)
    fc.assert(
      fc.property(find, text, key, (f, t, k) => {
        expect([...matchesOf(f, t, 0, k)]).toEqual(allByOnce(f, t, k))
      }),
      { numRuns: 3000 },
    )
  })

  it('Replace string over a long text counts each match against the budget', () => {
    // A clock a millisecond later at each reading: the budget is 50 readings, 204,800 matches.
    let t = 0
    const clock = { now: () => t++ }
    const e = errorOf(`$t:="ab"*500000\n$t:=Replace string($t; "a"; "x")`, {
      runtime: { budget: budgetOf(50, clock) },
    })
    expect(e.errCode).toBe(9410)
  })
})
