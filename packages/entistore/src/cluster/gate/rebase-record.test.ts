/**
 * rebaseRecord: a commit made on an older state (outside a write, in a process that had not
 * heard of another's commits yet), rebased onto the store as it is now and applied, gives what the
 * same write made now gives: stamps, global stamp, sequences and, with 4D's change tracking, each
 * entity's `__GlobalStamp` and the `__DeletedRecords` rows (their `__Stamp`, their keys).
 */
import {
  applyLogRecords,
  createDatastore,
  dumpData,
  logRecordOf,
  ManualClock,
  type Datastore,
  type LogRecord,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { rebaseRecord } from './rebase-record.js'

const tracked = (name: string) => ({
  name,
  attributes: [
    { name: 'ID', type: 'long', autosequence: true },
    { name: 'name', type: 'string' },
    { name: '__GlobalStamp', type: 'long64', indexed: true },
  ],
})
const MODEL: ModelJson = {
  dataClasses: [
    tracked('Item'),
    tracked('Tag'),
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'text', type: 'string' },
      ],
    },
  ],
} as ModelJson
const DATA = {
  Item: [1, 2, 3, 4].map((ID) => ({ ID, name: `item ${ID}` })),
  Tag: [1, 2].map((ID) => ({ ID, name: `tag ${ID}` })),
}

const open = (): Datastore =>
  createDatastore(MODEL, { data: DATA, clock: new ManualClock('2026-01-01T00:00:00Z') })

/** The records of the commits `fn` makes on `ds`. */
function recorded(ds: Datastore, fn: () => void): LogRecord[] {
  const records: LogRecord[] = []
  const off = ds.onCommit((changes, info) => void records.push(logRecordOf(ds, changes, info)))
  try {
    fn()
  } finally {
    off()
  }
  return records
}

// Another process's commits: a delete (a __DeletedRecords row), an update, an untracked insert.
const theirs = (ds: Datastore) => {
  ds.dataClass('Item').drop(3)
  ds.dataClass('Item').update(4, { name: 'theirs' })
  ds.dataClass('Note').create({ text: 'theirs' })
}
// This process's, made before it heard of theirs: two deletes of the same key in two tracked
// dataclasses (their rows told apart by __TableName), an update, an insert.
const mine = (ds: Datastore) =>
  ds.transaction(() => {
    ds.dataClass('Item').update(1, { name: 'mine' })
    ds.dataClass('Item').drop(2)
    ds.dataClass('Tag').drop(2)
    ds.dataClass('Item').create({ name: 'new' })
  })

const deletedRows = (ds: Datastore) =>
  ds
    .dataClass('__DeletedRecords')
    .all()
    .toArray()
    .map((e) => [e.get('ID'), e.get('__Stamp'), e.get('__TableName'), e.get('__PrimaryKey')])

describe('rebaseRecord', () => {
  it('restamps a tracked write made on an older state as the same write made now', () => {
    const older = open()
    const [record] = recorded(older, () => mine(older))
    const now = open()
    theirs(now)
    applyLogRecords(now, [rebaseRecord(now, record!)])
    const reference = open()
    theirs(reference)
    mine(reference)
    expect(dumpData(now)).toEqual(dumpData(reference))
    expect(now.getGlobalStamp()).toBe(reference.getGlobalStamp())
    expect(now.getGlobalStamp()).toBe(4 + 6)
    // Theirs: the delete 1, its row 4; mine: the deletes 5 and 6, their rows 9 and 10.
    expect(deletedRows(now)).toEqual([
      [1, 1, 'Item', '3'],
      [2, 5, 'Item', '2'],
      [3, 6, 'Tag', '2'],
    ])
    const item = now.dataClass('Item')
    expect(item.get(1)!.get('__GlobalStamp')).toBe(7)
    expect(item.get(5)!.get('__GlobalStamp')).toBe(8)
    // The next delete goes on from there, with the next key.
    item.drop(1)
    expect(deletedRows(now).at(-1)).toEqual([4, 11, 'Item', '1'])
  })

  it('is the record as it was when nothing came between', () => {
    const ds = open()
    const [record] = recorded(ds, () => mine(ds))
    const again = open()
    expect(rebaseRecord(again, record!)).toEqual(record)
  })

  it('keeps the stamp a setGlobalStamp set, and moves no stamp for a restore', () => {
    const older = open()
    const [set] = recorded(older, () => older.setGlobalStamp(1000))
    const now = open()
    theirs(now)
    expect(rebaseRecord(now, set!).globalStamp).toBe(1000)
    const initial = older.snapshot()
    const [restore] = recorded(older, () => {
      older.dataClass('Item').drop(1)
      older.restore(initial)
    }).slice(-1)
    const rebased = rebaseRecord(now, restore!)
    expect(rebased.globalStamp).toBe(now.getGlobalStamp())
    expect(rebased.changes).toEqual(restore!.changes)
  })
})
