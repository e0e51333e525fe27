/**
 * A draft's `saveSteps()` and an entity's `dropSteps()`: `save()` and `drop()` as work in steps
 * (what 4D code's `$e.save()` and `$e.drop()` run in a call in slices), their events' steps gone
 * into; they answer as `save()` and `drop()` answer, and a write of the entity between two steps
 * refuses them by the stamp (status 2), as in any optimistic write.
 */
import { describe, expect, it } from 'vitest'
import { gaugeStore } from './gauge.fixture.js'
import { driven } from './steps.fixture.js'

// The saving event refuses the label 'refused', and marks every other label it saves; its steps
// do the same after three stops.
function refusal(self: { get(n: string): unknown; set(n: string, v: unknown): void }) {
  if (self.get('label') === 'refused') return { errCode: 7005, message: 'Not this one' }
  self.set('label', `${String(self.get('label'))}!`)
  return undefined
}
// The dropping event refuses a level of 13, after two stops in its steps.
const dropping = Object.assign(
  function (this: never) {
    return unlucky(this)
  },
  {
    *steps(this: never) {
      yield
      yield
      return unlucky(this)
    },
  },
)
function unlucky(self: { get(n: string): unknown }) {
  if (self.get('level') === 13) return { errCode: 7008, message: 'Unlucky' }
  return undefined
}
const saving = Object.assign(
  function (this: never) {
    return refusal(this)
  },
  {
    *steps(this: never) {
      for (let i = 0; i < 3; i++) yield
      return refusal(this)
    },
  },
)

function gauges() {
  const ds = gaugeStore({ saving, dropping }, [
    { ID: 1, label: 'one', level: 1 },
    { ID: 2, label: 'two', level: 13 },
  ])
  return ds.dataClass('Gauge')
}

describe('a draft saved in steps', () => {
  it('goes into its events’ steps, saves, and answers as save() does', () => {
    const gauge = gauges()
    const draft = gauge.get(1)!.edit({ level: 2 })
    const { value, stops } = driven(draft.saveSteps())
    expect(stops).toBe(3)
    expect(value).toEqual({ success: true })
    expect(gauge.get(1)!.toObject('label,level')).toEqual({ label: 'one!', level: 2 })
    expect(draft.base!.getStamp()).toBe(gauge.get(1)!.getStamp())
  })

  it('answers an event’s refusal as save() answers it', () => {
    const gauge = gauges()
    const plain = gauge.new({ label: 'refused' }).save()
    const { value } = driven(gauge.new({ label: 'refused' }).saveSteps())
    expect(plain.success).toBe(false)
    expect(value).toEqual(plain)
  })

  it('answers at once what needs no write', () => {
    const gauge = gauges()
    expect(driven(gauge.get(1)!.edit({}).saveSteps())).toEqual({
      value: { success: true },
      stops: 0,
    })
  })

  it('is refused by the stamp when the entity was written between two steps', () => {
    const gauge = gauges()
    const work = gauge.get(1)!.edit({ level: 3 }).saveSteps()
    work.next()
    gauge.update(1, { level: 9 })
    const { value } = driven(work)
    expect(value).toMatchObject({ success: false, status: 2 })
    expect(gauge.get(1)!.toObject('level')).toEqual({ level: 9 })
  })

  it('drops in steps, and answers a dropping event’s refusal as drop() does', () => {
    const gauge = gauges()
    expect(driven(gauge.get(1)!.dropSteps())).toEqual({ value: { success: true }, stops: 2 })
    expect(gauge.get(1)).toBeNull()
    const refused = driven(gauge.get(2)!.dropSteps()).value
    expect(refused).toEqual(gauge.get(2)!.drop())
    expect(refused.success).toBe(false)
  })
})
