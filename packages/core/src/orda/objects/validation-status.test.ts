/**
 * 4D 21's validation statuses: a validateSave or validateDrop refusal is status 7 "Mild Validation
 * Error" unless its error object says `fatalError: true` (8 "Serious Validation Error"); a saving
 * or dropping refusal is a serious error (4) whatever it says; the event's error is stacked in the
 * result's `errors`.
 * 4D: developer.4d.com/docs/ORDA/orda-events#error-object and /docs/API/EntityClass#save (#drop).
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { saveResultOf, saveStatusOf } from '../../txn/save-status.js'
import { gaugeStore } from './gauge.fixture.js'

/** Each label asks the events for one kind of refusal. */
function gauges() {
  const ds = gaugeStore(
    {
      validateSave() {
        const label = this.get('label')
        if (label === 'mild') return { errCode: 7001, message: 'Mild: checked again later' }
        if (label === 'fatal') return { errCode: 7002, message: 'Fatal: never', fatalError: true }
        if (label === 'legacy') return { errCode: 7003, message: 'Old name', seriousError: true }
        if (label === 'explicit-mild')
          return { errCode: 7004, message: 'Said mild', fatalError: false, seriousError: true }
      },
      saving() {
        if (this.get('label') === 'saving')
          return { errCode: 7005, message: 'The archive is down', fatalError: false }
      },
      validateDrop() {
        if ((this.get('level') as number) > 90)
          return { errCode: 7006, message: 'A full gauge stays', fatalError: true }
        if ((this.get('level') as number) > 50)
          return { errCode: 7007, message: 'Half full: think twice' }
      },
      dropping() {
        if ((this.get('level') as number) === 13)
          return { errCode: 7008, message: 'Unlucky', fatalError: true }
      },
    },
    [
      { ID: 1, label: 'full', level: 95 },
      { ID: 2, label: 'half', level: 60 },
      { ID: 3, label: 'unlucky', level: 13 },
      { ID: 4, label: 'empty', level: 0 },
    ],
  )
  return { ds, gauge: ds.dataClass('Gauge') }
}

describe('validation statuses 7 and 8 (4D 21)', () => {
  // orda-events.md "Error object": fatalError false (the default) → dk status validation failed.
  it('answers 7 "Mild Validation Error" for a validateSave refusal without fatalError', () => {
    const { gauge } = gauges()
    const e = thrown(() => gauge.create({ label: 'mild' }))
    expect(saveStatusOf(e)).toEqual({ status: 7, statusText: 'Mild Validation Error' })
    expect(saveResultOf(e)).toEqual({
      success: false,
      status: 7,
      statusText: 'Mild Validation Error',
      errors: [{ errCode: 7001, message: 'Mild: checked again later', componentSignature: 'DBEV' }],
    })
    expect(e.details).toMatchObject({ event: 'validateSave', fatalError: false })
    expect(gauge.length).toBe(4)
  })

  // orda-events.md "Error object": fatalError true → dk status serious validation error (8).
  it('answers 8 "Serious Validation Error" for fatalError: true', () => {
    const { gauge } = gauges()
    const e = thrown(() => gauge.update(4, { label: 'fatal' }))
    expect(saveResultOf(e)).toMatchObject({
      status: 8,
      statusText: 'Serious Validation Error',
      errors: [{ errCode: 7002, componentSignature: 'DBEV' }],
    })
    expect(gauge.get(4)!.get('label')).toBe('empty')
  })

  // 4D 21's first orda-events pages named the property seriousError; fatalError wins when both are given.
  it('reads seriousError when fatalError is absent, fatalError first', () => {
    const { gauge } = gauges()
    expect(saveStatusOf(thrown(() => gauge.create({ label: 'legacy' }))).status).toBe(8)
    expect(saveStatusOf(thrown(() => gauge.create({ label: 'explicit-mild' }))).status).toBe(7)
  })

  // orda-events.md: a saving/dropping error is "always raised as a serious error (dk status
  // serious error)" whatever fatalError says; EntityClass.md#save: dk status serious error is 4.
  it('answers 4 "Other error" for a saving or dropping refusal, whatever fatalError says', () => {
    const { gauge } = gauges()
    const saving = thrown(() => gauge.create({ label: 'saving' }))
    expect(saveResultOf(saving)).toMatchObject({
      status: 4,
      statusText: 'Other error',
      errors: [{ errCode: 7005, message: 'The archive is down', componentSignature: 'DBEV' }],
    })
    const dropping = thrown(() => gauge.get(3)!.dropOrFail())
    expect(saveStatusOf(dropping)).toEqual({ status: 4, statusText: 'Other error' })
    expect(gauge.get(3)).not.toBeNull()
  })

  // EntityClass.md#drop (21: "Added status 7 and 8"): validateDrop refusals are mild or serious too.
  it('answers 7 or 8 for a validateDrop refusal', () => {
    const { gauge } = gauges()
    expect(saveStatusOf(thrown(() => gauge.get(1)!.dropOrFail())).status).toBe(8)
    expect(saveStatusOf(thrown(() => gauge.get(2)!.dropOrFail())).status).toBe(7)
    expect(gauge.length).toBe(4)
  })

  // EntityClass.md#save: errors are listed for serious errors, not for a stamp or lock status.
  it('lists no errors for the statuses that are not errors of the data', () => {
    const { gauge } = gauges()
    const stale = gauge.get(4)!
    gauge.update(4, { level: 1 })
    const e = thrown(() => stale.edit({ level: 2 }).saveOrFail())
    expect(saveResultOf(e)).toEqual({ success: false, status: 2, statusText: 'Stamp has changed' })
  })
})
