import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatastore, dumpData, type Datastore } from '@entistore/core'
import {
  BINARY_MODEL,
  binaryData,
  servedBinaries,
  storedBinaries,
} from '../persist/binaries.fixture.js'
import { main } from '../cli.js'
import { clone, CloneError, modelFromCatalog, restBase, versionOf } from './clone.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import { serve, type RunningServer } from '../serve/serve.js'
import { usersAuthenticate } from '../serve/users.js'

const root = new URL('../../../../', import.meta.url).pathname
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')

const TRACKED_MODEL = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: '__GlobalStamp', type: 'long64', indexed: true },
      ],
    },
  ],
}

let dir: string
let original: RunningServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-clone-'))
  original = await serve(await loadDatastoreFiles({ model: MODEL, data: DATA }), { port: 0 })
  // Writes first, so that stamps, times, a deleted entity and a new one must all come across.
  const post = (path: string, body: unknown) =>
    fetch(`${original.url}/rest/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => {
      expect(r.status, await r.clone().text()).toBe(200)
      return (await r.json()) as Record<string, unknown>
    })
  const e3 = await post('Employee?$method=update', { __KEY: 3, __STAMP: 1, salary: 12345 })
  await post('Employee?$method=update', { __KEY: 3, __STAMP: e3.__STAMP, manager: 5 })
  await post('Employee(4)?$method=delete', {})
  await post('Employee?$method=update', {
    firstName: 'New',
    lastName: 'Person',
    employer: { __KEY: 2 },
    extra: { tags: ['a', 'b'], n: 1 },
  })
})
afterAll(async () => {
  await original.close()
  rmSync(dir, { recursive: true, force: true })
})

const out = (name: string): string => join(dir, name)

/** What a REST client sees of a server: the catalog and every entity of every dataclass. */
async function view(url: string) {
  const catalog = (await (await fetch(`${url}/rest/$catalog/$all`)).json()) as {
    dataClasses: { name: string; key: { name: string }[] }[]
  }
  const entities: Record<string, unknown> = {}
  for (const dc of catalog.dataClasses) {
    const res = await fetch(`${url}/rest/${dc.name}?$top=100000&$orderby=${dc.key[0]!.name}`)
    entities[dc.name] = ((await res.json()) as { __ENTITIES: unknown }).__ENTITIES
  }
  return { catalog: { ...catalog, __UNIQID: undefined }, entities }
}

describe('clone', () => {
  it('copies the company demo so that a server of the copy answers the same catalog and entities', async () => {
    const requests: string[] = []
    const counting: typeof fetch = (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input)}`)
      return fetch(input, init)
    }
    const result = await clone({
      url: `${original.url}/rest/$catalog`,
      out: out('demo'),
      pageSize: 50,
      fetch: counting,
    })
    expect(result.counts).toEqual({ Company: 24, Employee: 360, Project: 40 })
    expect(result.base).toBe(`${original.url}/rest`)

    // Paged through entity sets, each released at the end.
    const paging = requests.filter((r) => r.includes('/$entityset/') && r.includes('$skip='))
    // Employee: 50 entities with the set, then 7 pages; Company (24) and Project (40) fit in one.
    expect(paging).toHaveLength(7)
    expect(requests.filter((r) => r.endsWith('?$method=release'))).toHaveLength(3)
    expect(original.ds.entitySets.size).toBe(0)
    // The pictures came from their URIs.
    expect(requests.filter((r) => r.includes('/logo?'))).toHaveLength(
      original.ds.dataClass('Company').query('logo != null').length,
    )

    // The files load, and hold what the original holds: keys, stamps, times, values, relations.
    const copy = await loadDatastoreFiles({ model: result.modelFile, data: result.dataFile })
    expect(dumpData(copy)).toEqual(dumpData(original.ds))
    expect(copy.dataClass('Employee').get(3)!.getStamp()).toBe(3)
    expect(copy.dataClass('Employee').get(4)).toBeNull()

    // And a server of the copy answers as the original does.
    const served = await serve(copy, { port: 0 })
    try {
      expect(await view(served.url)).toEqual(await view(original.url))
    } finally {
      await served.close()
    }
  })

  it('writes a model without the server-specific fields and rows without computed values', () => {
    const model = JSON.parse(readFileSync(out('demo/model.json'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(Object.keys(model)).toEqual(['__NAME', 'dataClasses'])
    const text = readFileSync(out('demo/model.json'), 'utf8')
    expect(text).not.toContain('dataURI')
    const data = JSON.parse(readFileSync(out('demo/data.json'), 'utf8')) as Record<
      string,
      Record<string, unknown>[]
    >
    const greta = data.Employee!.find((r) => r.ID === 1)!
    // employerID holds the relation: `employer` is not repeated; the alias and to-many are left out.
    expect(Object.keys(greta)).not.toContain('employer')
    expect(Object.keys(greta)).not.toContain('employerName')
    expect(Object.keys(greta)).not.toContain('reports')
    expect(greta.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    // `manager` has no foreign-key attribute: it is written as the related key, a number.
    const three = data.Employee!.find((r) => r.ID === 3)!
    expect(three.manager).toBe(5)
    const logo = data.Company!.find((r) => r.logo !== undefined)!.logo as Record<string, unknown>
    expect(logo.type).toBe('image/png')
  })

  it('works from the command line, and serve loads what it wrote', async () => {
    const lines: string[] = []
    const code = await main(['clone', original.url, '--out', out('cli'), '--page-size', '100'], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(`ERR ${l}`),
    })
    expect(code).toBe(0)
    expect(lines).toEqual([
      `Cloned company-demo (Company 24, Employee 360, Project 40) from ${original.url}/rest`,
      `Wrote ${out('cli/model.json')} and ${out('cli/data.json')}; serve them with:`,
      `  entistore serve --model ${out('cli/model.json')} --data ${out('cli/data.json')}`,
    ])
    let stop!: () => void
    const served: string[] = []
    expect(
      await main(['serve', '-m', out('cli/model.json'), '-d', out('cli/data.json'), '-p', '0'], {
        out: (l) => served.push(l),
        err: (l) => served.push(`ERR ${l}`),
        stopSignal: new Promise((resolve) => (stop = resolve)),
        onListening: () => stop(),
      }),
    ).toBe(0)
    expect(served[0]).toMatch(
      /^Entistore serving company-demo \(Company 24, Employee 360, Project 40\)/,
    )
  })

  it('copies pictures and BLOBs byte for byte, with their types and versions, an empty BLOB empty', async () => {
    const ds = createDatastore(BINARY_MODEL)
    ds.loadData(binaryData())
    const binaries = await serve(ds, { port: 0 })
    try {
      const result = await clone({ url: binaries.url, out: out('binaries') })
      const copy = await loadDatastoreFiles({ model: result.modelFile, data: result.dataFile })
      expect(storedBinaries(copy)).toEqual(storedBinaries(ds))
      expect(storedBinaries(copy)[0]).toMatchObject({
        picture: { version: 4 },
        file: { version: 2 },
      })
      expect(storedBinaries(copy)[1]!.file).toMatchObject({ bytes: new Uint8Array(0) })
      expect(storedBinaries(copy)[2]).toMatchObject({ picture: null, file: null })
      const served = await serve(copy, { port: 0 })
      try {
        expect(await servedBinaries(served.url)).toEqual(await servedBinaries(binaries.url))
      } finally {
        await served.close()
      }
    } finally {
      await binaries.close()
    }
  })

  it('copies a server that tracks changes: each __GlobalStamp, the __DeletedRecords rows and so the stamp', async () => {
    const ds = createDatastore(TRACKED_MODEL, {
      data: { Item: [{ name: 'pen' }, { name: 'ink' }] },
    })
    ds.dataClass('Item').create({ name: 'cap' }) // 1
    ds.dataClass('Item').update(1, { name: 'pen 2' }) // 2
    ds.dataClass('Item').drop(2) // 3, its row 4
    ds.setGlobalStamp(40)
    ds.dataClass('Item').update(3, { name: 'cap 2' }) // 41
    const tracked = await serve(ds, { port: 0 })
    try {
      const result = await clone({ url: tracked.url, out: out('tracked') })
      expect(result.counts).toEqual({ Item: 2, __DeletedRecords: 1 })
      const copy = await loadDatastoreFiles({ model: result.modelFile, data: result.dataFile })
      expect(copy.dataClass('Item').def.tracked).toBe(true)
      expect(dumpData(copy)).toEqual(dumpData(ds))
      // The stamp comes back as the highest one the rows hold (the load's rule): here the
      // original's, since its last change was a tracked one.
      expect(copy.getGlobalStamp()).toBe(41)
      const deleted = copy.dataClass('__DeletedRecords').get(1)!
      expect([
        deleted.get('__Stamp'),
        deleted.get('__TableName'),
        deleted.get('__PrimaryKey'),
      ]).toEqual([3, 'Item', '2'])
      // The next change takes a stamp past every one a sync client of the original may hold.
      expect(copy.dataClass('Item').create({ name: 'nib' }).get('__GlobalStamp')).toBe(42)
    } finally {
      await tracked.close()
    }
  })

  it('logs in with --user and --password, keeping the session cookie', async () => {
    const ds = await loadDatastoreFiles({ model: MODEL, data: DATA })
    const guarded = await serve(ds, {
      port: 0,
      authenticate: usersAuthenticate({ ada: { password: 'secret' } }),
      forceLogin: true,
    })
    try {
      await expect(clone({ url: guarded.url, out: out('guarded') })).rejects.toThrow(
        /answered 401: .*pass --user and --password/,
      )
      await expect(
        clone({ url: guarded.url, out: out('guarded'), user: 'ada', password: 'nope' }),
      ).rejects.toThrow(/\$directory\/login answered 401/)
      const lines: string[] = []
      const code = await main(
        ['clone', guarded.url, '-o', out('guarded'), '--user', 'ada', '--password', 'secret'],
        { out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`) },
      )
      expect([code, lines[0]]).toEqual([
        0,
        `Cloned company-demo (Company 24, Employee 360, Project 40) from ${guarded.url}/rest`,
      ])
      const copy = await loadDatastoreFiles({
        model: out('guarded/model.json'),
        data: out('guarded/data.json'),
      })
      expect(dumpData(copy)).toEqual(dumpData(ds as Datastore))
    } finally {
      await guarded.close()
    }
  })
})

describe('clone errors', () => {
  /** A server answering every request with `status`, `type` and `body`. */
  async function fake(status: number, type: string, body: string): Promise<Server> {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': type })
      res.end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return server
  }
  const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`
  const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()))

  it('names an unreachable server', async () => {
    const s = await fake(200, 'text/plain', '')
    const url = urlOf(s)
    await close(s)
    const err = await clone({ url, out: out('x') }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CloneError)
    expect((err as Error).message).toBe(`cannot reach ${url}/rest/$catalog/$all: ECONNREFUSED`)
  })

  it('says when the answer is not a 4D one', async () => {
    const html = await fake(200, 'text/html', '<html>hello</html>')
    const json = await fake(200, 'application/json', '{"hello": true}')
    const missing = await fake(404, 'text/plain', 'Not Found')
    try {
      await expect(clone({ url: urlOf(html), out: out('x') })).rejects.toThrow(
        `${urlOf(html)}/rest/$catalog/$all did not answer JSON (text/html): is it a 4D REST server?`,
      )
      await expect(clone({ url: urlOf(json), out: out('x') })).rejects.toThrow(
        `${urlOf(json)}/rest/$catalog/$all is not a 4D catalog (no "dataClasses"): is it a 4D REST server?`,
      )
      await expect(clone({ url: urlOf(missing), out: out('x') })).rejects.toThrow(
        `GET ${urlOf(missing)}/rest/$catalog/$all answered 404: Not Found`,
      )
    } finally {
      await Promise.all([close(html), close(json), close(missing)])
    }
  })

  it('loads each page into the copy as it comes: a row the copy refuses ends the clone at its page', async () => {
    // A server whose data breaks its own catalog (a unique code given twice, as a 4D server whose
    // index was made unique after the data) answers 10,000 items; the 2,500th repeats the first code.
    const ROWS = 10_000
    const skips: number[] = []
    const requests: string[] = []
    const s = createServer((req, res) => {
      const url = new URL(req.url!, 'http://localhost')
      requests.push(`${url.pathname}${url.search}`)
      const reply = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      if (url.pathname === '/rest/$catalog/$all')
        return reply({
          __NAME: 'items',
          dataClasses: [
            {
              name: 'Item',
              attributes: [
                { name: 'ID', kind: 'storage', type: 'long' },
                { name: 'code', kind: 'storage', type: 'string', unique: true },
              ],
              key: [{ name: 'ID' }],
            },
          ],
        })
      if (url.searchParams.get('$method') === 'release') return reply({ ok: true })
      const skip = Number(url.searchParams.get('$skip') ?? 0)
      skips.push(skip)
      const top = Math.max(0, Math.min(Number(url.searchParams.get('$top')), ROWS - skip))
      const entity = (id: number) => ({
        __KEY: String(id),
        __STAMP: 1,
        ID: id,
        code: `c${id % 2499}`,
      })
      reply({
        __ENTITYSET: '/rest/Item/$entityset/S1',
        __COUNT: ROWS,
        __FIRST: skip,
        __ENTITIES: Array.from({ length: top }, (_, i) => entity(skip + i + 1)),
      })
    })
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
    try {
      const err = await clone({ url: urlOf(s), out: out('refused'), pageSize: 100 }).catch(
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(CloneError)
      expect((err as Error).message).toBe(
        `the copy of ${urlOf(s)}/rest would not load: Item[2499].code: The value "c1" of the ` +
          `"code" attribute is already used in the "Item" dataclass (the attribute is unique)`,
      )
      // Read up to the page of Item[2499] (skip 2400) and the one asked for meanwhile, not to the
      // end (skip 9900): collected first, the rows were only checked once every page was read.
      expect(Math.max(...skips)).toBeLessThanOrEqual(2500)
      expect(requests.at(-1)).toBe('/rest/Item/$entityset/S1?$method=release')
      expect(existsSync(out('refused'))).toBe(false)
    } finally {
      await close(s)
    }
  })

  it('exits with code 1 and the reason from the command line, 2 for usage mistakes', async () => {
    const s = await fake(200, 'text/plain', 'x')
    const url = urlOf(s)
    await close(s)
    const run = async (argv: string[]) => {
      const err: string[] = []
      const code = await main(argv, { out: () => {}, err: (l) => err.push(l) })
      return { code, first: err[0] }
    }
    expect(await run(['clone', url, '--out', out('x')])).toEqual({
      code: 1,
      first: `entistore: cannot reach ${url}/rest/$catalog/$all: ECONNREFUSED`,
    })
    expect(await run(['clone', '--out', out('x')])).toEqual({
      code: 2,
      first: 'entistore: clone needs the URL of a server',
    })
    expect(await run(['clone', url])).toEqual({ code: 2, first: 'entistore: --out is required' })
    expect(await run(['clone', url, '-o', 'x', '--user', 'ada'])).toEqual({
      code: 2,
      first: 'entistore: --user and --password go together',
    })
    expect(await run(['clone', url, '-o', 'x', '--page-size', '0'])).toEqual({
      code: 2,
      first: 'entistore: --page-size must be an integer from 1 to 100000, got "0"',
    })
    expect(await run(['clone', url, '-o', 'x', '--ot', 'y'])).toEqual({
      code: 2,
      first: 'entistore: unknown option "--ot", did you mean --out?',
    })
    expect(await run(['clone', 'ftp://x', '-o', out('x')])).toEqual({
      code: 1,
      first: 'entistore: "ftp://x" is not an http or https URL',
    })
  })
})

describe('restBase, versionOf and modelFromCatalog', () => {
  it.each([
    ['http://h:8080', 'http://h:8080/rest'],
    ['http://h:8080/', 'http://h:8080/rest'],
    ['http://h:8080/rest', 'http://h:8080/rest'],
    ['http://h:8080/rest/$catalog', 'http://h:8080/rest'],
    ['https://h/api/rest/Employee?$top=1', 'https://h/api/rest'],
    ['http://h/api', 'http://h/api/rest'],
    ['http://h/restaurant', 'http://h/restaurant/rest'],
  ])('%s reads %s', (url, base) => expect(restBase(url)).toBe(base))

  it.each([
    ['?$imageformat=best&$version=7&$expand=logo', 7],
    ['?$binary=true&$version=1', 1],
    ['?$version=0', undefined],
    ['?$version=-2', undefined],
    ['?$version=1.5', undefined],
    ['?$version=', undefined],
    ['?$expand=logo', undefined],
  ])('the version of a URI ending %s is %s', (query, version) =>
    expect(versionOf(`http://h/rest/Company(1)/logo${query}`)).toBe(version),
  )

  it('refuses what is not an http URL', () => {
    expect(() => restBase('localhost:8080')).toThrow('is not an http or https URL')
    expect(() => restBase('not a url')).toThrow('"not a url" is not a URL')
  })

  it('keeps the model and the methods, leaves out what describes the server', () => {
    expect(
      modelFromCatalog({
        __UNIQID: 'X',
        __BASEID: null,
        __NAME: 'n',
        properties: { supportJSONEntityKey: true },
        methods: [{ name: 'm', applyTo: 'ds' }],
        dataClasses: [{ name: 'A', dataURI: '/rest/A', attributes: [{ name: 'ID' }], key: [] }],
      }),
    ).toEqual({
      __NAME: 'n',
      methods: [{ name: 'm', applyTo: 'ds' }],
      dataClasses: [{ name: 'A', attributes: [{ name: 'ID' }], key: [] }],
    })
  })
})
