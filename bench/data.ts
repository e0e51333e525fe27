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

/**
 * The texts of the rows: `ascii`, the peer study's (`name<i>`, the cities above), or `accented`,
 * French, German and Spanish names and cities (`Zoé Müller 123`, `München`), where a comparison
 * that folds case and accents does more than one that compares code units.
 */
export type TextShape = 'ascii' | 'accented'

const FIRST = [
  'Zoé',
  'Léa',
  'Chloé',
  'Inès',
  'Jérôme',
  'Hélène',
  'Björn',
  'Jürgen',
  'Günther',
  'Søren',
]
const FIRST_MORE = [
  'José',
  'Iñaki',
  'Begoña',
  'Ramón',
  'Agustín',
  'Noël',
  'Anaïs',
  'Maëlle',
  'Frédéric',
  'Céline',
]
const LAST = [
  'Müller',
  'Schäfer',
  'Größ',
  'Jäger',
  'Köhler',
  'Lefèvre',
  'Gauthier',
  'Barré',
  'Dupré',
  'Bézier',
]
const LAST_MORE = [
  'Muñoz',
  'Peña',
  'Ibáñez',
  'Gómez',
  'Martínez',
  'Núñez',
  'Sáez',
  'Ordóñez',
  'Jiménez',
  'Fernández',
]
const FIRSTS = [...FIRST, ...FIRST_MORE]
const LASTS = [...LAST, ...LAST_MORE]

/** 20 cities with accents, none folding to another: the accented shape's `city`. */
export const ACCENTED_CITIES = [
  'München',
  'Zürich',
  'Málaga',
  'Besançon',
  'Kraków',
  'Genève',
  'Córdoba',
  'Nîmes',
  'Göteborg',
  'Orléans',
  'Düsseldorf',
  'Cádiz',
  'Köln',
  'Liège',
  'Logroño',
  'Malmö',
  'Alcalá',
  'Lübeck',
  'Besançon-Gare',
  'Saint-Étienne',
] as const

/** The first and last names of row number `i` of the accented shape (400 pairs). */
export const accentedPrefix = (i: number): string =>
  `${FIRSTS[i % FIRSTS.length]!} ${LASTS[Math.floor(i / FIRSTS.length) % LASTS.length]!}`

/** The unique name of row number `i` (0-based) in `shape`. */
export const nameOf = (i: number, shape: TextShape = 'ascii'): string =>
  shape === 'ascii' ? 'name' + i : `${accentedPrefix(i)} ${i}`

/** `n` rows from seed 42, with the texts of `shape`. */
export function makePeople(n: number, seed = 42, shape: TextShape = 'ascii'): Person[] {
  const r = prng(seed)
  const cities: readonly string[] = shape === 'ascii' ? CITIES : ACCENTED_CITIES
  const out = new Array<Person>(n)
  for (let i = 0; i < n; i++) {
    out[i] = {
      id: i + 1,
      name: nameOf(i, shape),
      age: 18 + Math.floor(r() * 52),
      city: cities[Math.floor(r() * cities.length)]!,
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
