/**
 * Peer libraries on the same operations, in the same run and against the same plain baseline:
 *
 * - LokiJS 1.5.12: a unique index on `name`, binary indexes on `salary` and `companyId`, built once
 *   after the bulk insert (`adaptiveBinaryIndices: false` + `ensureAllIndexes(true)`, the fastest
 *   load of the peer study); documents are inserted as they are (LokiJS adds `$loki` and `meta`).
 * - mingo 7.2.7: MongoDB query language over a plain array; no store and no index, so each lookup is
 *   a scan: it runs a subset of the calls and the time is extrapolated (said in the table).
 *
 * Both compare strings exactly (case-sensitive): on this all-ASCII data with exact-case query values
 * they find the same rows, but they do less work than a folding engine.
 */
import Loki from 'lokijs'
import { find, Query } from 'mingo'
import type { Person } from '../data.ts'
import type { Case } from '../timing.ts'
import { foldPlain, freshKeys, LOOKUPS, type Group, type Params } from './query.bench.ts'

export type LokiPeople = ReturnType<typeof newLokiCollection>

function newLokiCollection(uniqueId = false) {
  const db = new Loki('bench.db')
  return db.addCollection<Person>('people', {
    // The public benchmark updates by key, which wants the key unique-indexed as well.
    unique: uniqueId ? ['name', 'id'] : ['name'],
    indices: ['salary', 'companyId'],
    adaptiveBinaryIndices: false,
  })
}

/** A LokiJS collection holding `docs` (which it keeps and annotates) with its indexes built. */
export function buildLoki(docs: Person[], uniqueId = false): LokiPeople {
  const coll = newLokiCollection(uniqueId)
  coll.insert(docs)
  coll.ensureAllIndexes(true)
  return coll
}

const MINGO_LOOKUPS = 20

