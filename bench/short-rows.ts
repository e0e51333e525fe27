/**
 * @module Issue 19's shape: short rows, five indexes, a relation. `Group` (200 rows) and `Person`
 * (n rows), generated from a seed and written as the model and data files a user hands to
 * `entistore serve`, like items.ts but with no long text: what the engine's own per-row cost is
 * measured on (200,000 rows: a 22.5 MB data file).
 *
 * - `Group`: `ID` (long key), `name`, `people` (relatedEntities, the inverse of `Person.group`).
 * - `Person`: `ID` (long key, autosequence, given in the file as an export would), `code` (unique
 *   text `C` + seven digits: a seeded permutation of 0…n−1, so codes are dense but not in row
 *   order), `name` (a first and a last name, ≈13 characters, not unique), `city` (one of 50),
 *   `age` (18–69), `salary` (20,000.00–199,999.99), `groupID` (the foreign key of `group`).
 * - Five declared indexes (`SHORT_INDEXED`): `code` (unique: hash + sorted), `name` and `city`
 *   (text: hash + sorted each), `age` (sorted), `groupID` (sorted, beside the hash index every
 *   foreign key has). `salary` is not indexed.
 */
import type { ModelJson } from '@entistore/core'
import { CITIES, prng } from './data.ts'
import { cachedFiles, GROUPS, makeGroups, type DataFiles, type GroupRow } from './items.ts'

export interface ShortRow {
  ID: number
  code: string
  name: string
  city: string
  age: number
  salary: number
  groupID: number
}

// Bump when the generated rows change, so that cached files of an older shape are not reused.
const VERSION = 2

/** The attributes with a declared index, in the order the memory breakdown adds them. */
export const SHORT_INDEXED = ['code', 'name', 'city', 'age', 'groupID'] as const

/**
 * The model with the declared indexes of `indexed` only (all five by default); `code` is unique
 * when it is indexed. The memory breakdown (memory.ts) loads every prefix of `SHORT_INDEXED`.
 */
export function shortModel(indexed: readonly string[] = SHORT_INDEXED): ModelJson {
  const ix = (name: string): { indexed?: true } => (indexed.includes(name) ? { indexed: true } : {})
  return {
    __NAME: 'bench-short-rows',
    dataClasses: [
      {
        name: 'Group',
        attributes: [
          { name: 'ID', kind: 'storage', type: 'long', autosequence: true },
          { name: 'name', kind: 'storage', type: 'string' },
          { name: 'people', kind: 'relatedEntities', reversePath: true, path: 'group' },
        ],
        key: [{ name: 'ID' }],
      },
      {
        name: 'Person',
        attributes: [
          { name: 'ID', kind: 'storage', type: 'long', autosequence: true },
          {
            name: 'code',
            kind: 'storage',
            type: 'string',
            ...(indexed.includes('code') ? { unique: true } : {}),
            ...ix('code'),
          },
          { name: 'name', kind: 'storage', type: 'string', ...ix('name') },
          { name: 'city', kind: 'storage', type: 'string', ...ix('city') },
          { name: 'age', kind: 'storage', type: 'long', ...ix('age') },
          { name: 'salary', kind: 'storage', type: 'number' },
          { name: 'groupID', kind: 'storage', type: 'long', ...ix('groupID') },
          { name: 'group', kind: 'relatedEntity', path: 'Group', foreignKey: 'groupID' },
        ],
        key: [{ name: 'ID' }],
      },
    ],
  }
}

export const SHORT_MODEL: ModelJson = shortModel()

// ---------------------------------------------------------------- values

