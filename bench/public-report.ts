/**
 * @module The public benchmark's report (issue 22): `docs/benchmarks.md` and its SVG charts, from
 * the results of one run (public.ts). Everything in it is computed from those results: the tables,
 * the ratios (each to the floor measured in the same run), the charts, and the list of the places
 * where Entistore is not ahead; only the explanations of why are written here by hand, per
 * operation, from what the engine does (they say what the figures cannot).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ms, perOp, ratio, sizeLabel, table, type Align } from './report.ts'
import { barChart, lineChart, type BarGroup } from './svg-chart.ts'
import {
  OP_TITLES,
  PEERS,
  PUBLIC_OPS,
  type Cell,
  type OpId,
  type OpResult,
} from './suites/public-peers.bench.ts'
import {
  HTTP_PEERS,
  HTTP_REQUESTS,
  REQUEST_TITLES,
  type HttpResult,
  type RequestId,
} from './suites/public-http.bench.ts'

export interface RunInfo {
  readonly date: string
  readonly command: string
  readonly machine: string
  readonly node: string
  readonly commit: string
  readonly seconds: number
  readonly versions: Record<string, string>
  readonly sizes: readonly number[]
  /** The size of the accented rows' run (ACCENTED_OPS), if any. */
  readonly accentedSize?: number
  readonly httpSizes: readonly number[]
  readonly timing: string
  readonly load: string
}

export interface PublicResults {
  readonly info: RunInfo
  readonly peers: readonly OpResult[]
  readonly http: readonly HttpResult[]
}

/** The folder of the charts, beside the markdown (and its name in the links). */
export const CHART_DIR = 'bench-charts'

const label = (id: string): string =>
  PEERS.find((p) => p.id === id)?.label ?? HTTP_PEERS.find((p) => p.id === id)?.label ?? id

/** A figure: time per unit of work (per lookup, per update…), or bytes per row. */
const unitValue = (op: OpId, c: Cell): number | undefined =>
  c.value === undefined ? undefined : op === 'memory' ? c.value : c.value / (c.opsPerCall ?? 1)

const show = (op: OpId, v: number): string =>
  op === 'memory' ? `${Math.round(v)} B` : op === 'load' ? `${ms(v)} ms` : perOp(v)

/** The text of a cell: the figure and its ratio to the floor, or the reason it has none. */
function cellText(op: OpId, c: Cell, floor: Cell | undefined): string {
  if (c.cannot !== undefined) return `—, ${c.cannot}`
  if (c.error !== undefined) return `error: ${c.error.slice(0, 80)}`
  const v = unitValue(op, c)!
  const f = floor && unitValue(op, floor)
  const r = f ? ` (${ratio(v / f)})` : ''
  return `${show(op, v)}${c.peer === 'plain' ? '' : r}${c.sameCheck === false ? ' ≠' : ''}`
}

/** Ratio of a peer's figure to the floor's at one op and size (undefined: none). */
function ratioOf(r: OpResult, peer: string): number | undefined {
  const c = r.cells.find((x) => x.peer === peer)
  const f = r.cells.find((x) => x.peer === 'plain')
  const v = c && unitValue(r.op, c)
  const b = f && unitValue(r.op, f)
  return v !== undefined && b ? v / b : undefined
}

// ---------------------------------------------------------------- why, where Entistore is behind

