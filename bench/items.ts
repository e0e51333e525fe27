/**
 * @module The data of the HTTP and text-scan suites (issue 7): a two-dataclass model with a
 * relation, `Group` (200 rows) and `Item` (n rows), generated from a seed, and written as the model
 * and data JSON files a user hands to `entistore serve`.
 *
 * - `Group`: `ID` (long key), `name`, `items` (relatedEntities, the inverse of `Item.group`).
 * - `Item`: `ID` (long key, autosequence, given in the file as an export would), `name`, `groupID`
 *   (the foreign key of `group`, written directly as a number: the path issue 7 found quadratic),
 *   `price`, `qty`, `created`, and `body`: ≈250 characters of words from a seeded vocabulary, mixed
 *   case, some accented, so a folded scan has real folding to do. Five indexes: name, groupID,
 *   price, qty, created; `body` is not indexed (the text suite scans it).
 *
 * Same seed, same bytes on every run, so the files are cached by size and written once.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ModelJson } from '@entistore/core'
import { prng } from './data.ts'

export const GROUPS = 200

export interface GroupRow {
  ID: number
  name: string
}

export interface ItemRow {
  ID: number
  name: string
  groupID: number
  price: number
  qty: number
  created: string
  body: string
}

// Bump when the generated rows or the model change, so that cached files of an older shape are
// not reused.
const VERSION = 2

// An Item's attributes after its key, in model order.
const ITEM_VALUES = [
  { name: 'name', kind: 'storage', type: 'string', indexed: true },
  { name: 'groupID', kind: 'storage', type: 'long', indexed: true },
  { name: 'group', kind: 'relatedEntity', path: 'Group', foreignKey: 'groupID' },
  { name: 'price', kind: 'storage', type: 'number', indexed: true },
  { name: 'qty', kind: 'storage', type: 'long', indexed: true },
  { name: 'created', kind: 'storage', type: 'date', indexed: true },
  { name: 'body', kind: 'storage', type: 'string' },
] as const

export const ITEM_MODEL: ModelJson = {
  __NAME: 'bench-items',
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', kind: 'storage', type: 'long', autosequence: true },
        { name: 'name', kind: 'storage', type: 'string' },
        // Its type named: ImportedItem's `group` points to Group too.
        {
          name: 'items',
          kind: 'relatedEntities',
          type: 'ItemSelection',
          reversePath: true,
          path: 'group',
        },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', kind: 'storage', type: 'long', autosequence: true },
        ...ITEM_VALUES,
      ],
      key: [{ name: 'ID' }],
    },
    // Items keyed by a UUID, as imported data often is (issue 31: a create must not cost more
    // for its key's kind): the same attributes and indexes, no rows in the files.
    {
      name: 'ImportedItem',
      attributes: [{ name: 'ID', kind: 'storage', type: 'uuid' }, ...ITEM_VALUES],
      key: [{ name: 'ID' }],
    },
  ],
}

/** The text suite's model: the same `body` column alone, no relation to load. */
export const TEXT_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'body', type: 'string' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

// ---------------------------------------------------------------- the vocabulary

// Syllables. One vowel in eleven carries an accent (about one word in five has one, as in
// French text), so nearly every body holds some non-ASCII letters and folds by NFD.
const ONSETS = [
  '',
  'b',
  'c',
  'd',
  'f',
  'g',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'ch',
  'pr',
  'tr',
]
const VOWELS = [...'aeiou'.repeat(10), 'é', 'è', 'à', 'ô', 'ü']
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'p', 'ç']

/** `size` distinct lowercase words of 2–4 syllables, from `seed`. */
export function vocabulary(size = 4000, seed = 11): string[] {
  const r = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const words = new Set<string>()
  while (words.size < size) {
    const syllables = 2 + Math.floor(r() * 3)
    let w = ''
    for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(VOWELS) + pick(CODAS)
    if (w.length >= 3) words.add(w)
  }
  return [...words]
}

/** Mixed case as typed text has it: mostly lowercase, some Capitalized, a few in CAPITALS. */
function cased(word: string, x: number): string {
  if (x < 0.8) return word
  if (x < 0.97) return word[0]!.toUpperCase() + word.slice(1)
  return word.toUpperCase()
}

/** A body of about `length` characters: words, commas and full stops, from `r`. */
function body(r: () => number, words: readonly string[], length = 250): string {
  let s = ''
  while (s.length < length) {
    if (s) s += r() < 0.08 ? ', ' : r() < 0.05 ? '. ' : ' '
    s += cased(words[Math.floor(r() * words.length)]!, r())
  }
  return s
}

// ---------------------------------------------------------------- rows

export function makeGroups(): GroupRow[] {
  return Array.from({ length: GROUPS }, (_, i) => ({ ID: i + 1, name: `Group ${i + 1}` }))
}

/** `n` Item rows from `seed`: row i has ID i + 1 and a group uniformly among the 200. */
export function makeItems(n: number, seed = 42): ItemRow[] {
  return [...itemChunks(n, seed, Math.max(n, 1))].flat()
}

