/**
 * Uploads over HTTP: `POST /rest/$upload` then `{"ID": …}` in a write, a file POSTed straight to
 * its attribute, `{"$base64": …}` in a write, their lifetimes (time travel on the datastore's
 * clock), limits and refusals. Pictures are read back with `$imageformat=best` (the picture as
 * stored), BLOBs with `$binary=true`.
 */
import { createDatastore, ManualClock, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'

// One pixel of PNG (the demo's logo), a JPEG's first bytes, and bytes that are no picture.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const PNG = new Uint8Array(Buffer.from(PNG_BASE64, 'base64'))
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])
const TEXT = new TextEncoder().encode('%PDF-1.7 not a picture')

const MINUTE = 60_000

const model: ModelJson = {
  __NAME: 'uploads',
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'photo', type: 'image' },
        { name: 'cv', type: 'blob' },
        { name: 'extra', type: 'object' },
      ],
    },
  ],
}

type Json = Record<string, any>

const fresh = (options: RestHandlerOptions = {}) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(model, {
    data: { Employee: [1, 2, 3].map((ID) => ({ ID, name: `E${ID}` })) },
    clock,
  })
  const rest = createRestHandler(ds, options)
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await rest.request(path, init)
    const text = await res.text()
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as Json }
  }
  /** POSTs `bytes` as they are (not JSON). */
  const postBytes = (path: string, bytes: Uint8Array, type = 'application/octet-stream') =>
    send(path, { method: 'POST', headers: { 'content-type': type }, body: bytes })
  const postJson = (path: string, body: unknown) =>
    send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  /** Uploads `bytes` with `query` (`$rawPict=true`, `$binary=true`) and returns the ID. */
  const upload = async (bytes: Uint8Array, query: string, type?: string) => {
    const r = await postBytes(`/rest/$upload?${query}`, bytes, type)
    expect(r.status, r.text).toBe(200)
    return r.json.ID as string
  }
  const update = (body: unknown, query = '') =>
    postJson(`/rest/Employee?$method=update${query}`, body)
  /** The stored bytes of a picture (as stored: `best`) or a BLOB (`$binary`), and their type. */
  const stored = async (key: number, attr: 'photo' | 'cv') => {
    const query = attr === 'photo' ? '$imageformat=best&$expand=photo' : '$binary=true&$expand=cv'
    const res = await rest.request(`/rest/Employee(${key})/${attr}?${query}`)
    expect(res.status).toBe(200)
    return {
      type: res.headers.get('content-type'),
      bytes: new Uint8Array(await res.arrayBuffer()),
    }
  }
  const stamp = (key: number) => ds.dataClass('Employee').get(key)!.stamp
  return { ds, clock, rest, send, postBytes, postJson, upload, update, stored, stamp }
}

const errCodes = (json: Json): number[] => (json.__ERROR ?? []).map((e: Json) => e.errCode)