/** Why Entistore costs what it does on each operation: the engine's side of the figures. */
const WHY: Partial<Record<OpId, string>> = {
  load: 'the load validates and coerces every value, checks the key and the unique name, and builds four indexes (hash and sorted on name, sorted on salary, hash on companyId) besides the key index; the plain floor builds the same structures without a check, LokiJS keeps the caller’s objects. A CPU profile of six loads of 100k rows (2026-11-26): the index builds 39% (sorting the sorted ones 14%, filling the hash ones 6%), reading, coercing and checking the rows 33% (reading them 9%, the unique name’s claims 8%, writing the columns 8%), the collector 14%. alasql skips that work: on its load path (INSERT … SELECT * FROM ?) it takes a second row with the same name in its UNIQUE index, and a text and an object in an INT column (checked 2026-11-24), and its CREATE INDEX indexes stay empty (0 entries after 100k rows, 2026-11-29): its lookups scan (3.4 ms an equality at 100k)',
  memory:
    'columns per attribute plus the indexes, the stamps and the key index; the plain floor keeps the row objects and its Maps',
  get: 'dc.get finds the row id by key (a typed array), then the row’s Entity among the records made last (a bounded cache: a read of every row does not leave an object per row), whose direct-mapped front, four slots an entry, is read before the row’s slot; at 100k a get is mostly memory reads: the key’s row id, then the front’s id and entry. LokiJS reads a property of an object keyed by id and returns the object it holds',
  eq: 'each lookup folds the key (case and accents, 4D’s rule), hashes the fold and compares it with the stored bytes of the row the hash points to (the texts are kept as bytes, not strings: the memory goal), then makes the Entity from the columns or finds it among the recent reads; LokiJS compares code units and returns the object it holds. dc.findOne of a unique key asks the index for its one row id and makes no EntitySelection; what is left is the hash lookup, at 100k mostly memory reads of the index and the row’s bytes. An accented key is folded into a new string and compared with the row’s Latin-1 bytes: at 100k a third of such a lookup is that comparison, mostly memory reads (the row’s slot, offset, length, bytes), and an eighth reading the key’s characters',
  in: 'an IN given its list in a placeholder is read from the hash index directly (no binding, planning or estimate), and its selection holds the index’s buckets lent (copy-on-write: a write to a lent bucket writes a copy), their row ids copied only when read. Against the plain floor, what is left is the five probes and the selection with its ordering; TinyBase returns the id lists its index holds',
  range:
    'the sorted index gives the row ids in key order, which are then put in row order for the selection',
  between:
    'both bounds are read from the sorted index directly (two binary searches, no planning: core range-lookup.ts; a window past 4,096 rows, as at 1M, takes the general path, in steps), then the row ids copied and the selection made',
  begin: 'the prefix is folded and looked up in the sorted index of folded names',
  scan: 'a compiled predicate over the columns, with folded comparison of city',
  top: 'an orderBy through the sorted index on salary, then 100 entities read. The text `salary desc` is parsed once and kept, an index’s walk is made once per direction, and the selection’s iterator is a class, not a generator',
  aggregate: 'a pass over the salary column (count, sum, min, max), in chunks',
  update:
    'an update with no transaction open, no lock and no unique attribute commits alone, with no Transaction: the value coerced and checked, a new frozen version of the row (whoever holds the version before still reads it, as a 4D entity does), the stamp and the global stamp moved, the indexes and columns touched, the commit listeners (change history, journals) told, an Entity made for the new version. A CPU profile of 2,000,000 updates at 100k rows (2026-11-26, 1,000 keys as here): the commit 15% (the indexes compare the two versions by code compiled for their attributes; a patch list is made only when a listener reads it), the new values 9% (a compiled copy, frozen), reading the clock 7% (the write’s timestamp: LokiJS reads it too), making the frozen Entity 8%, the listeners 5%. LokiJS assigns a field of the object it holds. Made to give its documents that isolation (`clone: true`), LokiJS took 1.41 µs an update against 0.81 µs, measured alone on the same rows (2026-11-25)',
  batch:
    'ds.transaction stages the 10 writes, checks them, then applies them together (all or none)',
}

/** Where a peer (or the floor) does an operation faster than Entistore, and by how much. */
function behind(results: readonly OpResult[]): string[] {
  const lines: string[] = []
  for (const r of results) {
    const e = r.cells.find((c) => c.peer === 'entistore')
    const ev = e && unitValue(r.op, e)
    if (ev === undefined) continue
    const faster = r.cells
      .filter((c) => c.peer !== 'entistore' && c.peer !== 'plain')
      .map((c) => ({ c, v: unitValue(r.op, c) }))
      .filter((x): x is { c: Cell; v: number } => x.v !== undefined && x.v < ev)
    const floor = ratioOf(r, 'entistore')
    const parts: string[] = []
    if (faster.length)
      parts.push(
        faster
          .map(
            (x) =>
              `${label(x.c.peer)} ${ratio(ev / x.v)} ${r.op === 'memory' ? 'smaller' : 'faster'}`,
          )
          .join(', '),
      )
    if (floor !== undefined && floor > 2) parts.push(`${ratio(floor)} the plain floor`)
    if (parts.length)
      lines.push(
        `- **${r.op}**, ${sizeLabel(r.size)} rows${r.shape ? `, ${r.shape} texts` : ''}: ${parts.join('; ')}. Why: ${WHY[r.op] ?? '(see the table)'}.`,
      )
  }
  return lines
}

