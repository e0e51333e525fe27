/**
 * Issue 50: 4D's change tracking kept in a folder. The global stamp, each tracked entity's
 * `__GlobalStamp` and the `__DeletedRecords` rows come back after a restart, from the journal
 * alone and from a snapshot with the journal after it; the next write goes on from the stamp
 * (it neither reuses a stamp a sync client may hold nor a deleted row's key); `setGlobalStamp`
 * is journaled as a write of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dumpData, ManualClock, type Datastore, type ModelJson } from '@entistore/core'
import { createDatastore, persistenceOf } from './create-datastore.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: '__GlobalStamp', type: 'long64', indexed: true },
      ],
    },
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'text', type: 'string' },
      ],
    },
  ],
}
const DATA = { Item: [{ name: 'pen' }, { name: 'ink' }, { name: 'cap' }] }

let dir: string
const opened: Datastore[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-tracking-'))
})
afterEach(() => {
  for (const ds of opened.splice(0)) persistenceOf(ds)?.detach()
  rmSync(dir, { recursive: true, force: true })
})

/** A datastore on `dir`, never closed: each reopening is a restart after a crash. */
function open(data: object = DATA): Datastore {
  const ds = createDatastore(MODEL, {
    clock: new ManualClock('2025-01-01T00:00:00Z'),
    persist: { dir },
    data: data as never,
  })
  opened.push(ds)
  return ds
}

/** What a sync client sees: each item's stamp, the deleted rows, the global stamp. */
function tracking(ds: Datastore) {
  const items = ds
    .dataClass('Item')
    .all()
    .toArray()
    .map((e) => [e.get('name'), e.get('__GlobalStamp')])
  const deleted = ds
    .dataClass('__DeletedRecords')
    .all()
    .toArray()
    .map((e) => [e.get('ID'), e.get('__Stamp'), e.get('__TableName'), e.get('__PrimaryKey')])
  return { items, deleted, globalStamp: ds.getGlobalStamp() }
}

/** Writes of every kind: an insert, an update, an untracked insert, a delete, a batch. */
function write(ds: Datastore): void {
  const item = ds.dataClass('Item')
  item.create({ name: 'nib' }) // 1
  item.update(1, { name: 'pen 2' }) // 2
  ds.dataClass('Note').create({ text: 'untracked' }) // 3
  item.drop(2) // 4, its row 5
  ds.transaction(() => {
    item.create({ name: 'lid' })
    item.drop(3)
  }) // the delete 6, the insert 7, its row 8
}

const WRITTEN = {
  items: [
    ['pen 2', 2],
    ['nib', 1],
    ['lid', 7],
  ],
  deleted: [
    [1, 4, 'Item', '2'],
    [2, 6, 'Item', '3'],
  ],
  globalStamp: 8,
}

describe('change tracking in a persisted datastore', () => {
  it('comes back from the journal, and the next writes go on from the stamp', () => {
    const ds = open()
    write(ds)
    expect(tracking(ds)).toEqual(WRITTEN)
    const again = open()
    expect(persistenceOf(again)!.recovery).toMatchObject({ journalRecords: 5 })
    expect(tracking(again)).toEqual(WRITTEN)
    expect(dumpData(again)).toEqual(dumpData(ds))
    // A delete after the restart: stamp 9, its row stamp 10 and the next key of __DeletedRecords.
    again.dataClass('Item').drop(1)
    expect(again.dataClass('Item').create({ name: 'new' }).get('__GlobalStamp')).toBe(11)
    expect(tracking(again).deleted.at(-1)).toEqual([3, 9, 'Item', '1'])
    expect(again.getGlobalStamp()).toBe(11)
  })

  it('comes back from a snapshot and the journal after it', async () => {
    const ds = open()
    write(ds)
    await persistenceOf(ds)!.snapshot()
    ds.dataClass('Item').update(5, { name: 'lid 2' }) // 9
    const want = { ...WRITTEN, globalStamp: 9 }
    want.items = [...WRITTEN.items.slice(0, 2), ['lid 2', 9]]
    const again = open()
    expect(persistenceOf(again)!.recovery).toMatchObject({ snapshot: 5, journalRecords: 1 })
    expect(tracking(again)).toEqual(want)
    again.dataClass('Item').drop(4)
    expect(tracking(again).deleted.at(-1)).toEqual([3, 10, 'Item', '4'])
    expect(again.getGlobalStamp()).toBe(11)
  })

  it('keeps setGlobalStamp across a restart, before and after a snapshot', async () => {
    const ds = open()
    ds.setGlobalStamp(1000)
    let again = open()
    expect(again.getGlobalStamp()).toBe(1000)
    expect(again.dataClass('Item').create({ name: 'x' }).get('__GlobalStamp')).toBe(1001)
    await persistenceOf(again)!.snapshot()
    again.setGlobalStamp(50)
    again = open()
    expect(again.getGlobalStamp()).toBe(50)
    expect(again.dataClass('Item').update(1, { name: 'y' }).get('__GlobalStamp')).toBe(51)
    await persistenceOf(again)!.snapshot()
    again = open()
    expect(again.getGlobalStamp()).toBe(51)
  })

  it('starts a folder from a data file saved with stamps at the highest of them, and keeps it', () => {
    const saved = {
      Item: [
        { ID: 1, name: 'pen', __GlobalStamp: 12 },
        { ID: 3, name: 'cap', __GlobalStamp: 30 },
      ],
      __DeletedRecords: [
        { ID: 1, __Stamp: 40, __TableNumber: 1, __TableName: 'Item', __PrimaryKey: '2' },
      ],
    }
    expect(open(saved).getGlobalStamp()).toBe(40)
    const again = open()
    expect(persistenceOf(again)!.recovery).toMatchObject({ snapshotEntities: 3, fresh: false })
    expect(tracking(again)).toEqual({
      items: [
        ['pen', 12],
        ['cap', 30],
      ],
      deleted: [[1, 40, 'Item', '2']],
      globalStamp: 40,
    })
    again.dataClass('Item').drop(3)
    expect(tracking(again).deleted.at(-1)).toEqual([2, 41, 'Item', '3'])
  })
})
