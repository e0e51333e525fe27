/**
 * Issue 46, "attack it yourself": generated roles files (privileges that include others, roles,
 * entries on the datastore, dataclasses, attributes and functions, promotions, empty lists, names
 * in capitals and undeclared, restrictedByDefault, forceLogin), users holding generated privileges
 * and roles, a generated `restrict` per user, and request sequences over every endpoint that reads
 * or writes: entities, selections, `$attributes`, `$expand`, navigation, `$filter` and `$orderby`
 * on attributes and paths, `$distinct`, `$compute`, entity sets and their algebra, `$queryplan` /
 * `$querypath`, `$asArray`, `$format=looker`, `$catalog`, `$info`, uploads and pictures, `$lock`,
 * `$atomic`, class functions (promoted or not; reading, querying, navigating, saving; one nesting a
 * selection in a plain object) and entity events (a constructor that fills a value, a validateSave
 * that refuses).
 *
 * Each answer is checked against a reference model of 4D's documented rules written apart from
 * the product (core's roles-reference.fixture.ts, itself checked against core's Roles in
 * roles.prop.test.ts), and against the data read with full rights through the TypeScript API:
 * see privileges-run.fixture.ts for the checks. A failure prints the shrunk case (a roles file of
 * one or two entries, one or two requests) and the first thing found wrong, in words.
 *
 * Sizes: the CI run checks at least 10,000 requests (the test fails if it checks fewer): 600
 * cases of 1 to 60 requests, about 17,000, each case's datastore built once for its roles file;
 * 6 s on the 2-core development machine when every check passes. A failure prints fast-check's
 * seed and path, to run it again. `ENTISTORE_LONG=1`: ten times as many. `ENTISTORE_PRIVILEGES_CHECKS=leak,works`: only those
 * checks (leak, refusal, works, values, sets). `ENTISTORE_PRIVILEGES_CATALOGUE=1`: instead of
 * stopping at the first failure, runs many cases and prints every kind of failure found, each
 * shrunk to its smallest case.
 */
import { afterAll, describe } from 'vitest'
import { casesTests, type Cases } from './findings-catalogue.fixture.js'
import { caseArb, type Case } from './privileges-requests.fixture.js'
import { CHECKS, describeFinding, Run, type Check, type Finding } from './privileges-run.fixture.js'

const LONG = process.env.ENTISTORE_LONG === '1'
const CASES = LONG ? 6_000 : 600
const STEPS = { minLength: 1, maxLength: 60, size: 'max' } as const
const MIN_REQUESTS = LONG ? 100_000 : 10_000
const checks =
  (process.env.ENTISTORE_PRIVILEGES_CHECKS?.split(',') as Check[] | undefined) ?? CHECKS
const CATALOGUE = process.env.ENTISTORE_PRIVILEGES_CATALOGUE === '1'

describe('roles files, sessions and requests against the reference model (issue 46)', () => {
  let requests = 0
  let runs = 0
  const verdicts = { allow: 0, refuse: 0, either: 0, ok: 0 }
  const started = performance.now()
  afterAll(() => {
    const s = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `privileges: ${requests} requests checked in ${runs} cases, ${s} s; the model allowed ` +
        `${verdicts.allow}, refused ${verdicts.refuse}, left ${verdicts.either} open; ` +
        `${verdicts.ok} were answered 2xx`,
    )
  })
  const tally = (run: Run, c: Case) => {
    runs++
    requests += c.steps.length
    for (const k of Object.keys(verdicts) as (keyof typeof verdicts)[]) verdicts[k] += run.stats[k]
  }

  const cases: Cases<Case, Finding> = {
    arb: caseArb(STEPS),
    numRuns: CASES,
    async run(c, first) {
      const run = new Run(c, checks)
      const findings = await run.run(first)
      tally(run, c)
      return findings
    },
    family,
    describe: describeFinding,
  }

  // The catalogue issue 46 asks for: every kind of failure, each with its smallest case.
  casesTests(
    'no leak, right refusals, every allowed request works',
    cases,
    MIN_REQUESTS,
    CATALOGUE
      ? {
          seed: Number(process.env.ENTISTORE_PRIVILEGES_SEED ?? 46),
          shrinking: { numRuns: CASES * 3 },
          kinds: (f) => f.kind,
        }
      : undefined,
  )
})

/** The family of a finding: its check and kind without the dataclass and attribute it names. */
function family(f: Finding): string {
  return `[${f.check}] ${f.kind.replace(/: [A-Z]\w*(\.[\w,]+)?$/, '')}`
}
