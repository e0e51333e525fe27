/**
 * Property tests of the entity-set algebra against a model on plain arrays and a JS `Set`: each
 * operation gives exactly the model's list (so the first operand's order is kept, and OR appends the
 * second operand's new members in its order), and the laws hold: AND and OR commute as sets and
 * associate, the empty set is an identity for OR and for EXCEPT's right side and a zero for AND,
 * `(A EXCEPT B) AND B` is empty, INTERSECT is true exactly when AND is non-empty.
 *
 * Operands are distinct row ids in random order, of sizes on both sides of 64 (below 64 the other
 * operand is looked up through a Set, from 64 on through a bitmap over row ids), drawn from a
 * dense domain (many common members) or a sparse one (large row ids, a large bitmap). Inputs are
 * frozen: an operation that wrote to an operand would throw.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { and, except, intersects, or } from './set-algebra.js'

/** Where the membership helper switches from a Set to a bitmap (see set-algebra.ts). */
const BITMAP_FROM = 64

/** Sizes on either side of the switch, sized so that both sides come up often. */
const sizeArb = fc.oneof(
  fc.integer({ min: 0, max: 8 }),
  fc.integer({ min: BITMAP_FROM - 3, max: BITMAP_FROM + 3 }),
  fc.integer({ min: 0, max: 160 }),
)

/** Distinct row ids in random order, frozen, from a domain of `domain` row ids. */
const rowsOf = (domain: number) =>
  sizeArb.chain((n) =>
    fc
      .uniqueArray(fc.nat({ max: domain - 1 }), {
        minLength: Math.min(n, domain),
        maxLength: Math.min(n, domain),
      })
      .map((xs) => Object.freeze(xs) as readonly number[]),
  )

/** Three operands over one domain: dense (0–199, many common members) or sparse (to 2^20). */
const operands = fc
  .constantFrom(200, 1 << 20)
  .chain((domain) => fc.tuple(rowsOf(domain), rowsOf(domain), rowsOf(domain)))

// ---- the model

const andM = (a: readonly number[], b: readonly number[]): number[] => {
  const inB = new Set(b)
  return a.filter((x) => inB.has(x))
}
const orM = (a: readonly number[], b: readonly number[]): number[] => {
  const inA = new Set(a)
  return [...a, ...b.filter((x) => !inA.has(x))]
}
const exceptM = (a: readonly number[], b: readonly number[]): number[] => {
  const inB = new Set(b)
  return a.filter((x) => !inB.has(x))
}
/** The members as a set, to compare results whose order may differ. */
const asSet = (xs: readonly number[]): number[] => [...xs].sort((x, y) => x - y)
const distinct = (xs: readonly number[]): boolean => new Set(xs).size === xs.length

const RUNS = { numRuns: 300 }

