// Pictures and BLOBs at their own URI, over HTTP: every $imageformat spelling decoded back
// (signature and size), `{}` for what cannot be given, tags and 304s, versions, $rawPict, BLOB bytes.
import { createDatastore, ManualClock, type ModelJson } from '@entistore/core'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import type { PictureConverter } from '../pictures/converter.js'
import { serveOnSocket } from '../node/serve.fixture.js'

const model: ModelJson = {
  __NAME: 'files',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
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

/** A 12×7 picture, red, in `format`. */
const picture = (format: 'png' | 'gif' | 'jpeg' | 'tiff') =>
  sharp({ create: { width: 12, height: 7, channels: 3, background: '#c0392b' } })
    .toFormat(format)
    .toBuffer()
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
// Bytes with every value, a length that is not a multiple of 3.
const BLOB = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7919) % 256)

const setup = async (options: RestHandlerOptions = {}) => {
  const png = await picture('png')
  const clock = new ManualClock()
  const ds = createDatastore(model, {
    data: {
      Company: [
        {
          ID: 1,
          logo: { $base64: base64(png), type: 'image/png' },
          brochure: { $base64: base64(BLOB), type: 'application/pdf' },
        },
        { ID: 2 },
        {
          ID: 3,
          logo: { $base64: base64(new TextEncoder().encode('not a picture')), type: 'image/png' },
        },
        { ID: 4, logo: { $base64: base64(await picture('jpeg')), type: 'image/jpeg' } },
      ],
      Employee: [{ ID: 1, employer: 1 }],
    },
    clock,
  })
  return { rest: createRestHandler(ds, options), ds, png }
}

const SIGNATURES: Record<string, number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/gif': [0x47, 0x49, 0x46, 0x38],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/tiff': [0x49, 0x49, 0x2a, 0x00],
}

/** The reply's bytes, checked to be a 12×7 picture of `type` by its signature and by decoding. */
async function expectPicture(res: Response, type: string): Promise<Uint8Array> {
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe(type)
  const bytes = new Uint8Array(await res.arrayBuffer())
  const signature = SIGNATURES[type]!
  expect([...bytes.subarray(0, signature.length)]).toEqual(signature)
  const meta = await sharp(bytes).metadata()
  expect([meta.format, meta.width, meta.height]).toEqual([
    type === 'image/jpeg' ? 'jpeg' : type.slice(6),
    12,
    7,
  ])
  return bytes
}

const logo = (format: string, id = 1) =>
  `/rest/Company(${id})/logo?$imageformat=${encodeURIComponent(format)}&$version=1&$expand=logo`

