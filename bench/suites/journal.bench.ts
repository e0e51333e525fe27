/**
 * @module The local journal (issue 20): what durability costs a write, and what a start-up from a
 * persistence folder costs against loading the data file.
 *
 * Writes: single updates by key (`Item.update(key, { price })`, each its own commit) on a store of
 * 1,000 Items, in memory, with the journal flushed per commit (fdatasync before the commit
 * returns) and with the journal in batch mode (written at once, flushed every 5 ms). The fsync
 * case does fewer writes: each waits for the disk. What a disk's flush costs varies by orders of
 * magnitude (a tmpfs none, an SSD with a write cache tens of microseconds, a disk without one
 * milliseconds): the folder is in the system's temporary directory, and the report says which.
 *
 * Start-up: `rows` Items and 200 Groups (items.ts), from the data file (read, parse, check and
 * load every row) against from a folder holding the snapshot of the same data and a journal of
 * 1,000 updates after it (read, check the frames, replay in one commit). Both end with the same
 * store, indexes built.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatastore, persistenceOf, type PersistOptions } from 'entistore'
import { ITEM_MODEL, makeGroups, makeItems } from '../items.ts'
import { count, ms, printWriteRates, ratio, table } from '../report.ts'
import { median } from '../timing.ts'

export interface JournalOptions {
  /** Items of the start-up comparison. */
  readonly rows: number
  /** Start-ups per case (the median is reported). */
  readonly reps: number
}

const WRITES = { memory: 20_000, batch: 20_000, commit: 2_000 }

export async function runJournalSuite(options: JournalOptions): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'entistore-journal-bench-'))
  try {
    console.log(`\nfolders in ${root} (the speed of its disk's flush decides the fsync case)`)
    writes(root)
    startUp(root, options)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

function writes(root: string): void {
  const data = { Group: makeGroups(), Item: makeItems(1000) }
  const cases: [string, number, PersistOptions | undefined][] = [
    ['in memory', WRITES.memory, undefined],
    ['journal, fsync per commit', WRITES.commit, { dir: join(root, 'commit') }],
    ['journal, batch of 5 ms', WRITES.batch, { dir: join(root, 'batch'), fsync: 'batch' }],
  ]
  const rows: string[][] = []
  let memory = 0
  for (const [label, n, persist] of cases) {
    const ds = createDatastore(ITEM_MODEL, { data, ...(persist ? { persist } : {}) })
    const Item = ds.dataClass('Item')
    const start = performance.now()
    for (let i = 0; i < n; i++) Item.update(1 + (i % 1000), { price: i })
    const elapsed = performance.now() - start
    persistenceOf(ds)?.close()
    const perSecond = (n * 1000) / elapsed
    if (!persist) memory = perSecond
    rows.push([
      label,
      count(n),
      `${ms(elapsed)} ms`,
      count(Math.round(perSecond)),
      persist ? ratio(memory / perSecond) : '1.00×',
    ])
  }
  printWriteRates(rows)
}

function startUp(root: string, { rows, reps }: JournalOptions): void {
  const file = join(root, 'data.json')
  const data = { Group: makeGroups(), Item: makeItems(rows) }
  writeFileSync(file, JSON.stringify(data))
  const dir = join(root, 'startup')
  const made = createDatastore(ITEM_MODEL, { data, persist: dir })
  const Item = made.dataClass('Item')
  for (let i = 0; i < 1000; i++) Item.update(1 + ((i * 7919) % rows), { price: i })
  persistenceOf(made)?.close()
  const fromFile = (): number =>
    createDatastore(ITEM_MODEL, { data: JSON.parse(readFileSync(file, 'utf8')) as never })
      .dataClass('Item')
      .all().length
  const fromFolder = (): number => {
    const ds = createDatastore(ITEM_MODEL, { persist: dir })
    persistenceOf(ds)?.detach()
    return ds.dataClass('Item').all().length
  }
  const samples: Record<'file' | 'folder', number[]> = { file: [], folder: [] }
  for (let i = 0; i < reps; i++) {
    for (const [name, fn] of [
      ['file', fromFile],
      ['folder', fromFolder],
    ] as const) {
      const start = performance.now()
      if (fn() !== rows) throw new Error(`journal bench: ${name} did not load ${rows} Items`)
      samples[name].push(performance.now() - start)
    }
  }
  const file_ = median(samples.file)
  const folder = median(samples.folder)
  console.log(`\n### Start-up with ${count(rows)} Items (median of ${reps})`)
  console.log(
    table(
      ['case', 'time', 'ratio'],
      [
        ['data file: read, parse, load', `${ms(file_)} ms`, '1.00×'],
        ['folder: snapshot + 1,000 journal records', `${ms(folder)} ms`, ratio(folder / file_)],
      ],
      ['l', 'r', 'r'],
    ),
  )
}