describe('POST /rest/$upload', () => {
  it('keeps a picture and answers its ID; {"ID"} in $method=update sets the attribute', async () => {
    const t = fresh()
    const r = await t.postBytes('/rest/$upload?$rawPict=true', PNG)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(Object.keys(r.json)).toEqual(['ID'])
    expect(r.json.ID).toMatch(/^[0-9A-F]{32}$/)

    const saved = await t.update({ __KEY: '1', __STAMP: 1, photo: { ID: r.json.ID } })
    expect(saved.status, saved.text).toBe(200)
    expect(saved.json.__STAMP).toBe(2)
    expect(saved.json.photo.__deferred.image).toBe(true)
    expect(await t.stored(1, 'photo')).toEqual({ type: 'image/png', bytes: PNG })
  })

  it('takes the picture type from $rawPict=<media type>, else from the bytes', async () => {
    const t = fresh()
    const jpeg = await t.upload(JPEG, '$rawPict=true')
    const declared = await t.upload(PNG, '$rawPict=image/x-custom')
    await t.update([
      { __KEY: '1', photo: { ID: jpeg } },
      { __KEY: '2', photo: { ID: declared } },
    ])
    expect((await t.stored(1, 'photo')).type).toBe('image/jpeg')
    expect(await t.stored(2, 'photo')).toEqual({ type: 'image/x-custom', bytes: PNG })
  })

  it('keeps any other file with $binary=true, of its Content-Type; the body is never JSON', async () => {
    const t = fresh()
    const pdf = await t.upload(TEXT, '$binary=true', 'application/pdf; name="cv.pdf"')
    const json = new TextEncoder().encode('{"not JSON')
    const broken = await t.upload(json, '$binary=true', 'application/json')
    const untyped = await t.send(`/rest/$upload?$binary=true`, { method: 'POST', body: TEXT })
    await t.update([
      { __KEY: '1', cv: { ID: pdf } },
      { __KEY: '2', cv: { ID: broken } },
    ])
    expect(await t.stored(1, 'cv')).toEqual({ type: 'application/pdf', bytes: TEXT })
    expect(await t.stored(2, 'cv')).toEqual({ type: 'application/json', bytes: json })
    // fetch gives a Uint8Array body no Content-Type: application/octet-stream.
    await t.update({ __KEY: '3', cv: { ID: untyped.json.ID } })
    expect((await t.stored(3, 'cv')).type).toBe('application/octet-stream')
  })

  it('refuses what is not said to be a picture or a BLOB, a picture it cannot read, a form', async () => {
    const t = fresh()
    const neither = await t.postBytes('/rest/$upload', PNG)
    expect([neither.status, errCodes(neither.json)]).toEqual([400, [9121]])
    expect(neither.json.__ERROR[0].message).toMatch(/\$rawPict=true.*\$binary=true/)
    const both = await t.postBytes('/rest/$upload?$rawPict=true&$binary=true', PNG)
    expect([both.status, errCodes(both.json)]).toEqual([400, [9121]])
    const unknown = await t.postBytes('/rest/$upload?$rawPict=true', TEXT)
    expect([unknown.status, errCodes(unknown.json)]).toEqual([400, [9121]])
    expect(unknown.json.__ERROR[0].message).toContain('$rawPict=image/')
    const form = await t.postBytes('/rest/$upload?$binary=true', TEXT, 'multipart/form-data; b=x')
    expect([form.status, errCodes(form.json)]).toEqual([400, [9121]])
  })

  it('answers GET and HEAD 405 with Allow: POST', async () => {
    const t = fresh()
    for (const method of ['GET', 'HEAD']) {
      const res = await t.rest.request('/rest/$upload?$rawPict=true', { method })
      expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST'])
    }
    const get = await t.send('/rest/$upload')
    expect(errCodes(get.json)).toEqual([9032])
  })

  it('lets an ID be used again within its lifetime, for several entities', async () => {
    const t = fresh()
    const id = await t.upload(PNG, '$rawPict=true')
    await t.update({ __KEY: '1', photo: { ID: id } })
    t.clock.advance(MINUTE)
    const again = await t.update([
      { __KEY: '2', photo: { ID: id.toLowerCase() } },
      { __KEY: '3', cv: { ID: id } },
    ])
    expect(again.json.__ENTITIES.map((e: Json) => e.__STATUS.success)).toEqual([true, true])
    expect((await t.stored(2, 'photo')).bytes).toEqual(PNG)
    // A picture given to a BLOB is its bytes, with the picture's type.
    expect(await t.stored(3, 'cv')).toEqual({ type: 'image/png', bytes: PNG })
  })

  it('creates an entity with an uploaded picture ($method=update and insert)', async () => {
    const t = fresh()
    const id = await t.upload(PNG, '$rawPict=true')
    const created = await t.update({ ID: 10, name: 'New', photo: { ID: id } })
    expect(created.status, created.text).toBe(200)
    expect((await t.stored(10, 'photo')).bytes).toEqual(PNG)
    const inserted = await t.postJson('/rest/Employee?$method=insert', { ID: 11, cv: { ID: id } })
    expect(inserted.status, inserted.text).toBe(200)
    expect((await t.stored(11, 'cv')).bytes).toEqual(PNG)
  })
})