const FIRST = [
  'Anna',
  'Louis',
  'Marie',
  'Paul',
  'Emma',
  'Jules',
  'Léa',
  'Hugo',
  'Chloé',
  'Lucas',
  'Inès',
  'Noah',
  'Sarah',
  'Adam',
  'Julie',
  'Tom',
  'Laura',
  'Léo',
  'Clara',
  'Théo',
  'Alice',
  'Nathan',
  'Zoé',
  'Ethan',
  'Lina',
  'Arthur',
  'Eva',
  'Gabriel',
  'Manon',
  'Raphaël',
  'Jade',
  'Victor',
  'Rose',
  'Oscar',
  'Mia',
  'Sacha',
  'Lou',
  'Martin',
  'Nina',
  'Simon',
]
const LAST = [
  'Martin',
  'Bernard',
  'Dubois',
  'Thomas',
  'Robert',
  'Richard',
  'Petit',
  'Durand',
  'Leroy',
  'Moreau',
  'Simon',
  'Laurent',
  'Lefèvre',
  'Michel',
  'Garcia',
  'David',
  'Bertrand',
  'Roux',
  'Vincent',
  'Fournier',
  'Morel',
  'Girard',
  'André',
  'Mercier',
  'Dupont',
  'Lambert',
  'Bonnet',
  'François',
  'Martinez',
  'Legrand',
  'Garnier',
  'Faure',
  'Rousseau',
  'Blanc',
  'Guérin',
  'Muller',
  'Henry',
  'Roussel',
  'Nicolas',
  'Perrin',
  'Morin',
  'Mathieu',
  'Clément',
  'Gauthier',
  'Dumont',
  'Lopez',
  'Fontaine',
  'Chevalier',
  'Robin',
  'Masson',
]
/** 50 cities: a low-cardinality text column (the query suite's 20, and 30 more). */
export const SHORT_CITIES: readonly string[] = [
  ...CITIES,
  'Rennes',
  'Reims',
  'Grenoble',
  'Dijon',
  'Angers',
  'Nîmes',
  'Brest',
  'Tours',
  'Limoges',
  'Amiens',
  'Metz',
  'Besançon',
  'Perpignan',
  'Orléans',
  'Rouen',
  'Caen',
  'Nancy',
  'Avignon',
  'Poitiers',
  'Pau',
  'Calais',
  'Cannes',
  'Genève',
  'Milano',
  'Porto',
  'Sevilla',
  'München',
  'Köln',
  'Kraków',
  'Malmö',
]

/** The code of the row whose permuted number is `x`: `C` + seven digits. */
export const codeOf = (x: number): string => 'C' + String(x).padStart(7, '0')

/** `n` Person rows from `seed`: row i has ID i + 1, a code of a seeded permutation, a group. */
export function makeShortRows(n: number, seed = 42): ShortRow[] {
  return [...shortRowChunks(n, seed, Math.max(n, 1))].flat()
}

/**
 * The rows of `makeShortRows(n, seed)`, the same ones in the same order, `chunk` at a time: the
 * scale suite writes ten million of them to a file without holding them all (the permutation of
 * the codes, 4 bytes a row, is made first).
 */
export function* shortRowChunks(n: number, seed = 42, chunk = 50_000): Generator<ShortRow[]> {
  const r = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  // Fisher–Yates: every code C0000000…C(n−1) once, in a seeded order.
  const perm = Int32Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    const t = perm[i]!
    perm[i] = perm[j]!
    perm[j] = t
  }
  for (let start = 0; start < n; start += chunk) {
    const out = new Array<ShortRow>(Math.min(chunk, n - start))
    for (let j = 0; j < out.length; j++) {
      const i = start + j
      out[j] = {
        ID: i + 1,
        code: codeOf(perm[i]!),
        name: `${pick(FIRST)} ${pick(LAST)}`,
        city: pick(SHORT_CITIES),
        age: 18 + Math.floor(r() * 52),
        salary: 20_000 + Math.floor(r() * 18_000_000) / 100,
        groupID: 1 + Math.floor(r() * GROUPS),
      }
    }
    yield out
  }
}

export type ShortData = { Group: GroupRow[]; Person: ShortRow[] }

export const makeShortData = (n: number): ShortData => ({
  Group: makeGroups(),
  Person: makeShortRows(n),
})

/** The model and data files for `n` Persons, written once per size and generator version. */
export const shortFiles = (n: number): DataFiles =>
  cachedFiles('short', VERSION, SHORT_MODEL, n, makeShortData)
