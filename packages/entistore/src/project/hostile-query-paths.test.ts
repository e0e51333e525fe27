/**
 * Issue 78's attacks through a relation a text names, over REST: a function's code queries,
 * orders, extracts or aggregates through `employer`, whose dataclass's restrict loops as long as
 * `Storage` says. The restrict is answered ahead in steps (core's `queryReachInSteps`,
 * `orderReachInSteps`, `pathReachInSteps`), so a read by key of another dataclass, sent after the
 * heavy request, is answered first; the answer is the one a restrict run whole gives; an endless
 * one ends with the budget's 9410, and the server serves on, right.
 */
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  errCodes,
  projectCopy,
  served,
  type Client,
  type Reply,
} from './four-d-rest.fixture.js'

const PATHS = fileURLToPath(new URL('test-projects/hostile-paths', import.meta.url))
const EMPLOYEES = 30

describe('a function reading through a relation whose restrict loops', () => {
  let guest: Client
  let other: Client
  // Each test loops a number of passes of its own: a restrict's answer is kept while Storage holds.
  let passes = 10_000_000
  const loopLong = () => guest.post('$catalog/passes', [passes++])

  beforeAll(async () => {
    const serve = await served(projectCopy(PATHS, {}), { queryBudgetMs: 2_000 })
    guest = serve.client()
    other = serve.client()
    expect((await guest.post('$catalog/seed', [EMPLOYEES])).json.result).toBe(EMPLOYEES)
  })

  // The heavy request and a read by key of Lot sent after it started: the order answered, both replies.
  async function beside(heavy: () => Promise<Reply>): Promise<[string[], Reply, Reply]> {
    const r = await answeredBeside(heavy, () => other.get('Lot(3)'))
    return [r.order.map((o) => (o === 'light' ? 'key' : o)), r.heavy, r.light]
  }

  const call =
    (name: string, ...args: unknown[]) =>
    () =>
      guest.post(`$catalog/${name}`, args)

  // Company 2, the second Acme, is closed: its restrict hides it, and its employees' employer.
  const CASES: [string, () => Promise<Reply>, unknown][] = [
    ['a query of the dataclass', call('employeesOf', 'Acme'), 10],
    ['a query of a selection, the path a placeholder', call('narrowTo', 'Acme'), 10],
    ['a query whose value its settings give', call('employeesNamed', 'Globex'), 10],
    ['an ordering', call('firstByEmployer'), 'Employee11,Employee14'],
    ['an ordering by criteria', call('firstByCriteria'), 'Employee11,Employee14'],
    ['an extract', call('employerNames'), 20],
    ['a distinct of an alias', call('employerNamesSeen'), ['Acme', 'Globex']],
    ['an alias read as a member', call('employerNameOf', 2), 'Globex'],
    ['an alias read as a member, the employer hidden', call('employerNameOf', 1), null],
  ]

  for (const [what, heavy, expected] of CASES)
    it(`answers a read by key beside ${what} through the relation, right`, async () => {
      await loopLong()
      const [order, read, one] = await beside(heavy)
      expect(order).toEqual(['key', 'heavy'])
      expect(one.json.name).toBe('Lot3')
      expect(read.json.result, JSON.stringify(read.json)).toEqual(expected)
      // The same as a restrict that answers at once gives.
      await guest.post('$catalog/passes', [0])
      expect((await heavy()).json.result).toEqual(expected)
    })

  it('answers a read by key beside a toCollection() and a toObject() through the relation, right', async () => {
    await loopLong()
    const [order, read, one] = await beside(call('employersCollected'))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    await guest.post('$catalog/passes', [0])
    const plain = (await guest.post('$catalog/employersCollected', [])).json.result
    expect(read.json.result).toBe(plain)
    // Employee 1's employer is the closed company: hidden, the others read.
    expect(plain).toContain('Globex')
  })

  it('ends a query through the relation whose restrict never ends with 9410, serving others', async () => {
    await guest.post('$catalog/passes', [-1])
    const [order, refused, one] = await beside(call('employeesOf', 'Globex'))
    expect(order).toEqual(['key', 'heavy'])
    expect(one.json.name).toBe('Lot3')
    expect(errCodes(refused.json)[0]).toBe(9410)
    await guest.post('$catalog/passes', [0])
    expect((await other.post('$catalog/employeesOf', ['Globex'])).json.result).toBe(10)
  })
})