describe('set algebra against a JS Set model', () => {
  it('AND, OR, EXCEPT give exactly the model’s list: order of the first operand, then the second’s', () => {
    fc.assert(
      fc.property(operands, ([a, b]) => {
        expect(and(a, b)).toEqual(andM(a, b))
        expect(or(a, b)).toEqual(orM(a, b))
        expect(except(a, b)).toEqual(exceptM(a, b))
        // OR: the first operand unchanged as the prefix, the second's new members after it.
        expect(or(a, b).slice(0, a.length)).toEqual(a)
        for (const r of [and(a, b), or(a, b), except(a, b)]) expect(distinct(r)).toBe(true)
      }),
      RUNS,
    )
  })

  it('AND and OR commute (same members) and associate (same list)', () => {
    fc.assert(
      fc.property(operands, ([a, b, c]) => {
        expect(asSet(and(a, b))).toEqual(asSet(and(b, a)))
        expect(asSet(or(a, b))).toEqual(asSet(or(b, a)))
        // Both groupings keep a's order, then b's, then c's: the lists are equal, not only the sets.
        expect(and(and(a, b), c)).toEqual(and(a, and(b, c)))
        expect(or(or(a, b), c)).toEqual(or(a, or(b, c)))
      }),
      RUNS,
    )
  })

  it('the empty set: identity for OR (both sides) and EXCEPT (right side), zero for AND', () => {
    const empty: readonly number[] = Object.freeze([])
    fc.assert(
      fc.property(operands, ([a]) => {
        expect(or(a, empty)).toEqual(a)
        expect(or(empty, a)).toEqual(a)
        expect(except(a, empty)).toEqual(a)
        expect(except(empty, a)).toEqual([])
        expect(and(a, empty)).toEqual([])
        expect(and(empty, a)).toEqual([])
        expect(intersects(a, empty)).toBe(false)
        // A new list every time: a kept set holds its array without copying it.
        expect(or(a, empty)).not.toBe(a)
        expect(except(a, empty)).not.toBe(a)
      }),
      RUNS,
    )
  })

  it('(A EXCEPT B) AND B is empty; A AND B and A EXCEPT B split A in its order', () => {
    fc.assert(
      fc.property(operands, ([a, b, c]) => {
        expect(and(except(a, b), b)).toEqual([])
        const inB = new Set(b)
        const merged: number[] = []
        const [both, only] = [and(a, b), except(a, b)]
        let i = 0
        let j = 0
        for (const x of a) merged.push(inB.has(x) ? both[i++]! : only[j++]!)
        expect(merged).toEqual(a)
        expect(i + j).toBe(a.length)
        // A EXCEPT (B OR C) = (A EXCEPT B) EXCEPT C
        expect(except(a, or(b, c))).toEqual(except(except(a, b), c))
      }),
      RUNS,
    )
  })

  it('INTERSECT is true exactly when AND is non-empty, either way round', () => {
    fc.assert(
      fc.property(operands, ([a, b]) => {
        expect(intersects(a, b)).toBe(and(a, b).length > 0)
        expect(intersects(b, a)).toBe(intersects(a, b))
      }),
      RUNS,
    )
  })

  it('operands on both sides of the Set / bitmap switch come up', () => {
    const seen = { small: 0, large: 0, mixed: 0 }
    fc.assert(
      fc.property(operands, ([a, b]) => {
        const [sa, sb] = [a.length < BITMAP_FROM, b.length < BITMAP_FROM]
        if (sa && sb) seen.small++
        else if (!sa && !sb) seen.large++
        else seen.mixed++
        expect(and(a, b)).toEqual(andM(a, b))
      }),
      // A fixed seed: this counts what the generator gives, which a random run may give less of
      // (one run in a few hundred saw 20 mixed pairs or fewer).
      { ...RUNS, seed: 46 },
    )
    expect(seen.small).toBeGreaterThan(20)
    expect(seen.large).toBeGreaterThan(20)
    expect(seen.mixed).toBeGreaterThan(20)
  })

  it('a bitmap operand’s largest row id and the ids just past it', () => {
    // 64 members (bitmap side) whose largest is `max`: ids max and max ± 1 from the other operand.
    const big = Object.freeze(Array.from({ length: BITMAP_FROM }, (_, i) => i * 1000))
    const max = big[big.length - 1]!
    expect(and([max + 1, max, max - 1, 0], big)).toEqual([max, 0])
    expect(except([max + 1, max, 1], big)).toEqual([max + 1, 1])
    expect(or([max + 1], big)).toEqual([max + 1, ...big])
    expect(intersects([max + 1, max - 1], big)).toBe(false)
    expect(intersects([max], big)).toBe(true)
  })
})

describe('negative row ids (members deleted here of a set another process made)', () => {
  it('are members like any other, whatever the size of the operands', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -50, max: 200 }), { maxLength: 150 }),
        fc.uniqueArray(fc.integer({ min: -50, max: 200 }), { maxLength: 150 }),
        (a, b) => {
          const inB = new Set(b)
          expect(and(a, b)).toEqual(a.filter((r) => inB.has(r)))
          expect(except(a, b)).toEqual(a.filter((r) => !inB.has(r)))
          expect(intersects(a, b)).toBe(a.some((r) => inB.has(r)))
        },
      ),
    )
  })
})
