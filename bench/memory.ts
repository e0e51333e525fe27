/**
 * @module Where the bytes of a row go, on issue 19's short rows (short-rows.ts): heap per row of the
 * parsed JSON, of the datastore without any declared index, then with the five declared indexes
 * added one at a time; and the datastore's objects by kind (`Entity`, values objects, strings,
 * arrays…) from a V8 heap snapshot.
 *
 * Runs in its own process, so that nothing else lives in the heap it reads (`npm run bench --
 * --only=memory` starts it as a child; `npx tsx bench/memory.ts --rows=200k` runs it alone). Every
 * figure is a difference of `heapUsed + arrayBuffers` (typed arrays' contents live outside the JS
 * heap) after full collections, divided by the Person rows; the data file's text, read once, is
 * alive on both sides of every difference. Each datastore is built as `entistore serve` builds it:
 * `JSON.parse` of the file, then `createDatastore(model)` and `ds.loadData(parsed)`, the parsed rows
 * then dropped (the store keeps what it keeps of them: its strings).
 *
 * Options: --rows=200k (the Person rows), --snapshot-rows=50k (rows of the heap-snapshot breakdown;
 * its JSON grows by ≈1 KB a row, so 200k is slow but works), --engine=compiled|source|dist.
 */
import { readFileSync } from 'node:fs'
import { getHeapSnapshot, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Datastore, ModelJson } from '@entistore/core'
import { ENGINE_CHOICES, loadEngine, type Core, type EngineChoice } from './engine.ts'
import { count, parseSize, ratio, sizeLabel, table } from './report.ts'
import { SHORT_CITIES, SHORT_INDEXED, shortFiles, shortModel } from './short-rows.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Heap and typed-array bytes in use after full collections. */
function used(): number {
  for (let i = 0; i < 3; i++) gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** Bytes that `build`'s result keeps alive (the result is returned, still alive). */
function held<T>(build: () => T): { bytes: number; value: T } {
  const before = used()
  const value = build()
  return { bytes: used() - before, value }
}

// ---------------------------------------------------------------- variants

/** What each index adds, as the engine builds it (see `IndexSet.create`: text `auto` = both). */
const WHAT: Record<(typeof SHORT_INDEXED)[number], string> = {
  code: '`code`, unique text: hash + sorted',
  name: '`name`, text: hash + sorted',
  city: '`city`, text of 50 values: hash + sorted',
  age: '`age`, long: sorted',
  groupID: '`groupID`, the foreign key: sorted (its hash index is there already)',
}

interface Variant {
  readonly part: string
  readonly bytes: number
}

/**
 * A datastore as `entistore serve` builds one. A function of its own, so that no caller's frame
 * (an async one suspended at an `await`) keeps the parsed rows in a temporary.
 */
function load(core: Core, model: ModelJson, text: string): Datastore {
  const ds = core.createDatastore(model)
  ds.loadData(JSON.parse(text) as never)
  // Every index counted: a load leaves them to their first use.
  ds.buildIndexes()
  return ds
}

/**
 * The bytes a datastore of `model` holds: used with it alive minus used once it is dropped (no
 * other datastore is alive while it is built; garbage its loading left elsewhere is not counted).
 */
function storeBytes(core: Core, model: ModelJson, text: string): number {
  let ds: Datastore | undefined = load(core, model, text)
  const alive = used()
  if (ds.dataClass('Person').all().length === 0) throw new Error('no rows loaded')
  ds = undefined
  return alive - used()
}

/** The parsed JSON, the datastore without declared indexes, then each index added in turn. */
function variants(core: Core, text: string): Variant[] {
  const out: Variant[] = []
  const parsed = held(() => JSON.parse(text) as unknown)
  out.push({ part: 'the parsed JSON alone (`JSON.parse` of the file)', bytes: parsed.bytes })
  parsed.value = undefined
  let previous = 0
  for (let k = 0; k <= SHORT_INDEXED.length; k++) {
    const size = storeBytes(core, shortModel(SHORT_INDEXED.slice(0, k)), text)
    out.push(
      k === 0
        ? {
            part: "the datastore, no declared index (the key's sorted index and the foreign key's hash index only)",
            bytes: size,
          }
        : { part: `+ ${WHAT[SHORT_INDEXED[k - 1]!]}`, bytes: size - previous },
    )
    previous = size
  }
  out.push({ part: 'the datastore with the five indexes (total)', bytes: previous })
  return out
}

// ---------------------------------------------------------------- heap snapshot

interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[]
      node_types: [string[], ...unknown[]]
      edge_fields: string[]
      edge_types: [string[], ...unknown[]]
    }
  }
  nodes: number[]
  edges: number[]
  strings: string[]
}