/** Over HTTP: where a server other than the raw floor answers more requests than `entistore serve`. */
function httpBehind(results: readonly HttpResult[]): string[] {
  const lines: string[] = []
  for (const r of results) {
    if (r.request === 'startup') continue
    const e = r.cells.find((c) => c.peer === 'entistore-serve')?.rps
    const raw = r.cells.find((c) => c.peer === 'raw')?.rps
    if (e === undefined) continue
    const faster = r.cells.filter(
      (c) => c.peer !== 'entistore-serve' && c.peer !== 'raw' && c.rps !== undefined && c.rps > e,
    )
    const parts = faster.map((c) => `${label(c.peer)} ${ratio(c.rps! / e)} the req/s`)
    if (raw !== undefined) parts.push(`raw node:http ${ratio(raw / e)} the req/s`)
    lines.push(
      `- **HTTP ${r.request}**, ${sizeLabel(r.size)} rows: ${parts.join('; ')}. Why: ${HTTP_WHY[r.request]}.`,
    )
  }
  return lines
}

const HTTP_WHY: Record<RequestId, string> = {
  get: 'a read by key takes the REST handler’s quick lane (one pass over the URL, no query machinery); the load generator sends no cookie back, so each request opens a guest session and is told its cookie, as 4D counts a guest (since issue 78: the per-session quotas count them), and the row of a random key is written from the load’s columns (no Entity made: rest’s column-writer.ts) with __KEY, __STAMP and __TIMESTAMP, its values read from a column each; the raw floor reads rows[id - 1] and stringifies it. A CPU profile of serve under load (2026-11-29, random keys over 200k rows, Node 24): 15 µs a request on the serving thread, the socket write 6.3, writing the row from the columns 3.3, node’s HTTP the rest',
  list50:
    'city has no index: the filter (parsed once, cached) compares every row, folded, because the reply gives __COUNT, the number of all matches; the endpoints by hand stop at the 50th match. The reply is an entity selection body (__ENTITIES, __COUNT, stamps), its rows written from the load’s columns',
  update:
    'an update is checked (stamp, coercion) and makes a new frozen version of the row (indexes, columns, commit listeners told), and the reply is the updated entity with its new stamp; the floor assigns one property',
}

// ---------------------------------------------------------------- charts

interface Chart {
  readonly file: string
  readonly alt: string
  readonly svg: string
}

const SERIES = PEERS.filter((p) => p.id !== 'plain').map((p) => p.label)
const HTTP_SERIES = HTTP_PEERS.filter((p) => p.kind !== 'baseline').map((p) => p.label)

function charts(res: PublicResults): Chart[] {
  const out: Chart[] = []
  for (const n of res.info.sizes) {
    const groups: BarGroup[] = PUBLIC_OPS.map((op) => {
      const r = res.peers.find((x) => x.size === n && x.op === op)
      return {
        label: op,
        bars: PEERS.filter((p) => p.id !== 'plain').map((p) => {
          const c = r?.cells.find((x) => x.peer === p.id)
          const x = r && ratioOf(r, p.id)
          return {
            series: p.label,
            ...(x !== undefined ? { value: x, text: ratio(x) } : {}),
            ...(x === undefined
              ? { text: c?.cannot ? `— ${c.cannot}` : c?.error ? 'error' : '—' }
              : {}),
          }
        }),
      }
    })
    out.push({
      file: `in-process-${sizeLabel(n).toLowerCase()}.svg`,
      alt: `ratios to plain JS at ${sizeLabel(n)} rows`,
      svg: barChart({
        title: `In process, ${sizeLabel(n)} rows: each operation × plain JS`,
        baseline: 'the plain JS floor',
        axis: '× the plain JS time per operation (memory: × its bytes per row); lower is better',
        groups,
        series: SERIES,
      }),
    })
  }
  if (res.info.sizes.length > 0)
    for (const op of PUBLIC_OPS) {
      const series = PEERS.map((p) => ({
        name: p.label,
        values: res.info.sizes.map((n) => {
          const c = res.peers
            .find((x) => x.size === n && x.op === op)
            ?.cells.find((x) => x.peer === p.id)
          const v = c && unitValue(op, c)
          return v === undefined ? undefined : op === 'memory' ? v : v * 1000
        }),
      })).filter((s) => s.values.some((v) => v !== undefined))
      out.push({
        file: `growth-${op}.svg`,
        alt: `${op}: growth from ${sizeLabel(res.info.sizes[0]!)} rows`,
        svg: lineChart({
          title: `${op}: ${OP_TITLES[op]}`,
          xs: res.info.sizes,
          series,
          names: PEERS.map((p) => p.label),
          unit:
            op === 'memory' ? 'bytes per row' : op === 'load' ? 'µs per load' : 'µs per operation',
          axis: op === 'memory' ? 'heap held' : 'time',
        }),
      })
    }
  for (const n of res.info.httpSizes) {
    const groups: BarGroup[] = HTTP_REQUESTS.map((id) => {
      const r = res.http.find((x) => x.size === n && x.request === id)
      const raw = r?.cells.find((c) => c.peer === 'raw')?.rps
      return {
        label: id,
        bars: HTTP_PEERS.filter((p) => p.kind !== 'baseline').map((p) => {
          const c = r?.cells.find((x) => x.peer === p.id)
          const x = c?.rps !== undefined && raw ? c.rps / raw : undefined
          return {
            series: p.label,
            ...(x !== undefined
              ? { value: x, text: `${ratio(x)} (${Math.round(c!.rps!)} req/s)` }
              : { text: c?.error ? 'error' : '—' }),
          }
        }),
      }
    })
    out.push({
      file: `http-${sizeLabel(n).toLowerCase()}.svg`,
      alt: `HTTP req/s × raw node:http at ${sizeLabel(n)} rows`,
      svg: barChart({
        title: `HTTP, ${sizeLabel(n)} rows: requests per second × raw node:http`,
        baseline: 'raw node:http by hand over an array',
        axis: '× the req/s of raw node:http; higher is better',
        groups,
        series: HTTP_SERIES,
      }),
    })
  }
  return out
}

