/**
 * The stamps of a commit's changes agree across processes: a replay of the log records of a writer
 * (a journal at start-up, a cluster follower's catch-up, several records in one commit) tells its
 * listeners each change under the stamp the writer gave it.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { applyLogRecords, logRecordOf } from './change-log.js'
import type { LogRecord } from './log-record.js'
import { changeStamps } from './change-stamps.js'
import { commitStamps } from './store.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'n', type: 'long' },
        { name: '__GlobalStamp', type: 'long64' },
      ],
    },
    { name: 'Note', attributes: [{ name: 'ID', type: 'long', autosequence: true }] },
  ],
}

/** `key@stamp` for each change a listener of `ds` is told of, per commit. */
function listen(ds: ReturnType<typeof createDatastore>): string[][] {
  const seen: string[][] = []
  ds.onCommit((changes, info) => {
    const stamps = commitStamps(changes, info)
    seen.push(
      changes.map((c, i) => {
        const key =
          c.op === 'insert' ? c.record.key : c.op === 'update' ? c.after.key : c.before.key
        return `${c.op} ${c.table.def.name}(${String(key)})@${stamps[i]}`
      }),
    )
  })
  return seen
}

describe('change stamps', () => {
  it('deletes first, then the others in order', () => {
    const ops = ['insert', 'delete', 'update', 'delete'].map((op) => ({ op }) as never)
    expect(changeStamps(ops, 10)).toEqual([13, 11, 14, 12])
  })

  it('a replay of several records in one commit gives each change the writer’s stamp', () => {
    const writer = createDatastore(model)
    const records: LogRecord[] = []
    writer.onCommit((changes, info) => records.push(logRecordOf(writer, changes, info)))
    const written = listen(writer)
    const items = writer.dataClass('Item')
    items.create({ n: 1 })
    items.create({ n: 2 })
    writer.dataClass('Note').create({})
    writer.transaction(() => {
      items.update(1, { n: 10 })
      items.get(2)!.dropOrFail()
    })
    writer.setGlobalStamp(100)
    items.create({ n: 3 })

    const follower = createDatastore(model)
    const replayed = listen(follower)
    applyLogRecords(follower, records)
    const flat = (commits: string[][]) => commits.flat().sort()
    expect(flat(replayed)).toEqual(flat(written))
    expect(follower.getGlobalStamp()).toBe(writer.getGlobalStamp())
    // The stamps the records hold in the rows agree with those the listeners were told.
    expect(
      follower
        .dataClass('Item')
        .all()
        .toArray()
        .map((e) => e.get('__GlobalStamp')),
    ).toEqual(
      writer
        .dataClass('Item')
        .all()
        .toArray()
        .map((e) => e.get('__GlobalStamp')),
    )
  })
})
