/**
 * @module The two ways the property tests of privileges run their generated cases (issue 46's
 * attack, privileges.prop.test.ts; issue 61's oracle, oracle.prop.test.ts): every case must pass
 * (the first finding fails the test, shrunk by fast-check), or, for a catalogue, every kind of
 * finding in many cases, each shrunk to its smallest case.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'

/** How a property test runs its cases and tells of what it finds. */
export interface Cases<C extends { readonly steps: readonly unknown[] }, F> {
  readonly arb: fc.Arbitrary<C>
  readonly numRuns: number
  /** The findings of a case's run; `first`: it may stop at the first. */
  run(c: C, first: boolean): Promise<readonly F[]>
  /** What a catalogue groups findings by. */
  family(f: F): string
  /** A finding in words: a failure's message. */
  describe(c: C, f: F): string
}

/**
 * The two tests of a property test of privileges: `title`, every case passes and sends at least
 * `minRequests` requests; or, when `catalogue` is set, the catalogue of the cases of its seed.
 */
export function casesTests<C extends { readonly steps: readonly unknown[] }, F>(
  title: string,
  cases: Cases<C, F>,
  minRequests: number,
  catalogued:
    | {
        readonly seed: number
        readonly shrinking: { readonly numRuns: number; readonly ms?: number }
        readonly kinds?: (f: F) => string
      }
    | undefined,
): void {
  it.skipIf(catalogued !== undefined)(title, async () => {
    const counted = await everyCasePasses(cases)
    // What the passing run checked, shrinking aside: the bound the issues set.
    expect(counted).toBeGreaterThanOrEqual(minRequests)
  })
  // Every kind of finding, each with its smallest case.
  it.runIf(catalogued !== undefined)('catalogue', { timeout: 3_600_000 }, async () => {
    const { seed, shrinking, kinds } = catalogued!
    console.log(await catalogue(cases, seed, shrinking, kinds))
  })
}

/**
 * Runs every case: the first with a finding fails, shrunk, with that finding in words. Answers how
 * many requests the passing cases sent (shrinking aside).
 */
export async function everyCasePasses<C extends { readonly steps: readonly unknown[] }, F>(
  cases: Cases<C, F>,
): Promise<number> {
  let counted = 0
  await fc.assert(
    fc.asyncProperty(cases.arb, async (c) => {
      const findings = await cases.run(c, true)
      if (findings.length > 0) throw new Error(cases.describe(c, findings[0]!))
      counted += c.steps.length
    }),
    { numRuns: cases.numRuns },
  )
  return counted
}

/**
 * Every kind of finding the cases of `seed` show, most frequent first, each with the smallest case
 * fast-check shrinks to that still shows it (`shrinking`: how many cases it may try, for how
 * long). `kinds`: what a family's heading lists of its findings.
 */
export async function catalogue<C extends { readonly steps: readonly unknown[] }, F>(
  cases: Cases<C, F>,
  seed: number,
  shrinking: { readonly numRuns: number; readonly ms?: number },
  kinds?: (f: F) => string,
): Promise<string> {
  const found = new Map<string, { n: number; kinds: Set<string> }>()
  for (const c of fc.sample(cases.arb, { numRuns: cases.numRuns, seed }))
    for (const f of await cases.run(c, false)) {
      const entry = found.get(cases.family(f)) ?? { n: 0, kinds: new Set<string>() }
      entry.n++
      if (kinds) entry.kinds.add(kinds(f))
      found.set(cases.family(f), entry)
    }
  const out: string[] = []
  for (const [fam, { n, kinds: some }] of [...found].sort((a, b) => b[1].n - a[1].n)) {
    const listed = some.size > 0 ? `; ${[...some].slice(0, 6).join(' | ')}` : ''
    out.push(
      `### ${fam} (${n} findings${listed})\n${(await smallest(cases, fam, seed, shrinking)) ?? '(not found again)'}`,
    )
  }
  return out.join('\n\n')
}

/** The smallest case fast-check finds (the cases of `seed`) whose run shows a finding of `fam`. */
async function smallest<C extends { readonly steps: readonly unknown[] }, F>(
  cases: Cases<C, F>,
  fam: string,
  seed: number,
  shrinking: { readonly numRuns: number; readonly ms?: number },
): Promise<string | undefined> {
  let last: { c: C; f: F } | undefined
  const result = await fc.check(
    fc.asyncProperty(cases.arb, async (c) => {
      const f = (await cases.run(c, false)).find((x) => cases.family(x) === fam)
      if (f) last = { c, f }
      return f === undefined
    }),
    {
      seed,
      numRuns: shrinking.numRuns,
      ...(shrinking.ms ? { interruptAfterTimeLimit: shrinking.ms } : {}),
    },
  )
  if (!result.failed || !result.counterexample) return undefined
  const c = result.counterexample[0]!
  const f = (await cases.run(c, false)).find((x) => cases.family(x) === fam) ?? last?.f
  return f && cases.describe(c, f)
}