describe('{"ID": …} that names no upload', () => {
  it('is 400 9120 once the upload outlived its 120 s, and nothing is written', async () => {
    const t = fresh()
    const id = await t.upload(PNG, '$rawPict=true')
    t.clock.advance(2 * MINUTE + 1)
    const r = await t.update({ __KEY: '1', __STAMP: 1, name: 'Changed', photo: { ID: id } })
    expect([r.status, errCodes(r.json)]).toEqual([400, [9120, 1517]])
    expect(r.json.__ERROR[0].message).toContain(`No upload has the ID "${id}"`)
    // The entity as stored, unchanged.
    expect([r.json.__KEY, r.json.name, r.json.__STAMP]).toEqual(['1', 'E1', 1])
    expect(t.stamp(1)).toBe(1)
  })

  it('lives as long as its $timeout says', async () => {
    const t = fresh()
    const id = await t.upload(PNG, '$rawPict=true&$timeout=600')
    t.clock.advance(5 * MINUTE)
    expect((await t.update({ __KEY: '1', photo: { ID: id } })).status).toBe(200)
    t.clock.advance(5 * MINUTE + 1)
    expect((await t.update({ __KEY: '2', photo: { ID: id } })).status).toBe(400)
  })

  it('is 400 9120 for an ID never given', async () => {
    const t = fresh()
    const r = await t.update({ __KEY: '2', cv: { ID: 'D507BC03E613487E9B4C2F6A0512FE50' } })
    expect([r.status, errCodes(r.json)]).toEqual([400, [9120, 1517]])
    expect(t.stamp(2)).toBe(1)
  })

  it('cancels a whole $atomic batch; without $atomic only its own item', async () => {
    const t = fresh()
    const good = await t.upload(PNG, '$rawPict=true')
    const batch = [
      { __KEY: '1', name: 'First', photo: { ID: good } },
      { __KEY: '2', photo: { ID: 'NOPE' } },
      { __KEY: '3', name: 'Third' },
    ]
    const atomic = await t.update(batch, '&$atomic=true')
    expect([atomic.status, errCodes(atomic.json)]).toEqual([400, [9120, 1517, 9041]])
    expect([t.stamp(1), t.stamp(2), t.stamp(3)]).toEqual([1, 1, 1])

    const each = await t.update(batch)
    expect(each.status).toBe(200)
    expect(each.json.__ENTITIES.map((e: Json) => e.__STATUS.success)).toEqual([true, false, true])
    expect([t.stamp(1), t.stamp(2), t.stamp(3)]).toEqual([2, 1, 2])
  })

  it('is gone once newer uploads passed maxUploadStoreBytes (the oldest are evicted)', async () => {
    const t = fresh({ maxUploadStoreBytes: 100 })
    const first = await t.upload(new Uint8Array(60), '$binary=true')
    const second = await t.upload(new Uint8Array(60), '$binary=true')
    expect(errCodes((await t.update({ __KEY: '1', cv: { ID: first } })).json)).toEqual([9120, 1517])
    expect((await t.update({ __KEY: '1', cv: { ID: second } })).status).toBe(200)
  })
})

describe('{"ID": …} and the attribute it is given to', () => {
  it('is a value like any other on an attribute that is no picture or BLOB', async () => {
    const t = fresh()
    const id = await t.upload(PNG, '$rawPict=true')
    const name = await t.update({ __KEY: '1', name: { ID: id } })
    expect([name.status, errCodes(name.json)[0]]).toEqual([400, 1570])
    const extra = await t.update({ __KEY: '2', extra: { ID: id } })
    expect(extra.json.extra).toEqual({ ID: id })
  })

  it('gives a BLOB upload to a picture only if its bytes are a picture', async () => {
    const t = fresh()
    const png = await t.upload(PNG, '$binary=true')
    const text = await t.upload(TEXT, '$binary=true', 'image/png')
    expect((await t.update({ __KEY: '1', photo: { ID: png } })).status).toBe(200)
    expect(await t.stored(1, 'photo')).toEqual({ type: 'image/png', bytes: PNG })
    const refused = await t.update({ __KEY: '2', photo: { ID: text } })
    expect([refused.status, errCodes(refused.json)]).toEqual([400, [1570, 1517]])
    expect(refused.json.__ERROR[0].message).toContain('not a picture in a recognised format')
    expect(t.stamp(2)).toBe(1)
  })
})

