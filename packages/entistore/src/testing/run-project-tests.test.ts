/**
 * runProjectTests (issue 80): a 4D project's tests as this runner's own. car-rental's are
 * registered here for real, each a Vitest test that passes; those of failing-tests, registered with
 * a runner's API made here, fail with the 4D failure at its file and line.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProjectTests } from '../fixture.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const CAR_RENTAL = join(root, 'examples/car-rental')
const FAILING = join(root, 'examples/failing-tests')

// car-rental's 4D tests, each a test of this file: `FleetTest > test_aNewCarJoinsTheFleet`.
const carRental = await runProjectTests(
  { project: CAR_RENTAL, data: join(CAR_RENTAL, 'csv') },
  { describe, it, beforeAll, afterAll },
)

describe('runProjectTests', () => {
  it("registers car-rental's 7 tests in 2 suites", () => {
    expect(carRental.count).toBe(7)
    expect(carRental.suites.map((s) => s.className)).toEqual([undefined, 'FleetTest'])
  })

  it('fails a test with the 4D failure: its test, message, file and line, and the 4D line', async () => {
    // A runner's API of its own, which records what is registered and runs it in order.
    const steps: { kind: string; name: string; body: () => void }[] = []
    let suite = ''
    const api = {
      describe: (name: string, body: () => void) => {
        suite = name
        body()
      },
      it: (name: string, body: () => void) =>
        steps.push({ kind: 'it', name: `${suite} > ${name}`, body }),
      beforeAll: (body: () => void) => steps.push({ kind: 'beforeAll', name: suite, body }),
      afterAll: (body: () => void) => steps.push({ kind: 'afterAll', name: suite, body }),
    }
    await runProjectTests({ project: FAILING, data: join(FAILING, 'csv') }, api)
    const outcomes = steps.map((s) => {
      try {
        s.body()
        return [s.kind, s.name, 'ok']
      } catch (e) {
        return [s.kind, s.name, (e as Error).message]
      }
    })
    const methods = join(FAILING, 'Project/Sources/Methods')
    expect(outcomes).toEqual([
      ['beforeAll', 'methods', 'ok'],
      [
        'it',
        'methods > test_assertFails',
        `test_assertFails failed: Assert failed: the totals sum to 250\n    at ${methods}/test_assertFails.4dm:5\n    5 | ASSERT($sum=250; "the totals sum to 250")\n    compared: 242.5 = 250`,
      ],
      ['it', 'methods > test_passes', 'ok'],
      [
        'it',
        'methods > test_runsPastItsBudget',
        expect.stringMatching(/^test_runsPastItsBudget timed out: /),
      ],
      [
        'it',
        'methods > test_uncaughtError',
        expect.stringMatching(/^test_uncaughtError error: the invoice service is down\n/),
      ],
      ['afterAll', 'methods', 'ok'],
      ['beforeAll', 'InvoiceTest', 'ok'],
      ['it', 'InvoiceTest > test_countsTheInvoices', 'ok'],
      [
        'it',
        'InvoiceTest > test_largestInvoice',
        expect.stringMatching(
          /^InvoiceTest\.test_largestInvoice failed: expected "Grace", got "Ada": the largest invoice is Grace's\nexpected true, got false: no invoice is over 100\n    at .*InvoiceTest\.4dm:7\n/,
        ),
      ],
      ['afterAll', 'InvoiceTest', 'ok'],
    ])
  })
})
