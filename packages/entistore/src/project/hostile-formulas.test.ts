/**
 * Issue 78 through a formula that 4D code gives a member to call for each entity
 * (`orderByFormula()`, `query(Formula(…))`), over REST: the function's code runs in slices, and
 * the formula's calls run in steps (4d's orda/formula-steps.ts), so that a formula that loops long
 * (a getter or a method it calls loops) holds no other client, and one that never ends is ended by
 * the budget (9410) while the others are served.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  besideClients,
  errCodes,
  HOSTILE,
  served,
  type Client,
} from './four-d-rest.fixture.js'

// The method a formula calls loops this many passes for each of the three tasks.
const PASSES = 5_000_000

describe('a formula called for each entity by a project’s 4D code', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE, { seed: 10, seedTasks: 3 }))
  })

  // A call of function `fn`, and a read by key of employee `n` sent once it started: the read is
  // answered first, and the call as `answer` says (its error's code, or its result).
  async function callBeside(
    fn: string,
    args: unknown[],
    n: number,
    answer: { readonly code: number } | { readonly result: unknown },
  ): Promise<void> {
    const beside = await answeredBeside(
      () => guest.post(`$catalog/${fn}`, args),
      () => other.get(`Employee(${n})`),
    )
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(beside.light.json.lastname).toBe(`Last${n}`)
    if ('code' in answer) {
      expect(beside.heavy.status).toBe(422)
      expect(errCodes(beside.heavy.json)[0]).toBe(answer.code)
    } else {
      expect(beside.heavy.status, JSON.stringify(beside.heavy.json)).toBe(200)
      expect(beside.heavy.json.result).toEqual(answer.result)
    }
  }

  // The first task's getter heavy gives 10,000,001 (it loops 10 million passes), the others
  // their ID; the method gives its value after its passes.
  for (const [what, fn, args, result] of [
    ['an ordering by a formula reading a getter', 'orderedByHeavyFormula', [], [1, 3, 2]],
    ['an ordering by a formula calling a method', 'orderedByLoopFormula', [PASSES], [3, 2, 1]],
    ['a query by a formula calling a method', 'queriedByLoopFormula', [PASSES], [2, 3]],
    [
      'a selection’s query by a formula reading a getter',
      'selectionQueriedByHeavyFormula',
      [],
      [1],
    ],
  ] as const)
    it(`answers a read by key beside ${what} that loops long`, () =>
      callBeside(fn, [...args], 3, { result }))

  // The second task's getter endless never ends.
  for (const [what, fn] of [
    ['an ordering', 'orderedByEndlessFormula'],
    ['a query', 'queriedByEndlessFormula'],
  ] as const)
    it(`ends ${what} by a formula that never ends with 9410, serving the others meanwhile`, async () => {
      await callBeside(fn, [], 4, { code: 9410 })
      // And serves everyone, right, after it.
      const one = await other.get('Employee(5)')
      expect(one.json.lastname).toBe('Last5')
    })
})