// ---------------------------------------------------------------- markdown

function peersTable(res: PublicResults, n: number): string {
  const rows = PUBLIC_OPS.flatMap((op) => {
    const r = res.peers.find((x) => x.size === n && x.op === op)
    if (!r) return []
    const floor = r.cells.find((c) => c.peer === 'plain')
    return [
      [
        op,
        ...PEERS.map((p) => {
          const c = r.cells.find((x) => x.peer === p.id)
          return c ? cellText(op, c, floor) : ''
        }),
      ],
    ]
  })
  return table(['operation', ...PEERS.map((p) => p.label)], rows, [
    'l',
    ...PEERS.map((): Align => 'l'),
  ])
}

/** How each peer does each operation, and the notes of its cells (subsets, ties, slow calls). */
function howTable(res: PublicResults): string {
  const n = res.info.sizes[res.info.sizes.length - 1]!
  const rows = PUBLIC_OPS.flatMap((op) => {
    const r = res.peers.find((x) => x.size === n && x.op === op)
    if (!r) return []
    return [
      [
        op,
        ...PEERS.map((p) => {
          const c = r.cells.find((x) => x.peer === p.id)
          if (!c) return ''
          if (c.cannot !== undefined) return `—, ${c.cannot}`
          return (c.note ?? '').replace(/\|/g, '\\|')
        }),
      ],
    ]
  })
  return table(['operation', ...PEERS.map((p) => p.label)], rows, [
    'l',
    ...PEERS.map((): Align => 'l'),
  ])
}

function httpTable(res: PublicResults, n: number): string {
  const start = res.http.find((x) => x.size === n && x.request === 'startup')
  const rows = HTTP_PEERS.map((p) => {
    const s = start?.cells.find((c) => c.peer === p.id)
    return [
      label(p.id),
      ...HTTP_REQUESTS.map((id) => {
        const r = res.http.find((x) => x.size === n && x.request === id)
        const c = r?.cells.find((x) => x.peer === p.id)
        const raw = r?.cells.find((x) => x.peer === 'raw')?.rps
        if (!c || c.rps === undefined) return c?.error ? `error: ${c.error.slice(0, 60)}` : '—'
        const x = raw ? ` (${ratio(c.rps / raw)})` : ''
        const bad = c.failed ? `, ${c.failed} failed` : ''
        return `${Math.round(c.rps).toLocaleString('en')}${p.id === 'raw' ? '' : x} · ${ms(c.p50!)} / ${ms(c.p99!)} ms${bad}`
      }),
      s?.rps !== undefined ? `${ms(s.rps)} ms` : s?.error ? 'error' : '',
    ]
  })
  return table(
    ['server', ...HTTP_REQUESTS.map((id) => `${id}: req/s (× raw) · p50 / p99`), 'start-up'],
    rows,
    ['l', 'r', 'r', 'r', 'r'],
  )
}