/** Adds the peers' cases to the groups of one size. */
export function addPeerCases(groups: Group[], p: Params, loki: LokiPeople, rows: Person[]): void {
  const add = (id: string, ...cases: Case[]): void => {
    groups.find((g) => g.id === id)?.cases.push(...cases)
  }
  let keys: string[] = []
  const prepareKeys = (): void => {
    keys = freshKeys(p)
  }
  let mingoKeys: string[] = []
  const prepareMingoKeys = (): void => {
    mingoKeys = freshKeys(p).slice(0, MINGO_LOOKUPS)
  }
  const exactCase = 'case-sensitive'

  add(
    'eq',
    {
      kind: 'peer',
      impl: "lokijs coll.by('name', k)",
      note: `unique index; ${exactCase}`,
      opsPerCall: LOOKUPS,
      prepare: prepareKeys,
      run: () => {
        let hits = 0
        for (const k of keys) if (loki.by('name', k) !== undefined) hits++
        return hits
      },
    },
    {
      kind: 'peer',
      impl: 'mingo find({name}).next()',
      note: `scan per lookup: ${MINGO_LOOKUPS} lookups ×${LOOKUPS / MINGO_LOOKUPS}`,
      opsPerCall: LOOKUPS,
      extrapolate: LOOKUPS / MINGO_LOOKUPS,
      expectCheck: MINGO_LOOKUPS,
      prepare: prepareMingoKeys,
      run: () => {
        let hits = 0
        for (const k of mingoKeys) if (find(rows, { name: k }).next() !== undefined) hits++
        return hits
      },
    },
  )

  // IN, ranges, begin: mingo scans for each value, so it runs a subset, extrapolated.
  const subset = <T>(all: readonly T[], count: number): T[] => all.slice(0, count)
  const inSub = subset(p.inLists, 4)
  const countIn = (lists: number[][]): number =>
    lists.reduce((s, l) => s + rows.filter((r) => l.includes(r.companyId)).length, 0)
  add(
    'in',
    {
      kind: 'peer',
      impl: 'lokijs find({$in})',
      note: 'binary index',
      opsPerCall: p.inLists.length,
      run: () => p.inLists.reduce((s, l) => s + loki.find({ companyId: { $in: l } }).length, 0),
    },
    {
      kind: 'peer',
      impl: 'mingo find({$in})',
      note: `scan: ${inSub.length} of ${p.inLists.length} lists, extrapolated`,
      opsPerCall: p.inLists.length,
      extrapolate: p.inLists.length / inSub.length,
      expectCheck: countIn(inSub),
      run: () => inSub.reduce((s, l) => s + find(rows, { companyId: { $in: l } }).all().length, 0),
    },
  )

  const gtSub = subset(p.gt, 2)
  add(
    'range',
    {
      kind: 'peer',
      impl: 'lokijs find({$gt})',
      note: 'binary index',
      opsPerCall: p.gt.length,
      run: () => p.gt.reduce((s, x) => s + loki.find({ salary: { $gt: x } }).length, 0),
    },
    {
      kind: 'peer',
      impl: 'mingo find({$gt})',
      note: `scan: ${gtSub.length} of ${p.gt.length} bounds, extrapolated`,
      opsPerCall: p.gt.length,
      extrapolate: p.gt.length / gtSub.length,
      expectCheck: gtSub.reduce((s, x) => s + rows.filter((r) => r.salary > x).length, 0),
      run: () => gtSub.reduce((s, x) => s + find(rows, { salary: { $gt: x } }).all().length, 0),
    },
  )

  const winSub = subset(p.windows, 1)
  add(
    'between',
    {
      kind: 'peer',
      impl: 'lokijs find({$between})',
      note: 'binary index; [lo, hi - 1] (integer salaries)',
      opsPerCall: p.windows.length,
      run: () =>
        p.windows.reduce(
          (s, [lo, hi]) => s + loki.find({ salary: { $between: [lo, hi - 1] } }).length,
          0,
        ),
    },
    {
      kind: 'peer',
      impl: 'mingo find({$gte, $lt})',
      note: `scan: ${winSub.length} of ${p.windows.length} windows, extrapolated`,
      opsPerCall: p.windows.length,
      extrapolate: p.windows.length / winSub.length,
      expectCheck: winSub.reduce(
        (s, [lo, hi]) => s + rows.filter((r) => r.salary >= lo && r.salary < hi).length,
        0,
      ),
      run: () =>
        winSub.reduce(
          (s, [lo, hi]) => s + find(rows, { salary: { $gte: lo, $lt: hi } }).all().length,
          0,
        ),
    },
  )

  const preSub = subset(p.prefixes, 2)
  const startsRe = (x: string): RegExp => new RegExp('^' + x)
  add(
    'begin',
    {
      kind: 'peer',
      impl: 'lokijs find({$regex: /^…/})',
      note: `scan (no index for $regex); ${exactCase}`,
      opsPerCall: p.prefixes.length,
      run: () =>
        p.prefixes.reduce((s, x) => s + loki.find({ name: { $regex: startsRe(x) } }).length, 0),
    },
    {
      kind: 'peer',
      impl: 'mingo find({$regex: /^…/})',
      note: `scan: ${preSub.length} of ${p.prefixes.length} prefixes, extrapolated; ${exactCase}`,
      opsPerCall: p.prefixes.length,
      extrapolate: p.prefixes.length / preSub.length,
      expectCheck: preSub.reduce(
        (s, x) => s + rows.filter((r) => foldPlain(r.name).startsWith(foldPlain(x))).length,
        0,
      ),
      run: () =>
        preSub.reduce((s, x) => s + find(rows, { name: { $regex: startsRe(x) } }).all().length, 0),
    },
  )

  const scanQuery = new Query({ age: { $gt: 30 }, city: p.city })
  add(
    'scan',
    {
      kind: 'peer',
      impl: 'lokijs find({age: {$gt}, city})',
      note: exactCase,
      run: () => loki.find({ age: { $gt: 30 }, city: p.city }).length,
    },
    {
      kind: 'peer',
      impl: 'mingo Query.find (compiled once)',
      note: exactCase,
      run: () => scanQuery.find(rows).all().length,
    },
  )

  const sumIds = (xs: readonly Person[]): number => xs.reduce((s, r) => s + r.id, 0)
  add(
    'top',
    {
      kind: 'peer',
      impl: 'lokijs simplesort(desc).limit(100)',
      note: 'copies the binary index, reverses it: ties in reverse id order',
      run: () => sumIds(loki.chain().simplesort('salary', { desc: true }).limit(100).data()),
    },
    {
      kind: 'peer',
      impl: 'mingo sort({salary:-1}).limit(100)',
      run: () => sumIds(find<Person>(rows, {}).sort({ salary: -1 }).limit(100).all()),
    },
  )
  add(
    'top-noindex',
    {
      kind: 'peer',
      impl: 'lokijs simplesort(desc).limit(100)',
      note: 'full sort',
      run: () => sumIds(loki.chain().simplesort('age', { desc: true }).limit(100).data()),
    },
    {
      kind: 'peer',
      impl: 'mingo sort({age:-1}).limit(100)',
      run: () => sumIds(find<Person>(rows, {}).sort({ age: -1 }).limit(100).all()),
    },
  )
}
