/**
 * Seeded data for the benchmarks: `n` people `{ id, name, age, city, salary, companyId }`, the shape
 * of the peer study (shared/research/peers.md §4.2). Same seed, same rows, on every run.
 *
 * - `id`: 1…n (primary key); `name`: `name<i>`, unique; `city`: one of 20; `age`: 18–69;
 *   `salary`: 20000–199999; `companyId`: 1–1000.
 * - Indexed in the engine: `name` (unique + indexed: hash and sorted), `salary` (sorted and hash),
 *   `companyId` (hash). `age` and `city` are not indexed: the two-condition query is a real scan.
 */
import type { ModelJson } from '@entistore/core'

export interface Person {
  id: number
  name: string
  age: number
  city: string
  salary: number
  companyId: number
}

export const CITIES = [
  'Paris',
  'Lyon',
  'Marseille',
  'Nice',
  'Lille',
  'Nantes',
  'Bordeaux',
  'Toulouse',
  'Berlin',
  'Madrid',
  'Rome',
  'London',
  'Dublin',
  'Oslo',
  'Vienna',
  'Prague',
  'Lisbon',
  'Zurich',
  'Brussels',
  'Warsaw',
] as const

/** mulberry32: a tiny, fast, seeded PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `n` rows from seed 42. */
export function makePeople(n: number, seed = 42): Person[] {
  const r = prng(seed)
  const out = new Array<Person>(n)
  for (let i = 0; i < n; i++) {
    out[i] = {
      id: i + 1,
      name: 'name' + i,
      age: 18 + Math.floor(r() * 52),
      city: CITIES[Math.floor(r() * CITIES.length)]!,
      salary: 20000 + Math.floor(r() * 180000),
      companyId: 1 + Math.floor(r() * 1000),
    }
  }
  return out
}

/**
 * `count` lookup keys among the `n` names, random but seeded. Each is a fresh string (built by
 * concatenation at call time), so no engine can win by string identity or a cached hash.
 */
export function lookupKeys(n: number, count: number, seed = 7): string[] {
  const r = prng(seed)
  const keys = new Array<string>(count)
  for (let i = 0; i < count; i++) keys[i] = 'name' + String(Math.floor(r() * n))
  return keys
}

/** The model in the catalog shape. */
export const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'id', type: 'long' },
        { name: 'name', type: 'string', unique: true, indexed: true },
        { name: 'age', type: 'long' },
        { name: 'city', type: 'string' },
        { name: 'salary', type: 'long', indexed: true },
        { name: 'companyId', type: 'long', indexed: true, indexKind: 'hash' },
      ],
      key: [{ name: 'id' }],
    },
  ],
}
