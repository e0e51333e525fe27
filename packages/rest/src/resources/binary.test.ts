import { createDatastore, ManualClock, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

// One pixel of PNG, and a small BLOB.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const model: ModelJson = {
  __NAME: 'files',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'logo', type: 'image' },
        { name: 'brochure', type: 'blob' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
}

const setup = () => {
  const ds = createDatastore(model, {
    data: {
      Company: [
        {
          ID: 1,
          logo: { $base64: PNG, type: 'image/png' },
          brochure: { $base64: 'AAEC', type: 'application/pdf' },
        },
        { ID: 2 },
      ],
      Employee: [{ ID: 1, employer: 1 }],
    },
    clock: new ManualClock(),
  })
  return createRestHandler(ds)
}

describe('pictures and BLOBs at their own URI', () => {
  it('answers the picture with its media type when the attribute is expanded', async () => {
    const rest = setup()
    const company = (await (await rest.request('/rest/Company(1)')).json()) as any
    const uri: string = company.logo.__deferred.uri
    expect(uri).toBe('/rest/Company[1]/logo?$imageformat=best&$version=1&$expand=logo')
    const res = await rest.request(uri)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await res.arrayBuffer()).toString('base64')).toBe(PNG)
    expect((await rest.request('/rest/Company(1)/logo?$imageformat=png&$expand=logo')).status).toBe(
      200,
    )
    const convert = await rest.request('/rest/Company(1)/logo?$imageformat=jpeg&$expand=logo')
    expect(convert.status).toBe(501)
  })

  it('answers a BLOB with $binary=true as an attachment', async () => {
    const rest = setup()
    const company = (await (await rest.request('/rest/Company(1)')).json()) as any
    const res = await rest.request(company.brochure.__deferred.uri)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="brochure"')
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 1, 2])
  })

  it('answers an empty picture with an empty body, and the attribute alone without $expand', async () => {
    const rest = setup()
    const empty = await rest.request('/rest/Company(2)/logo?$imageformat=best&$expand=logo')
    expect([empty.status, (await empty.arrayBuffer()).byteLength]).toEqual([200, 0])
    const json = (await (await rest.request('/rest/Company(1)/logo')).json()) as any
    expect(json.logo.__deferred.image).toBe(true)
  })

  it('answers every __deferred.uri of every entity', async () => {
    const rest = setup()
    const uris: string[] = []
    for (const path of ['/rest/Company', '/rest/Employee']) {
      const page = (await (await rest.request(path)).json()) as any
      for (const e of page.__ENTITIES)
        for (const v of Object.values(e))
          if ((v as any)?.__deferred) uris.push((v as any).__deferred.uri)
    }
    expect(uris.length).toBe(5)
    for (const uri of uris) expect((await rest.request(uri)).status, uri).toBe(200)
  })
})
