/**
 * @module Folded text scans (issue 7): `begin`, `@…@` (contains) and `IN` lists of contains
 * patterns on a text attribute of ≈250 characters with no index, against a hand-written loop over
 * the same texts folded once beforehand.
 *
 * The baseline is the best a programmer can do for these semantics without an index: fold every
 * stored text once (outside the clock; with the engine's own `fold`, so both find the same rows),
 * then per query one pass of `startsWith` / `indexOf` per pattern, stopping at a row's first
 * matching pattern. The goal, "within 2× of that loop whatever the number of patterns up to 100",
 * asks the engine to fold each stored value once too, not once per pattern per query.
 *
 * `text-in10-one` (issue 19) compares the engine with itself: an IN of 10 contains patterns against
 * one pattern (the mean of the 10, each queried alone), held to ≤ 3×: one pass over each text for
 * all the patterns of the list, not one pass per pattern.
 */
import type { DataClass } from '@entistore/core'
import { loadedDatastore, type Core } from '../engine.ts'
import { prng } from '../data.ts'
import { makeBodies, TEXT_MODEL, vocabulary } from '../items.ts'
import { timeOnce } from '../timing.ts'
import type { Group } from './query.bench.ts'

const TARGET = { max: 2, label: '≤2× hand loop' }
const ONE_PASS = { max: 3, label: '≤3× one pattern' }

/** `count` distinct vocabulary words as `@word@` patterns, from `seed`; some carry accents. */
function patterns(count: number, seed: number): string[] {
  const words = vocabulary()
  const r = prng(seed)
  const out = new Set<string>()
  while (out.size < count) out.add(`@${words[Math.floor(r() * words.length)]!}@`)
  return [...out]
}

/** The literal parts of `@word@` patterns, folded as the engine folds them. */
const needles = (core: Core, pats: readonly string[]): string[] =>
  pats.map((p) => core.fold(p.slice(1, -1)))

export interface TextFixture {
  readonly groups: Group[]
  /** Time to build the datastore of `n` rows (not a measure: said once). */
  readonly loadMs: number
}

/** The text-scan groups at `n` rows. */
export function textGroups(core: Core, n: number): TextFixture {
  const rows = makeBodies(n)
  const load = timeOnce(() => loadedDatastore(core, TEXT_MODEL, { data: { Item: rows } }))
  const dc: DataClass = load.value.dataClass('Item')
  // Folded once, before any clock: the hand loop's whole advantage, which the goal allows.
  const folded = rows.map((r) => core.fold(r.body))

  const contains = patterns(4, 21)
  const lists = new Map([10, 100].map((k) => [k, patterns(k, 100 + k)]))
  const anyOf = (needle: readonly string[]): number => {
    let hits = 0
    for (const s of folded)
      for (const x of needle)
        if (s.indexOf(x) >= 0) {
          hits++
          break
        }
    return hits
  }

  const groups: Group[] = [
    {
      id: 'text-begin',
      title: "folded begin  body begin 'ap'  (no index, ≈250-character texts)",
      target: TARGET,
      plan: () => dc.run("body begin 'ap'").explain(),
      notes: ['baseline: folded[i].startsWith(fold(prefix)) over the pre-folded texts'],
      cases: [
        {
          kind: 'baseline',
          impl: 'hand loop, pre-folded, startsWith',
          run: () => {
            const pre = core.fold('ap')
            let hits = 0
            for (const s of folded) if (s.startsWith(pre)) hits++
            return hits
          },
        },
        {
          kind: 'entistore',
          impl: `entistore dc.query("body begin 'ap'")`,
          targeted: true,
          run: () => dc.query("body begin 'ap'").length,
        },
      ],
    },
    {
      id: 'text-contains',
      title: `folded contains  body = :1, '@word@'  (${contains.length} patterns, one query each)`,
      target: TARGET,
      plan: () => dc.run('body = :1', { params: [contains[0]] }).explain(),
      notes: [
        `patterns: ${contains.join(' ')} (vocabulary words, found in ≈1 % of the texts each)`,
        'baseline: folded[i].indexOf(fold(word)) >= 0, one pass per pattern',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'hand loop, pre-folded, indexOf',
          opsPerCall: contains.length,
          run: () => needles(core, contains).reduce((sum, x) => sum + anyOf([x]), 0),
        },
        {
          kind: 'entistore',
          impl: "entistore dc.query('body = :1')",
          targeted: true,
          opsPerCall: contains.length,
          run: () => contains.reduce((sum, p) => sum + dc.query('body = :1', p).length, 0),
        },
      ],
    },
    ...[...lists].map(([k, pats]): Group => ({
      id: `text-in${k}`,
      title: `folded IN  body in :1, ${k} '@word@' patterns  (rows matching any)`,
      target: TARGET,
      plan: () => dc.run('body in :1', { params: [pats] }).explain(),
      notes: [
        `baseline: per row, indexOf of each folded pattern until one is found (${k} at most)`,
      ],
      cases: [
        {
          kind: 'baseline',
          impl: `hand loop, pre-folded, ${k} × indexOf`,
          run: () => anyOf(needles(core, pats)),
        },
        {
          kind: 'entistore',
          impl: "entistore dc.query('body in :1')",
          targeted: true,
          run: () => dc.query('body in :1', pats).length,
        },
      ],
    })),
  ]
  // Issue 19: an IN of 10 patterns against one pattern, both through the engine. A scan that
  // matches every pattern of the list in one pass over each text costs about one pattern's scan.
  const ten = lists.get(10)!
  groups.push({
    id: 'text-in10-one',
    title: "IN of 10 patterns against one  body in :1 (10 '@word@') vs body = :1 (one of them)",
    target: ONE_PASS,
    plan: () => dc.run('body in :1', { params: [ten] }).explain(),
    notes: [
      'baseline: the engine on each of the 10 patterns alone, one query each; its time is their ' +
        'mean (one pattern), its check their hits summed',
      'goal: the 10-pattern IN within 3× of one pattern, i.e. one pass over each text ' +
        'for all patterns rather than one pass per pattern',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: "entistore dc.query('body = :1'), one pattern (mean of the 10)",
        extrapolate: 1 / ten.length,
        run: () => ten.reduce((sum, p) => sum + dc.query('body = :1', p).length, 0),
      },
      {
        kind: 'entistore',
        impl: "entistore dc.query('body in :1'), 10 patterns",
        targeted: true,
        expectCheck: anyOf(needles(core, ten)),
        run: () => dc.query('body in :1', ten).length,
      },
    ],
  })
  return { groups, loadMs: load.ms }
}