/**
 * The rows of `makeItems(n, seed)`, the same ones in the same order, `chunk` at a time: the scale
 * suite writes millions of them to a file without holding them all.
 */
export function* itemChunks(n: number, seed = 42, chunk = 50_000): Generator<ItemRow[]> {
  const r = prng(seed)
  const words = vocabulary()
  const day0 = Date.UTC(2015, 0, 1)
  for (let start = 0; start < n; start += chunk) {
    const out = new Array<ItemRow>(Math.min(chunk, n - start))
    for (let j = 0; j < out.length; j++) {
      const i = start + j
      const created = new Date(day0 + Math.floor(r() * 3650) * 86_400_000)
      out[j] = {
        ID: i + 1,
        name: `${cased(words[Math.floor(r() * words.length)]!, r())} ${i + 1}`,
        groupID: 1 + Math.floor(r() * GROUPS),
        price: Math.round(r() * 100_000) / 100,
        qty: Math.floor(r() * 1000),
        created: created.toISOString().slice(0, 10),
        body: body(r, words),
      }
    }
    yield out
  }
}

/** The text suite's rows: `{ ID, body }`, bodies made as `makeItems` makes them (own seed). */
export function makeBodies(n: number, seed = 43): { ID: number; body: string }[] {
  const r = prng(seed)
  const words = vocabulary()
  return Array.from({ length: n }, (_, i) => ({ ID: i + 1, body: body(r, words) }))
}

// ---------------------------------------------------------------- files

const root = fileURLToPath(new URL('..', import.meta.url))
/** Beside the compiled engine's cache: ignored by git and prettier without extra rules. */
export const CACHE_DIR = join(root, 'node_modules/.cache/entistore-bench/data')

export interface DataFiles {
  readonly model: string
  readonly data: string
  readonly rows: number
  /** Size of the data file in bytes. */
  readonly bytes: number
  /** Whether this call wrote the data file (false: reused from the cache). */
  readonly written: boolean
}

/** Writes via a temporary name, so an interrupted run never leaves a truncated file behind. */
function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text)
  renameSync(`${path}.tmp`, path)
}

/**
 * The model file `<name>-v<version>.model.json` and the data file `<name>-v<version>-<n>.data.json`
 * in the cache, each written once (`data(n)` is only called when the data file is missing).
 */
export function cachedFiles(
  name: string,
  version: number,
  modelJson: ModelJson,
  n: number,
  data: (n: number) => unknown,
): DataFiles {
  return cachedJsonFiles(CACHE_DIR, name, version, modelJson, n, () => [JSON.stringify(data(n))])
}

/**
 * The same files in `dir`, the data file written from the pieces of text `parts()` yields, one
 * after the other (`jsonPieces`: a file past V8's 512 MiB limit of one string), to a temporary name
 * renamed once complete: a run interrupted, or another process reading the folder, never sees a
 * half-written file.
 */
export function cachedJsonFiles(
  dir: string,
  name: string,
  version: number,
  modelJson: ModelJson,
  n: number,
  parts: () => Iterable<string>,
): DataFiles {
  mkdirSync(dir, { recursive: true })
  const model = join(dir, `${name}-v${version}.model.json`)
  const file = join(dir, `${name}-v${version}-${n}.data.json`)
  if (!existsSync(model)) writeAtomic(model, JSON.stringify(modelJson, null, 2) + '\n')
  let written = false
  if (!existsSync(file)) {
    // The process id in the temporary name: two runs writing the same file never mix their bytes.
    const tmp = `${file}.${process.pid}.tmp`
    const fd = openSync(tmp, 'w')
    try {
      for (const part of parts()) writeSync(fd, part)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, file)
    written = true
  }
  return { model, data: file, rows: n, bytes: statSync(file).size, written }
}

/**
 * `JSON.stringify({ [class]: rows, … })`, byte for byte, in pieces: each class's rows come in
 * chunks (arrays), and each chunk is stringified alone.
 */
export function* jsonPieces(
  classes: Readonly<Record<string, Iterable<readonly unknown[]>>>,
): Generator<string> {
  let firstClass = true
  for (const [name, chunks] of Object.entries(classes)) {
    yield `${firstClass ? '{' : ','}${JSON.stringify(name)}:[`
    firstClass = false
    let firstRow = true
    for (const chunk of chunks) {
      if (chunk.length === 0) continue
      const text = JSON.stringify(chunk)
      yield (firstRow ? '' : ',') + text.slice(1, -1)
      firstRow = false
    }
    yield ']'
  }
  yield firstClass ? '{}' : '}'
}

/** The model and data files for `n` Items, written once per size and generator version. */
export const itemFiles = (n: number): DataFiles =>
  cachedFiles('items', VERSION, ITEM_MODEL, n, () => ({ Group: makeGroups(), Item: makeItems(n) }))