interface Kind {
  bytes: number
  nodes: number
}

/**
 * A heap snapshot's self sizes by kind. Only the small Map leaves this function: a caller holding
 * the parsed snapshot (even in an `await`'s temporary) would put it into the next snapshot.
 */
async function snapshotKinds(): Promise<Map<string, Kind>> {
  for (let i = 0; i < 3; i++) gc()
  const chunks: string[] = []
  const stream = getHeapSnapshot()
  stream.setEncoding('utf8')
  for await (const c of stream) chunks.push(c as string)
  return bySelfSize(JSON.parse(chunks.join('')) as HeapSnapshot)
}

const plainFold = (x: string): string => x.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const CITIES = new Set(SHORT_CITIES)
const FOLDED_CITIES = new Set(SHORT_CITIES.map(plainFold))

/** A string of this shape by its text: the values of short-rows.ts and their folded keys. */
function stringKind(text: string): string {
  if (CITIES.has(text)) return 'strings: `city` values'
  if (FOLDED_CITIES.has(text)) return 'strings: `city` folded (index keys)'
  if (/^C\d{7}$/.test(text)) return 'strings: `code` values'
  if (/^c\d{7}$/.test(text)) return 'strings: `code` folded (index keys)'
  if (/^\p{Lu}\S* \p{Lu}/u.test(text)) return 'strings: `name` values'
  if (/^[a-z]+ [a-z]+$/.test(text)) return 'strings: `name` folded (index keys)'
  return 'strings: other'
}

/** The kind a node counts under: its constructor for objects, its type for the rest. */
function kindOf(type: string, name: string, size: number): string {
  switch (type) {
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return stringKind(name)
    case 'number':
      return 'heap numbers'
    case 'object':
      // Plain objects by size: a Person's values object is one of them, a Group's another.
      return name === 'Object' ? `plain objects of ${size} B` : `\`${name}\` objects`
    case 'array':
      return `arrays: ${name || '(internal)'}`
    case 'native':
      return `native: ${name}`
    case 'closure':
      return 'closures'
    case 'code':
      return 'code'
    default:
      return `${type}: ${name}`
  }
}

/** Nodes this large (an index's arrays, a Map's table) are named by what holds them. */
const LARGE = 64 * 1024

/**
 * Holders named by their own holder too: an array's elements are held by an `Array`, a class's
 * fields beyond the first few by its properties array.
 */
const GENERIC = new Set([
  'Array',
  'Map',
  'Set',
  'Object',
  'Int32Array',
  'Float64Array',
  'ArrayBuffer',
])

/**
 * Self size and nodes summed by kind, for every node of the snapshot. A large node is its own kind,
 * named after what holds it (`SortedIndex.#keys.elements`, `HashIndex.#map.table`…), so each
 * structure of an index shows on its own line.
 */