describe('a picture in the format asked', () => {
  it.each([
    ['.gif', 'image/gif'],
    ['image/gif', 'image/gif'],
    ['gif', 'image/gif'],
    ['.png', 'image/png'],
    ['image/png', 'image/png'],
    ['.jpeg', 'image/jpeg'],
    ['image/jpeg', 'image/jpeg'],
    ['jpeg', 'image/jpeg'],
    ['JPG', 'image/jpeg'],
    ['.tiff', 'image/tiff'],
    ['image/tiff', 'image/tiff'],
    ['"tif"', 'image/tiff'],
  ])('answers $imageformat=%s as %s', async (format, type) => {
    const { rest } = await setup()
    await expectPicture(await rest.request(logo(format)), type)
  })

  it('answers best, an absent format and the stored format with the stored bytes, converting nothing', async () => {
    let calls = 0
    const counting: PictureConverter = {
      convert: () => {
        calls++
        return Promise.reject(new Error('not called'))
      },
    }
    const { rest, png } = await setup({ pictures: { converter: counting } })
    for (const uri of [
      logo('best'),
      '/rest/Company(1)/logo?$expand=logo',
      logo('.png'),
      logo('image/png'),
    ]) {
      const res = await rest.request(uri)
      expect(res.headers.get('content-type'), uri).toBe('image/png')
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(png))
    }
    // A JPEG asked in JPEG, spelled another way, is sent as stored too.
    await expectPicture(await rest.request(logo('jpg', 4)), 'image/jpeg')
    expect(calls).toBe(0)
  })

  it.each(['.webp', 'bmp', 'image/svg+xml', 'nonsense', ''])(
    'answers an unsupported format (%s) with {}',
    async (format) => {
      const { rest } = await setup()
      const res = await rest.request(logo(format))
      expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
        200,
        'application/json; charset=utf-8',
        '{}',
      ])
    },
  )

  it('answers a null picture and a corrupt one with {}, in any format', async () => {
    const { rest } = await setup()
    for (const uri of [logo('best', 2), logo('.png', 2), logo('jpeg', 3), logo('.gif', 3)]) {
      const res = await rest.request(uri)
      expect([res.status, await res.text()], uri).toEqual([200, '{}'])
    }
    // The corrupt one as stored is still its bytes: best never decodes.
    expect((await rest.request(logo('best', 3))).headers.get('content-type')).toBe('image/png')
  })

  it('converts a picture once: later requests come from the cache, the same bytes', async () => {
    const { rest } = await setup()
    const [a, b] = await Promise.all([rest.request(logo('.gif')), rest.request(logo('image/gif'))])
    const first = await expectPicture(a!, 'image/gif')
    expect(await expectPicture(b!, 'image/gif')).toEqual(first)
    expect(await expectPicture(await rest.request(logo('gif')), 'image/gif')).toEqual(first)
  })

  it('counts its conversions: two requests at once make one, a cache of 0 bytes makes one each', async () => {
    let calls = 0
    const converter: PictureConverter = {
      convert: async (input, type) => {
        calls++
        return sharp(input)
          .toFormat(type.slice(6) as 'gif')
          .toBuffer()
      },
    }
    const { rest } = await setup({ pictures: { converter } })
    await Promise.all([rest.request(logo('.gif')), rest.request(logo('.gif'))])
    await rest.request(logo('.gif'))
    expect(calls).toBe(1)
    const uncached = await setup({ pictures: { converter, cacheBytes: 0 } })
    await uncached.rest.request(logo('.gif'))
    await uncached.rest.request(logo('.gif'))
    expect(calls).toBe(3)
  })

  it('says so with 501 (9110) when the converter cannot load, and still serves best', async () => {
    const { sharpConverter } = await import('../pictures/converter.js')
    const converter = sharpConverter({ load: () => Promise.reject(new Error('no libvips here')) })
    const { rest } = await setup({ pictures: { converter } })
    const res = await rest.request(logo('.gif'))
    expect(res.status).toBe(501)
    const body = (await res.json()) as { __ERROR: { errCode: number; message: string }[] }
    expect(body.__ERROR[0]!.errCode).toBe(9110)
    expect(body.__ERROR[0]!.message).toContain('sharp')
    expect(body.__ERROR[0]!.message).toContain('no libvips here')
    expect((await rest.request(logo('best'))).status).toBe(200)
  })

  it('refuses a picture larger than maxPixels with 400 (9112), naming its size; 84 pixels pass', async () => {
    const { sharpConverter } = await import('../pictures/converter.js')
    const { rest } = await setup({ pictures: { converter: sharpConverter({ maxPixels: 83 }) } })
    const res = await rest.request(logo('.gif'))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      __ERROR: [
        {
          message:
            'The picture is 12 × 7 pixels, more than the 83 a conversion ($imageformat) decodes; $imageformat=best serves it as stored',
          componentSignature: 'enti',
          errCode: 9112,
        },
      ],
    })
    expect((await rest.request(logo('best'))).status).toBe(200)
    const at = await setup({ pictures: { converter: sharpConverter({ maxPixels: 84 }) } })
    await expectPicture(await at.rest.request(logo('.gif')), 'image/gif')
  })
})

