/**
 * 4D 21's validation statuses over REST: the `__STATUS` of a write an entity event refused is 7
 * "Mild Validation Error" or 8 "Serious Validation Error" by the validate event's `fatalError`, 4
 * "Other error" for a saving or dropping event; the event's error leads `__ERROR`.
 * 4D: developer.4d.com/docs/ORDA/orda-events#error-object and /docs/API/EntityClass#save (#drop).
 */
import { createDatastore, defineFunctions, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Dam',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'river', type: 'string' },
        { name: 'height', type: 'long' },
      ],
    },
  ],
}

function setup() {
  const functions = defineFunctions({
    dataClasses: {
      Dam: {
        events: {
          validateSave() {
            const height = this.get('height') as number
            if (height > 300) return { errCode: 8101, message: 'Too high', fatalError: true }
            if (height > 200) return { errCode: 8102, message: 'High: reviewed first' }
          },
          saving() {
            if (this.get('river') === 'Styx')
              return { errCode: 8103, message: 'No permit office', fatalError: false }
          },
          validateDrop() {
            if ((this.get('height') as number) > 100)
              return { errCode: 8104, message: 'A tall dam stays', fatalError: true }
            if ((this.get('height') as number) > 50)
              return { errCode: 8105, message: 'Drain it first' }
          },
        },
      },
    },
  })
  const ds = createDatastore(model, {
    functions,
    data: {
      Dam: [
        { ID: 1, river: 'Rhône', height: 150 },
        { ID: 2, river: 'Aar', height: 60 },
        { ID: 3, river: 'Inn', height: 20 },
      ],
    },
  })
  const rest = createRestHandler(ds)
  const post = async (path: string, body: unknown) => {
    const res = await rest.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }
  return { post, dams: ds.dataClass('Dam') }
}

const dbev = (errCode: number, message: string) => ({
  message,
  componentSignature: 'DBEV',
  errCode,
})

describe('validation statuses 7 and 8 over REST (4D 21)', () => {
  // orda-events.md "Error object": fatalError false (default) → 7 "Mild Validation Error".
  it('answers a create its validateSave refuses mildly with __STATUS 7', async () => {
    const { post, dams } = setup()
    const r = await post('/rest/Dam?$method=update', { river: 'Loire', height: 250 })
    expect(r.status).toBe(400)
    expect(r.json.__STATUS).toEqual({
      status: 7,
      statusText: 'Mild Validation Error',
      success: false,
    })
    expect(r.json.__ERROR[0]).toEqual(dbev(8102, 'High: reviewed first'))
    expect(dams.length).toBe(3)
  })

  // orda-events.md "Error object": fatalError true → 8 "Serious Validation Error"; an update of a
  // stored entity answers it as stored, with the status (EntityClass.md#save).
  it('answers an update refused with fatalError: true with __STATUS 8', async () => {
    const { post, dams } = setup()
    const r = await post('/rest/Dam?$method=update', { __KEY: '3', __STAMP: 1, height: 400 })
    expect(r.json.__STATUS).toEqual({
      status: 8,
      statusText: 'Serious Validation Error',
      success: false,
    })
    expect(r.json.height).toBe(20)
    expect(r.json.__ERROR[0]).toEqual(dbev(8101, 'Too high'))
    expect(dams.get(3)!.get('height')).toBe(20)
  })

  // orda-events.md: a saving event's error is "always raised as a serious error (dk status
  // serious error)" whatever fatalError says: 4 "Other error" (EntityClass.md#save).
  it("answers a saving event's refusal with __STATUS 4 whatever fatalError says", async () => {
    const { post } = setup()
    const r = await post('/rest/Dam?$method=update', { river: 'Styx', height: 10 })
    expect(r.json.__STATUS).toEqual({ status: 4, statusText: 'Other error', success: false })
    expect(r.json.__ERROR[0]).toEqual(dbev(8103, 'No permit office'))
  })

  // EntityClass.md#drop (21: "Added status 7 and 8"): each key's __STATUS in a delete by keys.
  it('answers each key of a delete its validateDrop refuses with 8 or 7', async () => {
    const { post, dams } = setup()
    const r = await post('/rest/Dam?$method=delete', [{ __KEY: 1 }, { __KEY: 2 }, { __KEY: 3 }])
    expect(r.status).toBe(200)
    expect(r.json.__ENTITIES).toEqual([
      {
        __KEY: '1',
        __STATUS: { status: 8, statusText: 'Serious Validation Error', success: false },
        __ERROR: [dbev(8104, 'A tall dam stays')],
      },
      {
        __KEY: '2',
        __STATUS: { status: 7, statusText: 'Mild Validation Error', success: false },
        __ERROR: [dbev(8105, 'Drain it first')],
      },
      { __KEY: '3', __STATUS: { success: true } },
    ])
    expect(dams.length).toBe(2)
  })
})
