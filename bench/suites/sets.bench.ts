/**
 * @module Entity sets (issue 10): making a set of 100k members, and AND / OR / EXCEPT of two
 * 100k-member sets, through the core's selections, each against the same operation on plain JS
 * `Set`s of the same ids in the same run. Goal: ≤ 1.5× the `Set`s.
 *
 * Data: a dataclass of `2 × size` rows (`id` 1…2n, `n` a long); set A holds the rows 1…n, set B the
 * rows n/2+1…3n/2 (half of each in common), each in a random order (seeded), as sets made from
 * ordered reads are. The plain side holds the same ids, in the same orders, in two `Set`s.
 * - make: `new Set(ids)` against `selection.keep()` (the selection's row ids are immutable and kept
 *   as they are: no copy);
 * - AND / EXCEPT: a loop over A's `Set` asking B's `has`, into a new `Set`; OR: a copy of A's `Set`
 *   and B's members added. The engine reads both kept sets from the cache (`ds.entitySets.get`,
 *   which renews them, as a REST request does) and combines their selections
 *   (`a.and(b)`, `a.or(b)`, `a.minus(b)`): a new selection in A's order (then B's, for OR).
 */
import type { DataClass, ModelJson } from '@entistore/core'
import { loadedDatastore, type Core } from '../engine.ts'
import { timeOnce } from '../timing.ts'
import type { Group } from './query.bench.ts'

const TARGET = { max: 1.5, label: '≤1.5× JS Set' }

/** The operations, for `--only`. */
export const SETS_OPS = ['sets-keep', 'sets-and', 'sets-or', 'sets-except']

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'id', type: 'long' },
        { name: 'n', type: 'long' },
      ],
      key: [{ name: 'id' }],
    },
  ],
}

/** 1…n shuffled by a seeded Fisher–Yates. */
function shuffled(from: number, count: number, seed: number): number[] {
  const xs = Array.from({ length: count }, (_, i) => from + i)
  let s = seed
  for (let i = xs.length - 1; i > 0; i--) {
    s = (s * 48271) % 2147483647
    const j = s % (i + 1)
    const t = xs[i]!
    xs[i] = xs[j]!
    xs[j] = t
  }
  return xs
}

export interface SetsFixture {
  readonly groups: Group[]
  /** Time to build the datastore (not a measure: said once). */
  readonly loadMs: number
}

/** The groups for sets of `size` members, over a dataclass of `2 × size` rows. */
export function setsGroups(core: Core, size: number): SetsFixture {
  const rows = Array.from({ length: 2 * size }, (_, i) => ({ id: i + 1, n: (i * 7919) % size }))
  const load = timeOnce(() => loadedDatastore(core, MODEL, { data: { Item: rows } }))
  const ds = load.value
  const dc: DataClass = ds.dataClass('Item')

  const idsA = shuffled(1, size, 42)
  const idsB = shuffled(Math.floor(size / 2) + 1, size, 4242)
  // The engine's selections of those ids in those orders: what an ordered read would give.
  const rowOf = new Map(
    dc
      .all()
      .toArray()
      .map((e) => [e.key as number, e.rowId]),
  )
  const selA = dc.select(idsA.map((k) => rowOf.get(k)!))
  const selB = dc.select(idsB.map((k) => rowOf.get(k)!))
  const idA = selA.keep().id
  const idB = selB.keep().id
  const keptA = () => ds.entitySets.get(idA)!.selection
  const keptB = () => ds.entitySets.get(idB)!.selection

  const setA = new Set(idsA)
  const setB = new Set(idsB)

  const andSets = (a: Set<number>, b: Set<number>): Set<number> => {
    const out = new Set<number>()
    for (const x of a) if (b.has(x)) out.add(x)
    return out
  }
  const orSets = (a: Set<number>, b: Set<number>): Set<number> => {
    const out = new Set(a)
    for (const x of b) out.add(x)
    return out
  }
  const exceptSets = (a: Set<number>, b: Set<number>): Set<number> => {
    const out = new Set<number>()
    for (const x of a) if (!b.has(x)) out.add(x)
    return out
  }

  const n = size.toLocaleString('en-US')
  // The make group runs last: its keeps fill the cache until the least recently used sets (A and
  // B among them) are evicted.
  const groups: Group[] = [
    {
      id: 'sets-and',
      title: `AND of two ${n}-member sets (half in common)`,
      target: TARGET,
      notes: [
        'baseline: a loop over Set A asking Set B, into a new Set',
        'engine: both sets read from the cache (get renews them), then a.and(b): a new selection in A’s order',
        'check: members of the result',
      ],
      cases: [
        { kind: 'baseline', impl: 'JS Set loop + has', run: () => andSets(setA, setB).size },
        {
          kind: 'entistore',
          impl: 'entistore get(A).selection.and(get(B).selection)',
          targeted: true,
          run: () => keptA().and(keptB()).length,
        },
      ],
    },
    {
      id: 'sets-or',
      title: `OR of two ${n}-member sets (half in common)`,
      target: TARGET,
      notes: [
        'baseline: new Set(A), then every member of B added',
        'engine: a.or(b): A’s members in order, then B’s not in A, in B’s order',
        'check: members of the result',
      ],
      cases: [
        { kind: 'baseline', impl: 'new Set(A) + add(B)', run: () => orSets(setA, setB).size },
        {
          kind: 'entistore',
          impl: 'entistore get(A).selection.or(get(B).selection)',
          targeted: true,
          run: () => keptA().or(keptB()).length,
        },
      ],
    },
    {
      id: 'sets-except',
      title: `EXCEPT of two ${n}-member sets (half in common)`,
      target: TARGET,
      notes: [
        'baseline: a loop over Set A asking Set B, into a new Set',
        'engine: a.minus(b): a new selection in A’s order',
        'check: members of the result',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'JS Set loop + !has',
          run: () => exceptSets(setA, setB).size,
        },
        {
          kind: 'entistore',
          impl: 'entistore get(A).selection.minus(get(B).selection)',
          targeted: true,
          run: () => keptA().minus(keptB()).length,
        },
      ],
    },
    {
      id: 'sets-keep',
      title: `make a set of ${n} members`,
      target: TARGET,
      notes: [
        'baseline: new Set(ids) from an array of 100k ids in random order',
        'engine: selection.keep() with the default limits (sets past 20M members are evicted, least recently used first)',
        'check: members',
      ],
      cases: [
        { kind: 'baseline', impl: 'new Set(ids)', run: () => new Set(idsA).size },
        {
          kind: 'entistore',
          impl: 'entistore selection.keep()',
          targeted: true,
          run: () => selA.keep().selection.length,
        },
        {
          kind: 'entistore',
          impl: 'entistore selection.keep(), then release',
          run: () => {
            const set = selA.keep()
            ds.entitySets.release(set.id)
            return set.selection.length
          },
        },
      ],
    },
  ]
  return { groups, loadMs: load.ms }
}
