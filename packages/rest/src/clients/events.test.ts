/**
 * Issue 32: ORDA entity events (4D 20 R10 and 21) over REST: a refusing `validateSave`, alone and
 * inside `$atomic`, a `saving` that sets a value, an `afterSave` that sees the stamp, a refusing
 * `validateDrop`, and an attribute-level `touched` for values a request sends.
 */
import {
  createDatastore,
  defineFunctions,
  ManualClock,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'code', type: 'string' },
      ],
    },
  ],
}
const data = (): DataFile => ({
  Tree: [
    { ID: 1, species: 'Oak', age: 120, code: 'OAK' },
    { ID: 2, species: 'Elm', age: 8, code: 'ELM' },
  ],
})

function setup() {
  const log: string[] = []
  const functions = defineFunctions({
    dataClasses: {
      Tree: {
        events: {
          validateSave() {
            if (this.get('species') === 'Kudzu')
              return { errCode: 4001, message: 'Kudzu is not allowed', seriousError: true }
          },
          saving() {
            this.set('code', String(this.get('species')).slice(0, 3).toUpperCase())
          },
          afterSave() {
            log.push(`afterSave ${String(this.getKey())} stamp ${this.getStamp()}`)
          },
          validateDrop() {
            if ((this.get('age') as number) > 100)
              return { errCode: 4002, message: 'A tree over 100 years old stays' }
          },
        },
        attributeEvents: {
          age: {
            touched(event) {
              log.push(`touched ${event.attributeName} → ${String(this.get('age'))}`)
            },
          },
        },
      },
    },
  })
  const ds = createDatastore(model, {
    data: data(),
    functions,
    clock: new ManualClock(Date.UTC(2024, 2, 15)),
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
  return { ds, post, log, trees: ds.dataClass('Tree') }
}

describe('entity events over REST', () => {
  it("refuses a create its validateSave refuses, with the event's error first", async () => {
    const { post, trees, log } = setup()
    const r = await post('/rest/Tree?$method=update', { species: 'Kudzu' })
    expect(r.status).toBe(400)
    expect(r.json.__ERROR.slice(0, 2)).toEqual([
      { message: 'Kudzu is not allowed', componentSignature: 'DBEV', errCode: 4001 },
      expect.objectContaining({ errCode: 1534 }),
    ])
    expect(trees.length).toBe(2)
    expect(log).toEqual([])
  })

  it('refuses a whole $atomic batch for one refused entity', async () => {
    const { post, trees, log } = setup()
    const r = await post('/rest/Tree?$method=update&$atomic=true', [
      { species: 'Birch' },
      { __KEY: '2', age: 9 },
      { species: 'Kudzu' },
    ])
    expect(r.status).toBe(400)
    const codes = (r.json.__ERROR as { errCode: number }[]).map((e) => e.errCode)
    expect(codes[0]).toBe(4001)
    expect(codes.at(-1)).toBe(9041)
    expect(trees.length).toBe(2)
    expect(trees.get(2)!.get('age')).toBe(8)
    expect(log.filter((l) => l.startsWith('afterSave'))).toEqual([])
  })

  it('saves what saving sets, and afterSave sees the stamp once committed', async () => {
    const { post, log } = setup()
    const created = await post('/rest/Tree?$method=update', { species: 'Birch', age: 3 })
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({ __KEY: '3', __STAMP: 1, code: 'BIR' })
    const updated = await post('/rest/Tree?$method=update', { __KEY: '2', __STAMP: 1, age: 9 })
    expect(updated.json).toMatchObject({ __STAMP: 2, age: 9, code: 'ELM' })
    expect(log).toEqual([
      'touched age → 3',
      'afterSave 3 stamp 1',
      'touched age → 9',
      'afterSave 2 stamp 2',
    ])
  })

  it('refuses a delete its validateDrop refuses, and deletes otherwise', async () => {
    const { post, trees } = setup()
    const refused = await post('/rest/Tree(1)?$method=delete', {})
    expect(refused.status).toBe(400)
    expect(refused.json.__ERROR[0]).toEqual({
      message: 'A tree over 100 years old stays',
      componentSignature: 'DBEV',
      errCode: 4002,
    })
    expect(trees.get(1)).not.toBeNull()
    expect((await post('/rest/Tree(2)?$method=delete', {})).status).toBe(200)
    expect(trees.get(2)).toBeNull()
  })
})