function bySelfSize(s: HeapSnapshot): Map<string, Kind> {
  const { node_fields: nf, node_types: nt, edge_fields: ef, edge_types: et } = s.snapshot.meta
  const width = nf.length
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    nf.indexOf(f),
  ) as [number, number, number, number]
  const eWidth = ef.length
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [
    number,
    number,
    number,
  ]
  const types = nt[0]
  const edgeTypes = et[0]
  const typeOf = (node: number): string => types[s.nodes[node + iType]!]!
  const nameOf = (node: number): string => s.strings[s.nodes[node + iName]!]!
  /** The first strong retainer of each node of `wanted`: [holder node, edge label]. */
  const retainers = (wanted: (node: number) => boolean): Map<number, [number, string]> => {
    const out = new Map<number, [number, string]>()
    for (let node = 0, edge = 0; node < s.nodes.length; node += width) {
      const end = edge + s.nodes[node + iEdges]! * eWidth
      for (; edge < end; edge += eWidth) {
        const to = s.edges[edge + eTo]!
        if (out.has(to) || !wanted(to)) continue
        const type = edgeTypes[s.edges[edge + eType]!]!
        if (type === 'weak' || type === 'shortcut') continue
        // Element indexes, and the numbered slots of an object's out-of-line properties, differ
        // from one snapshot to the next: all are `[]`.
        const name =
          type === 'element' || type === 'hidden' ? '' : s.strings[s.edges[edge + eName]!]!
        const label = /^\d*$/.test(name) ? '[]' : `.${name}`
        out.set(to, [node, label])
      }
    }
    return out
  }
  const vagueHolder = (node: number): boolean =>
    typeOf(node) === 'array' ||
    typeOf(node) === 'hidden' ||
    (typeOf(node) === 'object' && GENERIC.has(nameOf(node)))
  const named = (node: number): boolean => s.nodes[node + iSize]! >= LARGE
  // The holders of large nodes, then of those holders that say nothing (an `Array`, a properties
  // array), up to three levels.
  const holders = retainers(named)
  let level = [...holders.values()]
  for (let i = 0; i < 3; i++) {
    const vague = new Set(level.map(([h]) => h).filter((h) => vagueHolder(h) && !holders.has(h)))
    if (vague.size === 0) break
    const up = retainers((node) => vague.has(node))
    for (const [node, r] of up) holders.set(node, r)
    level = [...up.values()]
  }
  const label = (node: number): string => {
    let path = ''
    for (let cur = node, i = 0; i < 4; i++) {
      const r = holders.get(cur)
      if (!r) return `?${path}`
      const [h, edge] = r
      // Roots (the stack, handles) are numbered differently from one snapshot to the next.
      if (typeOf(h) === 'synthetic') return '(roots)'
      path = edge + path
      if (!vagueHolder(h)) return `${nameOf(h)}${path}`
      cur = h
    }
    return `…${path}`
  }
  const out = new Map<string, Kind>()
  for (let node = 0; node < s.nodes.length; node += width) {
    const size = s.nodes[node + iSize]!
    let kind = kindOf(typeOf(node), nameOf(node), size)
    if (named(node) && !kind.startsWith('strings')) kind += ` ← ${label(node)}`
    const k = out.get(kind)
    if (k) {
      k.bytes += size
      k.nodes++
    } else out.set(kind, { bytes: size, nodes: 1 })
  }
  return out
}

/**
 * The datastore's objects by kind: a snapshot with the store of `rows` rows alive minus one taken
 * once it is dropped (same process, same code loaded; whatever an earlier snapshot left behind is
 * in both), per row.
 */
async function composition(core: Core, text: string, rows: number) {
  // The first snapshot leaves some of its own behind (stream buffers, compiled code): taken first,
  // so that the two compared both follow one.
  await snapshotKinds()
  let ds: Datastore | undefined = load(core, shortModel(), text)
  if (ds.dataClass('Person').all().length !== rows) throw new Error('rows lost')
  const withStore = await snapshotKinds()
  ds = undefined
  const without = await snapshotKinds()
  const kinds = [...new Set([...withStore.keys(), ...without.keys()])]
  return kinds
    .map((k) => ({
      kind: k,
      bytes: (withStore.get(k)?.bytes ?? 0) - (without.get(k)?.bytes ?? 0),
      nodes: (withStore.get(k)?.nodes ?? 0) - (without.get(k)?.nodes ?? 0),
    }))
    .sort((a, b) => b.bytes - a.bytes)
}