const img = (c: Chart): string => `![${c.alt}](${CHART_DIR}/${c.file})`

/** Where the generated part of `benchmarks.md` ends: what follows is kept by the next report. */
export const KEPT_MARKER = '<!-- Not generated: `npm run bench -- --report` keeps what follows. -->'

/** Writes `benchmarks.md` and its charts into `dir`; returns the paths written. */
export function writeReport(given: PublicResults, dir: string): string[] {
  const chartDir = join(dir, CHART_DIR)
  mkdirSync(chartDir, { recursive: true })
  // The ASCII rows make the tables of each size, the charts and the growth; the accented ones
  // their own table.
  const res = { ...given, peers: given.peers.filter((r) => r.shape === undefined) }
  const accented = given.peers.filter((r) => r.shape === 'accented')
  const all = charts(res)
  for (const c of all) writeFileSync(join(chartDir, c.file), c.svg)
  const i = res.info
  const md: string[] = [
    '# Benchmarks: Entistore against what you would use instead',
    '',
    '<!-- Generated by `npm run bench -- --report` (bench/public.ts, bench/public-report.ts): edit those, not this, down to the "Not generated" mark near the end. -->',
    '',
    'Entistore in process (its TypeScript API) against LokiJS, mingo, TinyBase, alasql and NeDB, and over HTTP against json-server and hand-written servers, on the same rows and operations, in **one run** on one machine. Every ratio is to a floor measured in the same run: plain JS loops and Maps in process, a raw `node:http` handler over an array over HTTP. A peer that cannot do an operation says so (“—, why”) instead of being left out.',
    '',
    '## How to read this page',
    '',
    '- **What is measured.** Each section is one suite of the bench harness (bench/README.md says what each case does). The first sections, down to “Where Entistore is not ahead”, are one run of the public report against the peers; the sections after it are the other suites, each with the run it comes from: its date, the machine, the rows and the command.',
    '- **Against what.** Every ratio (×) is to a floor measured in the same run, never to a figure from another day. Compare within a table; across tables the runs differ in day and load.',
    `- **The machine.** Unless a section says otherwise: AMD EPYC, 2 cores shared with other work, 24 GB RAM, Linux x64, Node ${i.node.replace(/^v/, '').split('.')[0]} (the report's run; each other section gives its own). Absolute times move with the load of the shared cores (each section gives it); the ratios move less.`,
    '- **Goals.** PASS or MISS is a goal the project set itself in an issue, checked against that run.',
    '- **Only today’s figures.** Each table is the latest measurement of its suite. Earlier rounds and how the numbers got here are in git history and the packages’ CHANGELOG.md.',
    '',
    'To measure again (`npm run bench -- --help` lists every suite and option):',
    '',
    '```sh',
    'npm run bench -- --report                         # the public report: this page down to its “Not generated” mark, and its charts',
    'npm run bench -- --suite=cluster-http             # many processes: writes and reads over HTTP',
    'npm run bench -- --suite=scale                    # ten million rows in one process',
    'npm run bench -- --suite=http                     # reads over HTTP against the plain-JS and raw servers',
    'npm run bench -- --suite=contention               # a cheap request beside heavy ones',
    'npm run bench -- --only=text                      # many text patterns in one read',
    'npm run bench -- --suite=vectors                  # vector search',
    'npm run bench -- --suite=changes                  # change tracking and the live feed',
    'npm run bench -- --only=write-log                 # the cost of the request log',
    '```',
    '',
    '## The run',
    '',
    `- date: ${i.date}; took ${Math.round(i.seconds)} s`,
    `- machine: ${i.machine}`,
    `- Entistore at commit ${i.commit}`,
    `- Node ${i.node}`,
    `- command: \`${i.command}\``,
    `- rows: ${i.sizes.map(sizeLabel).join(', ')} in process; ${i.httpSizes.map(sizeLabel).join(', ')} over HTTP`,
    `- timing: ${i.timing}`,
    `- HTTP load: ${i.load}`,
    '',
    '| package | version |',
    '| --- | --- |',
    ...Object.entries(i.versions).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    '## Data and semantics',
    '',
    '- Rows: `{ id, name, age, city, salary, companyId }` from a seeded generator (bench/data.ts): `name` unique, 20 cities, age 18–69, salary 20,000–199,999, companyId 1–1,000. Indexed wherever the peer can: `id` (key), `name` (unique), `salary` (sorted), `companyId`; `age` and `city` are not, so the scan is a real scan.',
    '- **Case folding.** Entistore compares strings without case or accents (4D’s rule), and the plain floor folds as it does; every peer compares exactly. The main rows are ASCII, and a second set has accented names and cities (its own table below); the queries use the stored spelling, so all find the same rows, but the peers do less work per comparison.',
    '- **Results.** Entistore’s queries return an EntitySelection (row ids; an entity is made when read); the peers build arrays of their documents (NeDB and TinyBase copies). `eq` and `get` read the row in every implementation.',
    '- **Ties.** The top 100 by salary keeps ties in id order in Entistore and the floor; LokiJS reverses them, others sort as their sort does: a different check is marked ≠.',
    '- **NeDB is asynchronous**: each call is awaited in turn, and its time includes that wait.',
    '- **Scans per lookup.** A peer that scans for each lookup runs as many lookups as fit 150 ms per call, extrapolated to the whole batch (said in the notes); a call over 2 s is timed once, cold.',
    '- **Memory** is the JS heap a store holds after a full GC, its input dropped, divided by the rows: a store that keeps the caller’s objects (LokiJS, the floor) counts them.',
    '',
    '## In process',
    '',
    'Each cell: time per operation (per lookup, per update, per batch; load: per load) or bytes per row, and (×) the plain JS floor of the same size. ≠: found other rows than the floor (see the notes).',
    '',
  ]
  for (const n of i.sizes) {
    const c = all.find((x) => x.file === `in-process-${sizeLabel(n).toLowerCase()}.svg`)
    md.push(`### ${sizeLabel(n)} rows`, '', peersTable(res, n), '', ...(c ? [img(c), ''] : []))
  }
  if (i.accentedSize !== undefined && accented.length > 0)
    md.push(
      `### ${sizeLabel(i.accentedSize)} rows, accented texts`,
      '',
      'The same rows with French, German and Spanish names and cities (`Zoé Müller 123`, `München`; bench/data.ts), on the operations whose work depends on the texts. Every query uses the stored spelling, so the peers, which compare code units, find the same rows as Entistore, which folds case and accents.',
      '',
      peersTable({ ...res, peers: accented }, i.accentedSize),
      '',
    )
  md.push(
    '### How each peer does each operation',
    '',
    `At ${sizeLabel(i.sizes[i.sizes.length - 1]!)} rows (subsets and notes differ by size).`,
    '',
    howTable(res),
    '',
    '### Growth from ' + i.sizes.map(sizeLabel).join(' to '),
    '',
    ...all.filter((c) => c.file.startsWith('growth-')).map(img),
    '',
    '## Over HTTP',
    '',
    'Every server is a child process; the same autocannon load (bench/http-load.ts), rounds alternating between the servers. Requests: `get` = one row by key; `list50` = 50 rows with a given city (no index; json-server: `?city=X&_limit=50`, Entistore: `$filter="city=X"&$top=50`); `update` = one attribute by key (json-server and the hand-written servers: `PATCH /people/:id`, Entistore: `POST ?$method=update`). Bodies differ: Entistore’s carry `__KEY`, `__STAMP` and `__ENTITIES`, json-server pretty-prints. Cells: req/s (× raw node:http) · p50 / p99 latency.',
    '',
  )
  for (const n of i.httpSizes) {
    const c = all.find((x) => x.file === `http-${sizeLabel(n).toLowerCase()}.svg`)
    md.push(`### ${sizeLabel(n)} rows`, '', httpTable(res, n), '', ...(c ? [img(c), ''] : []))
  }
  const lines = [...behind(res.peers), ...behind(accented), ...httpBehind(res.http)]
  md.push(
    '## Where Entistore is not ahead',
    '',
    'Computed from the tables above: each operation and size where a peer is faster than Entistore or Entistore costs more than twice the plain floor, and over HTTP every request (with the raw floor’s lead), with what the engine does there that the faster one does not.',
    '',
    ...(lines.length ? lines : ['- nowhere in this run']),
    '',
  )
  const path = join(dir, 'benchmarks.md')
  // The sections written by hand after the marker (suites the report does not run: the cluster's)
  // stay as they are.
  const kept = existsSync(path) ? readFileSync(path, 'utf8').split(KEPT_MARKER)[1] : undefined
  writeFileSync(path, md.join('\n') + (kept === undefined ? '' : `\n${KEPT_MARKER}${kept}`))
  return [path, ...all.map((c) => join(chartDir, c.file))]
}
