/**
 * Issue 52, item 7: an entity function that writes `this.price = …`, as 4D code does, got the raw
 * "Cannot add property price, object is not extensible" (422). An entity is a saved version that
 * every reader shares: the refusal names the draft to write through (9161), and writing through
 * it works.
 */
import { createDatastore, defineFunctions, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Product',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'price', type: 'number' },
      ],
    },
  ],
}

const functions = defineFunctions({
  dataClasses: {
    Product: {
      entity: {
        // As a 4D developer writes it: This.price:=This.price*(1+$pct/100); This.save()
        discountInPlace: {
          exposed: true,
          params: ['number'],
          call(pct: number) {
            ;(this as unknown as { price: number }).price *= 1 - pct / 100
            return this
          },
        },
        // Through a draft, as the refusal says.
        discount: {
          exposed: true,
          params: ['number'],
          call(pct: number) {
            const draft = this.edit() as unknown as { price: number; saveOrFail(): unknown }
            draft.price = (this.get('price') as number) * (1 - pct / 100)
            return draft.saveOrFail()
          },
        },
      },
    },
  },
})

const setup = () => {
  const ds = createDatastore(model, { data: { Product: [{ ID: 1, price: 100 }] }, functions })
  const rest = createRestHandler(ds)
  const post = async (path: string, body: unknown) => {
    const res = await rest.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as Record<string, unknown> }
  }
  return { ds, post }
}

describe('an entity function that sets an attribute of this', () => {
  it('is refused 422 with 9161, a message that names edit(), and nothing saved', async () => {
    const { ds, post } = setup()
    const r = await post('/rest/Product(1)/discountInPlace', [10])
    expect(r.status).toBe(422)
    expect(r.json.__ERROR).toEqual([
      expect.objectContaining({
        errCode: 9161,
        message:
          '"Product.price" cannot be set on an entity: an entity is a saved version that every ' +
          'reader shares; change it through a draft: entity.edit({ price: … }).save()',
      }),
    ])
    expect(ds.dataClass('Product').get(1)!.get('price')).toBe(100)
  })

  it('works through the draft the message names', async () => {
    const { post } = setup()
    const r = await post('/rest/Product(1)/discount', [10])
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ __KEY: '1', __STAMP: 2, price: 90 })
  })
})