// ---------------------------------------------------------------- main

function parseArgs(argv: readonly string[]) {
  const o = { rows: 200_000, snapshotRows: 50_000, engine: 'compiled' as EngineChoice }
  for (const arg of argv) {
    const [name, value = ''] = arg.split('=', 2) as [string, string?]
    if (name === '--rows') o.rows = parseSize(value)
    else if (name === '--snapshot-rows') o.snapshotRows = parseSize(value)
    else if (name === '--engine' && (ENGINE_CHOICES as readonly string[]).includes(value))
      o.engine = value as EngineChoice
    else {
      console.error(`memory.ts: unknown option ${arg} (--rows=200k --snapshot-rows=50k --engine=)`)
      process.exit(2)
    }
  }
  return o
}

const o = parseArgs(process.argv.slice(2))
const engine = await loadEngine(o.engine)
const files = shortFiles(o.rows)
console.log(
  `memory: ${sizeLabel(o.rows)} Persons and 200 Groups (short-rows.ts), ` +
    `${(files.bytes / 1e6).toFixed(1)} MB file; engine ${engine.label}`,
)
const text = readFileSync(files.data).toString('utf8')
const rows = variants(engine.core, text)
const json = rows[0]!.bytes
console.log(`\n### heap per row: what each part adds — ${sizeLabel(o.rows)} rows`)
console.log(
  table(
    ['part', 'bytes per row', '× JSON.parse'],
    rows.map((r, i) => [
      r.part,
      count(Math.round(r.bytes / o.rows)),
      i === 0 || r.part.includes('total') || i === 1 ? ratio(r.bytes / json) : '',
    ]),
    ['l', 'r', 'r'],
  ),
)
console.log(
  '- heap = process.memoryUsage() heapUsed + arrayBuffers after full GCs; each datastore built ' +
    'alone (JSON.parse, createDatastore, loadData) and measured by what dropping it frees.',
)

const snapText =
  o.snapshotRows === o.rows ? text : readFileSync(shortFiles(o.snapshotRows).data).toString('utf8')
const kinds = await composition(engine.core, snapText, o.snapshotRows)
const total = kinds.reduce((s, k) => s + k.bytes, 0)
const shown = kinds.filter((k) => Math.abs(k.bytes) / o.snapshotRows >= 1)
const rest = total - shown.reduce((s, k) => s + k.bytes, 0)
console.log(
  `\n### the datastore's objects by kind (heap snapshot) — ${sizeLabel(o.snapshotRows)} rows, ` +
    'five indexes',
)
console.log(
  table(
    ['kind', 'bytes per row', 'nodes per row'],
    [
      ...shown.map((k) => [
        k.kind,
        count(Math.round(k.bytes / o.snapshotRows)),
        (k.nodes / o.snapshotRows).toFixed(2),
      ]),
      ['the rest (under 1 byte a row each)', count(Math.round(rest / o.snapshotRows)), ''],
      ['total (self sizes)', count(Math.round(total / o.snapshotRows)), ''],
    ],
    ['l', 'r', 'r'],
  ),
)
console.log(
  '- self sizes of the nodes of a V8 heap snapshot taken with the store alive, minus one taken ' +
    'once it was dropped. Nodes of 64 KB or more are named by what holds them; the rest of an ' +
    "`arrays: (object elements)` line are small arrays (a hash index's buckets of row ids). " +
    '`native: system / JSArrayBufferData` = typed arrays’ contents; `O`, `d`: lru-cache’s ' +
    '(minified) arrays, preallocated by the engine’s caches, the same size at any row count. ' +
    '`plain objects of 80 B` = a Person’s values object (7 fields); a heap number = a `salary`.',
)