describe('POST /rest/{dataClass}({key})/{attribute}: the bytes themselves', () => {
  it('writes a picture with $rawPict=<type> and answers {"ok":true}; the stamp goes up', async () => {
    const t = fresh()
    const r = await t.postBytes('/rest/Employee(1)/photo?$rawPict=image/png', PNG)
    expect([r.status, r.text]).toEqual([200, '{"ok":true}'])
    expect(t.stamp(1)).toBe(2)
    expect(await t.stored(1, 'photo')).toEqual({ type: 'image/png', bytes: PNG })
    const sniffed = await t.postBytes('/rest/Employee(2)/photo?$rawPict=true', JPEG)
    expect(sniffed.status).toBe(200)
    expect((await t.stored(2, 'photo')).type).toBe('image/jpeg')
    // Without $rawPict, a picture attribute still reads the bytes as a picture.
    expect((await t.postBytes('/rest/Employee(3)/photo', PNG)).status).toBe(200)
    const notAPicture = await t.postBytes('/rest/Employee(3)/photo', TEXT)
    expect([notAPicture.status, errCodes(notAPicture.json)]).toEqual([400, [9121]])
    expect(t.stamp(3)).toBe(2)
  })

  it('writes a BLOB of the request Content-Type, $binary=true or not', async () => {
    const t = fresh()
    expect((await t.postBytes('/rest/Employee(1)/cv', TEXT, 'application/pdf')).text).toBe(
      '{"ok":true}',
    )
    expect(await t.stored(1, 'cv')).toEqual({ type: 'application/pdf', bytes: TEXT })
    expect((await t.postBytes('/rest/Employee[2]/cv?$binary=true', TEXT)).status).toBe(200)
    expect((await t.stored(2, 'cv')).type).toBe('application/octet-stream')
  })

  it('refuses another attribute, an unknown one, an unknown entity', async () => {
    const t = fresh()
    const name = await t.postBytes('/rest/Employee(1)/name', TEXT)
    expect([name.status, errCodes(name.json)]).toEqual([400, [9121]])
    expect(name.json.__ERROR[0].message).toContain('Employee.name is not one')
    const unknown = await t.postBytes('/rest/Employee(1)/nope', TEXT)
    expect([unknown.status, errCodes(unknown.json)[0]]).toEqual([404, 1500])
    const missing = await t.postBytes('/rest/Employee(99)/photo?$rawPict=true', PNG)
    expect([missing.status, errCodes(missing.json)[0]]).toEqual([404, 1542])
    // With $method, a path with an attribute is refused as before.
    const method = await t.postBytes('/rest/Employee(1)/photo?$method=update', PNG)
    expect(errCodes(method.json)).toEqual([1813])
    expect(t.stamp(1)).toBe(1)
  })

  it('is refused on an entity another session has locked', async () => {
    const t = fresh()
    t.ds.dataClass('Employee').get(1)!.lock()
    const r = await t.postBytes('/rest/Employee(1)/photo?$rawPict=true', PNG)
    expect([r.status, errCodes(r.json)[0]]).toEqual([409, 9070])
    expect(t.stamp(1)).toBe(1)
  })
})

describe('permissions', () => {
  const refusePhoto: RestHandlerOptions = {
    authorize: (_s, action, target) => !(action === 'update' && target.attribute === 'photo'),
  }

  it('asks authorize for the update of the attribute, in both forms', async () => {
    const t = fresh(refusePhoto)
    const raw = await t.postBytes('/rest/Employee(1)/photo?$rawPict=true', PNG)
    expect([raw.status, errCodes(raw.json)[0]]).toEqual([403, 1608])
    const id = await t.upload(PNG, '$rawPict=true')
    const viaId = await t.update({ __KEY: '1', photo: { ID: id } })
    expect([viaId.status, errCodes(viaId.json)[0]]).toEqual([403, 1608])
    expect(t.stamp(1)).toBe(1)
    // The BLOB is allowed.
    expect((await t.postBytes('/rest/Employee(1)/cv', TEXT)).status).toBe(200)
  })

  it('needs a logged-in session for $upload under forceLogin (401)', async () => {
    const t = fresh({ forceLogin: true, authenticate: () => null })
    const r = await t.postBytes('/rest/$upload?$rawPict=true', PNG)
    expect([r.status, errCodes(r.json)]).toEqual([401, [1558]])
  })
})

