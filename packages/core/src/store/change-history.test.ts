import { describe, expect, it } from 'vitest'
import { feedStore } from '../orda/feed/change-feed.fixture.js'

const events = (h: ReturnType<typeof feedStore>['ds']['changeFeed']['history']) => {
  const out: string[] = []
  for (let p = h.start; p < h.end; p++)
    out.push(`${h.stampAt(p)} ${h.opAt(p)} ${h.tableAt(p).def.name}(${String(h.keyAt(p))})`)
  return out
}

describe('ChangeHistory', () => {
  it('keeps each change under its stamp, deletes of a commit first, as a replay numbers them', () => {
    const { ds } = feedStore({ data: { Employee: [{ ID: 1 }, { ID: 2 }] } })
    const E = ds.dataClass('Employee')
    ds.transaction(() => {
      E.create({ ID: 3 })
      E.update(1, { salary: 1 })
      E.drop(2)
    })
    expect(events(ds.changeFeed.history)).toEqual([
      '1 delete Employee(2)',
      '2 insert Employee(3)',
      '3 update Employee(1)',
    ])
    expect(ds.changeFeed.history.last).toBe(ds.globalStamp)
  })

  it('forgets the oldest past its size and knows from which stamp it is complete', () => {
    const { ds } = feedStore({ data: { Employee: [{ ID: 1 }] }, changeHistory: { size: 3 } })
    const h = ds.changeFeed.history
    for (let i = 0; i < 5; i++) ds.dataClass('Employee').update(1, { salary: i })
    expect(h.floor).toBe(2)
    expect(h.positionAfter(1)).toBeUndefined()
    expect(h.stampAt(h.positionAfter(2)!)).toBe(3)
    expect(h.positionAfter(5)).toBe(h.end)
    expect(h.positionAfter(6)).toBeUndefined()
  })

  it('starts a new epoch when stamps go back or data is loaded; a stamp set forward is a jump', () => {
    const { ds } = feedStore({ data: { Employee: [{ ID: 1 }] } })
    const h = ds.changeFeed.history
    const epoch = h.epoch
    ds.dataClass('Employee').update(1, { salary: 1 })
    ds.setGlobalStamp(100)
    expect(h.epoch).toBe(epoch)
    expect(h.positionAfter(1)).toBe(h.end)
    ds.dataClass('Employee').update(1, { salary: 2 })
    expect(events(h)).toEqual(['1 update Employee(1)', '101 update Employee(1)'])
    ds.setGlobalStamp(50)
    expect(h.epoch).toBe(epoch + 1)
    expect(events(h)).toEqual([])
    ds.loadData({ Employee: [{ ID: 7 }] })
    expect(h.epoch).toBe(epoch + 2)
  })

  it('keeps the latest stamp of each key only while tracked', () => {
    const { ds } = feedStore({ data: { Employee: [{ ID: 1 }] } })
    const h = ds.changeFeed.history
    const table = ds.dataClass('Employee').table
    ds.dataClass('Employee').update(1, { salary: 1 })
    expect(h.latestStamp(table, 1)).toBeUndefined()
    const untrack = h.track()
    expect(h.latestStamp(table, 1)).toBe(1)
    ds.dataClass('Employee').update(1, { salary: 2 })
    expect(h.latestStamp(table, 1)).toBe(2)
    untrack()
    expect(h.latestStamp(table, 1)).toBeUndefined()
  })
})