describe('tags, versions and 304', () => {
  it('tags each reply; If-None-Match with the tag answers 304 without the bytes', async () => {
    const { rest } = await setup()
    for (const uri of [
      logo('best'),
      logo('.gif'),
      '/rest/Company(1)/brochure?$binary=true&$expand=brochure',
    ]) {
      const res = await rest.request(uri)
      const tag = res.headers.get('etag')!
      expect(tag, uri).toMatch(/^"[0-9a-z.]+"$/)
      expect(res.headers.get('cache-control')).toBe('private, no-cache')
      expect(res.headers.get('content-security-policy')).toContain('sandbox')
      const again = await rest.request(uri, { headers: { 'if-none-match': tag } })
      expect([
        again.status,
        again.headers.get('etag'),
        (await again.arrayBuffer()).byteLength,
      ]).toEqual([304, tag, 0])
      const weak = await rest.request(uri, { headers: { 'if-none-match': `"x", W/${tag}` } })
      expect(weak.status).toBe(304)
      const other = await rest.request(uri, { headers: { 'if-none-match': '"other"' } })
      expect(other.status).toBe(200)
    }
    // A format's conversion is another resource: another tag.
    const best = (await rest.request(logo('best'))).headers.get('etag')
    const gif = (await rest.request(logo('.gif'))).headers.get('etag')
    expect(gif).not.toBe(best)
  })

  it('gives a written picture a new version in its URI and a new tag, and the old tag gets the new bytes', async () => {
    const { rest, ds } = await setup()
    const before = (await (await rest.request('/rest/Company(1)')).json()) as any
    expect(before.logo.__deferred.uri).toContain('$version=1&')
    const old = await rest.request(before.logo.__deferred.uri)
    const oldTag = old.headers.get('etag')!
    const gif = await picture('gif')
    const res = await rest.request('/rest/Company?$method=update', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        __KEY: 1,
        __STAMP: before.__STAMP,
        logo: { $base64: base64(gif), type: 'image/gif' },
      }),
    })
    expect(res.status).toBe(200)
    const after = (await res.json()) as any
    expect(after.__STAMP).toBe(before.__STAMP + 1)
    expect(after.logo.__deferred.uri).toContain(`$version=${after.__STAMP}&`)
    // Writing another attribute keeps the picture's version.
    const renamed = (await (
      await rest.request('/rest/Company?$method=update', {
        method: 'POST',
        body: JSON.stringify({ __KEY: 1, __STAMP: after.__STAMP, name: 'Acme' }),
      })
    ).json()) as any
    expect(renamed.logo.__deferred.uri).toBe(after.logo.__deferred.uri)
    const fresh = await rest.request(before.logo.__deferred.uri, {
      headers: { 'if-none-match': oldTag },
    })
    expect(fresh.headers.get('etag')).not.toBe(oldTag)
    expect(new Uint8Array(await fresh.arrayBuffer())).toEqual(new Uint8Array(gif))
    expect(ds.dataClass('Company').get(1)!.get('name')).toBe('Acme')
  })
})

describe('over a socket (the node listener)', () => {
  it('converts, answers 304 with no body, and HEAD with the headers alone', async () => {
    const { ds } = await setup()
    const { base, internal } = await serveOnSocket(ds)
    const res = await fetch(base + logo('.gif'))
    await expectPicture(res, 'image/gif')
    const tag = res.headers.get('etag')!
    const again = await fetch(base + logo('.gif'), { headers: { 'if-none-match': tag } })
    expect([again.status, (await again.arrayBuffer()).byteLength]).toEqual([304, 0])
    const head = await fetch(base + logo('.tiff'), { method: 'HEAD' })
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'image/tiff'])
    // The socket still answers after them.
    await expectPicture(await fetch(base + logo('.jpeg')), 'image/jpeg')
    expect(internal).toEqual([])
  })
})

describe('$rawPict', () => {
  it('answers the stored bytes whatever $imageformat says, with or without $expand', async () => {
    const { rest, png } = await setup()
    for (const uri of [
      '/rest/Company(1)/logo?$rawPict=true',
      '/rest/Company(1)/logo?$rawPict=image/gif&$imageformat=.gif&$expand=logo',
    ]) {
      const res = await rest.request(uri)
      expect(res.headers.get('content-type'), uri).toBe('image/png')
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(png))
    }
    expect(await (await rest.request('/rest/Company(2)/logo?$rawPict=true')).text()).toBe('{}')
  })
})

describe('BLOBs and the attribute itself', () => {
  it('answers a BLOB with $binary=true as an attachment, bytes identical', async () => {
    const { rest } = await setup()
    const company = (await (await rest.request('/rest/Company(1)')).json()) as any
    const res = await rest.request(company.brochure.__deferred.uri)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="brochure"')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BLOB)
  })

  it('answers a null BLOB with an empty document, and the attribute alone without $expand', async () => {
    const { rest } = await setup()
    const empty = await rest.request('/rest/Company(2)/brochure?$binary=true&$expand=brochure')
    expect([empty.status, (await empty.arrayBuffer()).byteLength]).toEqual([200, 0])
    const json = (await (await rest.request('/rest/Company(1)/logo')).json()) as any
    expect(json.logo.__deferred.image).toBe(true)
  })

  it('answers every __deferred.uri of every entity', async () => {
    const { rest } = await setup()
    const uris: string[] = []
    for (const path of ['/rest/Company', '/rest/Employee']) {
      const page = (await (await rest.request(path)).json()) as any
      for (const e of page.__ENTITIES)
        for (const v of Object.values(e))
          if ((v as any)?.__deferred) uris.push((v as any).__deferred.uri)
    }
    expect(uris.length).toBe(9)
    for (const uri of uris) expect((await rest.request(uri)).status, uri).toBe(200)
  })
})