describe('{"$base64": …, "type": …} in a write', () => {
  it('sets a picture from base64 in $method=update', async () => {
    const t = fresh()
    const r = await t.update({ __KEY: '1', photo: { $base64: PNG_BASE64, type: 'image/png' } })
    expect(r.status, r.text).toBe(200)
    expect(await t.stored(1, 'photo')).toEqual({ type: 'image/png', bytes: PNG })
  })

  it('refuses bad base64 with 400 1570, and nothing is written', async () => {
    const t = fresh()
    const r = await t.update(
      [
        { __KEY: '1', name: 'X' },
        { __KEY: '2', cv: { $base64: 'no!' } },
      ],
      '&$atomic=true',
    )
    expect([r.status, errCodes(r.json)]).toEqual([400, [1570, 1517, 9041]])
    expect(r.json.__ERROR[0].message).toContain('"$base64" is not valid base64')
    expect([t.stamp(1), t.stamp(2)]).toEqual([1, 1])
  })
})

describe('size limits', () => {
  const limits: RestHandlerOptions = { maxBodyBytes: 1000, maxUploadBytes: 5000 }

  it('asks the core for the limit of each POST by its path alone', () => {
    const { rest } = fresh(limits)
    expect(rest.bodyLimit('/rest/$upload')).toBe(5000)
    expect(rest.bodyLimit('/rest/%24upload/')).toBe(5000)
    expect(rest.bodyLimit('/rest/Employee(1)/photo')).toBe(5000)
    expect(rest.bodyLimit('/rest/Employee[1]/cv')).toBe(5000)
    for (const json of [
      '/rest/Employee',
      '/rest/Employee(1)',
      '/rest/Employee(1)/name',
      '/rest/Employee/photo',
      '/rest/Nope(1)/photo',
      '/rest/$catalog/fn',
      '/rest/$upload/x',
      '/other',
    ])
      expect([json, rest.bodyLimit(json)]).toEqual([json, 1000])
    // Behind CORS too.
    expect(fresh({ ...limits, cors: { origin: '*' } }).rest.bodyLimit('/rest/$upload')).toBe(5000)
    // One upload may fill the store, no more.
    expect(fresh({ maxUploadStoreBytes: 300 }).rest.bodyLimit('/rest/$upload')).toBe(300)
    expect(fresh().rest.bodyLimit('/rest/$upload')).toBe(16 * 1024 * 1024)
    expect(fresh().rest.maxBodyBytes).toBe(2_000_000)
  })

  it('takes a file past maxBodyBytes up to maxUploadBytes; past it 413 9033, nothing stored', async () => {
    const t = fresh(limits)
    const big = new Uint8Array(4000).fill(7)
    const id = await t.upload(big, '$binary=true')
    expect((await t.update({ __KEY: '1', cv: { ID: id } })).status).toBe(200)
    expect((await t.stored(1, 'cv')).bytes).toEqual(big)

    const tooBig = await t.postBytes('/rest/$upload?$binary=true', new Uint8Array(5001))
    expect([tooBig.status, errCodes(tooBig.json)]).toEqual([413, [9033]])
    expect(tooBig.json.__ERROR[0].message).toContain('5000 bytes')
    const raw = await t.postBytes('/rest/Employee(2)/cv', new Uint8Array(5001))
    expect([raw.status, errCodes(raw.json)]).toEqual([413, [9033]])
    expect(t.stamp(2)).toBe(1)
    // A JSON body keeps its own limit.
    const json = await t.update({ __KEY: '3', name: 'x'.repeat(2000) })
    expect([json.status, errCodes(json.json)]).toEqual([413, [9033]])
  })

  it('refuses a body past maxUploadBytes handed to respond directly', () => {
    const { rest } = fresh(limits)
    const reply = rest.respond({
      method: 'POST',
      path: '/rest/$upload',
      query: '$binary=true',
      headers: {},
      body: new Uint8Array(5001),
    })
    expect('then' in reply ? undefined : reply.status).toBe(413)
  })
})
