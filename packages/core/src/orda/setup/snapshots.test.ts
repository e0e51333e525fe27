/**
 * `ds.restore(snapshot)` beyond the data (the data itself: store/data-snapshot.prop.test.ts): what
 * refers to rows is cleared (entity sets, locks), sessions stay, commit listeners hear of the
 * entities that changed, prepared queries keep answering, and misuse is refused.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { Change } from '../../store/changes.js'
import { createDatastore } from '../objects/datastore.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const setup = () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const ds = createDatastore(MODEL, {
    clock,
    data: { Item: ['a', 'b', 'c'].map((name, i) => ({ ID: i + 1, name })) },
  })
  return { ds, clock, Item: ds.dataClass('Item'), initial: ds.snapshot() }
}

describe('ds.restore', () => {
  it('clears the entity sets: their row ids would name other entities afterwards', () => {
    const { ds, Item, initial } = setup()
    const created = Item.create({ name: 'd' })
    const set = Item.query('name = "d"').keep()
    expect(ds.entitySets.get(set.id)?.selection.at(0)?.key).toBe(created.key)
    ds.restore(initial)
    // The row id of "d" is free again: a new entity takes it.
    const other = Item.create({ name: 'e' })
    expect(other.rowId).toBe(created.rowId)
    expect(ds.entitySets.get(set.id)).toBeUndefined()
    expect(ds.entitySets.size).toBe(0)
  })

  it('releases every lock, and keeps the sessions', () => {
    const { ds, Item, initial } = setup()
    const session = ds.sessions.open()
    const owner = { id: session.id, kind: 'session' as const }
    expect(Item.get(1)!.lock({ owner })).toEqual({ success: true })
    expect(ds.locks.size).toBe(1)
    ds.restore(initial)
    expect(ds.locks.size).toBe(0)
    expect(ds.sessions.peek(session.id)).toBeDefined()
    // Anyone may write the entity again.
    expect(Item.update(1, { name: 'z' }).get('name')).toBe('z')
  })

  it('tells commit listeners of each entity that changed: deleted, inserted, updated', () => {
    const { ds, Item, initial } = setup()
    Item.update(1, { name: 'A' })
    Item.drop(2)
    Item.create({ name: 'd' })
    const heard: Change[][] = []
    ds.onCommit((changes) => heard.push([...changes]))
    ds.restore(initial)
    expect(heard).toHaveLength(1)
    const seen = heard[0]!.map((c) =>
      c.op === 'insert'
        ? ['insert', c.record.key, c.record.values.name]
        : c.op === 'delete'
          ? ['delete', c.before.key, c.before.values.name]
          : ['update', c.before.key, c.before.values.name, c.after.values.name],
    )
    expect(seen).toEqual([
      ['update', 1, 'A', 'a'],
      ['insert', 2, 'b'],
      ['delete', 4, 'd'],
    ])
    // Nothing changed since: a second restore has nothing to say.
    ds.restore(initial)
    expect(heard).toHaveLength(1)
  })

  it('moves the global stamp back, and the clock does not matter', () => {
    const { ds, clock, Item, initial } = setup()
    expect(initial.takenAt).toBe(clock.now())
    clock.advance(5000)
    Item.update(1, { name: 'A' })
    Item.create({ name: 'd' })
    expect(ds.globalStamp).toBe(2)
    ds.restore(initial)
    expect(ds.globalStamp).toBe(0)
    expect(Item.get(1)!.getTimestamp()).toBe(initial.takenAt)
  })

  it('keeps prepared queries right across index changes and restores', () => {
    const { ds, Item, initial } = setup()
    const byName = Item.prepare('name = :1')
    expect(byName.direct).toBe(true)
    Item.dropIndex('name')
    Item.create({ name: 'b' })
    expect(byName.select('b').length).toBe(2)
    ds.restore(initial)
    // The index is back, and the lookup reads it, not the one it had chosen before.
    expect(Item.indexes().map((x) => x.attribute)).toContain('name')
    expect(byName.direct).toBe(true)
    expect(
      byName
        .select('b')
        .toArray()
        .map((e) => e.key),
    ).toEqual([2])
  })

  it('is refused inside a transaction and for another datastore’s snapshot', () => {
    const { ds, Item, initial } = setup()
    expect(() => ds.transaction(() => ds.restore(initial))).toThrow(/transaction is open/)
    expect(Item.all().length).toBe(3)
    const other = setup()
    expect(() => ds.restore(other.initial)).toThrow(TypeError)
    expect(() => ds.restore({} as never)).toThrow(/not taken from this datastore/)
  })
})
