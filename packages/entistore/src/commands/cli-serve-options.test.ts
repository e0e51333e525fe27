/**
 * The serve options that change the server while it runs: --watch, --save, --delay, --fail-rate,
 * through main() in-process with real files and real HTTP. Every wait is on an event (a reload, a
 * save, a scheduled delay), never on a fixed time.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dumpData } from '@entistore/core'
import {
  BINARY_MODEL,
  binaryData,
  servedBinaries,
  someBytes,
  storedBinaries,
} from '../persist/binaries.fixture.js'
import { main } from '../cli.js'
import { message, nextOutcome, Queue, startServe } from './cli-serve.fixture.js'
import { loadDatastoreFiles } from '../load/load-files.js'
import { digestOf, type SaveResult } from '../persist/save.js'
import type { RunningServer } from '../serve/serve.js'
import type { ReloadOutcome } from '../serve/watch.js'

const root = new URL('../../../../', import.meta.url).pathname
const BIN = join(root, 'packages/entistore/bin/entistore.js')
const DIST_CLI = join(root, 'packages/entistore/dist/cli.js')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-serve-options-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const MODEL = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
}
const DATA = {
  Company: [{ ID: 1, name: 'Acme' }],
  Employee: [{ ID: 1, name: 'Ada', employer: 1 }],
}

/** Writes the model and data into a fresh folder; returns their paths. */
function files(name: string, model: unknown = MODEL, data: unknown = DATA) {
  const folder = mkdtempSync(join(dir, `${name}-`))
  const m = join(folder, 'model.json')
  const d = join(folder, 'data.json')
  writeFileSync(m, JSON.stringify(model, null, 2))
  writeFileSync(d, JSON.stringify(data, null, 2))
  return { folder, model: m, data: d }
}

const start = startServe

const bytesOf = (value: { $base64: string }): Uint8Array =>
  new Uint8Array(Buffer.from(value.$base64, 'base64'))

const getJson = async (url: string): Promise<Record<string, unknown>> =>
  (await (await fetch(url)).json()) as Record<string, unknown>

const names = async (url: string, dc: string): Promise<string[]> =>
  ((await getJson(`${url}/rest/${dc}?$orderby=ID`)).__ENTITIES as { name: string }[]).map(
    (e) => e.name,
  )

describe('--watch', () => {
  it('reloads the data and the model on the same port, and keeps serving through a bad file', async () => {
    const f = files('watch')
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--watch'])
    try {
      expect(s.out[1]).toBe(`Watching ${f.model} and ${f.data} for changes`)
      expect(await names(s.url, 'Employee')).toEqual(['Ada'])

      const twoEmployees = JSON.stringify({
        ...DATA,
        Employee: [...DATA.Employee, { ID: 2, name: 'Bob' }],
      })
      writeFileSync(f.data, twoEmployees)
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      expect(s.out).toContain(
        `Reloaded ${f.model} and ${f.data}: serving shop (Company 1, Employee 2)`,
      )
      expect(await names(s.url, 'Employee')).toEqual(['Ada', 'Bob'])
      expect(s.server.url).toBe(s.url)

      // Not JSON: the error names the place, and the data of before is still served.
      writeFileSync(f.data, '{\n  "Employee": [\n    { "ID": 3 "name": "x" }\n  ]\n}\n')
      const notJson = `${f.data}:3:15: the data file is not valid JSON: Expected ',' or '}' after property value`
      await nextOutcome(s.reloads, (o) => message(o) === notJson)
      expect(s.err).toContain(
        `entistore: reload failed, still serving the previous data: ${notJson}`,
      )
      expect(await names(s.url, 'Employee')).toEqual(['Ada', 'Bob'])

      // Put back as it was: the bytes served, nothing to reload.
      writeFileSync(f.data, twoEmployees)
      await nextOutcome(s.reloads, (o) => o.kind === 'unchanged')

      // A model that does not load is reported too.
      writeFileSync(f.model, JSON.stringify({ dataClasses: [{ name: 'X', attributes: [] }] }))
      await nextOutcome(s.reloads, (o) => message(o).startsWith(`${f.model}: Invalid model: `))

      // Both fixed: a new attribute in the catalog, the new data served.
      const model = structuredClone(MODEL)
      model.dataClasses[1]!.attributes.push({ name: 'age', type: 'long' })
      writeFileSync(f.model, JSON.stringify(model))
      writeFileSync(f.data, JSON.stringify({ Employee: [{ ID: 7, name: 'Cy', age: 40 }] }))
      // The two writes come as one reload or as two, the first failing on a half-written pair.
      await nextOutcome(
        s.reloads,
        (o) => o.kind === 'reloaded' && o.ds.dataClass('Employee').get(7) !== null,
      )
      expect(await getJson(`${s.url}/rest/Employee(7)`)).toMatchObject({ name: 'Cy', age: 40 })
      expect(await names(s.url, 'Company')).toEqual([])
    } finally {
      expect(await s.stop()).toBe(0)
    }
  })

  it('reloads a change made after the files were loaded and before they were watched', async () => {
    const f = files('watch-early')
    const changed = JSON.stringify(
      { ...DATA, Employee: [{ ID: 1, name: 'Bob', employer: 1 }] },
      null,
      2,
    )
    // Same size, and the modification time it had (a whole second, restored to the nanosecond):
    // only the status change time tells.
    const mtime = 1_700_000_000
    utimesSync(f.data, mtime, mtime)
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--watch'], {
      onLoaded: () => {
        writeFileSync(f.data, changed)
        utimesSync(f.data, mtime, mtime)
      },
    })
    try {
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      expect(await names(s.url, 'Employee')).toEqual(['Bob'])
    } finally {
      expect(await s.stop()).toBe(0)
    }
  })
})

describe('--watch with --functions', () => {
  // Each evaluation of the module counts itself, so that the test sees when it is imported again.
  const moduleText = (
    version: string,
    extra = '',
  ) => `globalThis.__watchedImports = (globalThis.__watchedImports ?? 0) + 1
export default {
  dataStore: {
    version: { exposed: true, onHTTPGet: true, call: () => '${version}' },
    imports: { exposed: true, onHTTPGet: true, call: () => globalThis.__watchedImports },${extra}
  },
}
`
  const result = async (url: string, fn: string): Promise<unknown> =>
    (await getJson(`${url}/rest/$catalog/${fn}`)).result

  it('imports the module again when it changes, and only then; a bad module keeps the previous one serving', async () => {
    const f = files('watch-functions')
    const module = join(f.folder, 'functions.mjs')
    writeFileSync(module, moduleText('one'))
    const s = await start(['serve', '-m', f.model, '-d', f.data, '-f', module, '--watch'])
    try {
      expect(s.out.slice(1)).toEqual([
        `Functions from ${module}: 2 exposed (version, imports)`,
        `Watching ${f.model}, ${f.data} and ${module} for changes`,
        `Explorer at ${s.url}/`,
      ])
      expect(await result(s.url, 'version')).toBe('one')
      const importsAtStart = await result(s.url, 'imports')

      // The data changes: everything is rebuilt, from the module Node already holds.
      writeFileSync(
        f.data,
        JSON.stringify({ ...DATA, Employee: [...DATA.Employee, { ID: 2, name: 'Bob' }] }),
      )
      await nextOutcome(s.reloads, (o) => o.kind === 'reloaded')
      expect(s.out.slice(-2)).toEqual([
        `Reloaded ${f.model}, ${f.data} and ${module}: serving shop (Company 1, Employee 2)`,
        `Functions from ${module}: 2 exposed (version, imports)`,
      ])
      expect(await result(s.url, 'imports')).toBe(importsAtStart)

      // The module changes: imported again, its new functions served.
      const two = moduleText('two', "\n    more: { call: () => 'private' },")
      writeFileSync(module, two)
      await nextOutcome(
        s.reloads,
        (o) => o.kind === 'reloaded' && o.ds.functions.find('dataStore', '', 'more') !== undefined,
      )
      expect(s.out.at(-1)).toBe(
        `Functions from ${module}: 2 exposed (version, imports), 1 private (more)`,
      )
      expect(await result(s.url, 'version')).toBe('two')
      expect(await result(s.url, 'imports')).toBeGreaterThan(importsAtStart as number)
      expect(await names(s.url, 'Employee')).toEqual(['Ada', 'Bob'])

      // Definitions the datastore refuses: named by the module, the previous ones still served.
      writeFileSync(module, 'export default { dataStore: { Employee: { call() {} } } }\n')
      const refused = `${module}: Invalid functions: functions.dataStore.Employee: "Employee" is the name of a dataclass (/rest/$catalog/Employee describes it)`
      await nextOutcome(s.reloads, (o) => message(o) === refused)
      expect(s.err).toContain(
        `entistore: reload failed, still serving the previous data: ${refused}`,
      )
      expect(await result(s.url, 'version')).toBe('two')

      // A module that does not import at all: the same.
      writeFileSync(module, 'export default {\n')
      await nextOutcome(s.reloads, (o) => o.kind === 'failed' && message(o).startsWith(`${module}`))
      expect(await result(s.url, 'version')).toBe('two')

      // Back to the bytes served: nothing to reload.
      writeFileSync(module, two)
      await nextOutcome(s.reloads, (o) => o.kind === 'unchanged')
      expect(await result(s.url, 'version')).toBe('two')
    } finally {
      expect(await s.stop()).toBe(0)
    }
  })
})

describe('--save', () => {
  it('writes what REST clients wrote on request and on exit, as a data file serve loads back', async () => {
    const f = files('save')
    const saved = join(f.folder, 'saved.json')
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--save', saved])
    const post = (path: string, body: unknown) =>
      fetch(`${s.url}/rest/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await post('Company?$method=update', { name: 'Globex' })).status).toBe(200)
    expect(
      (await post('Employee?$method=update', { name: 'Bob', employer: { __KEY: 2 } })).status,
    ).toBe(200)
    s.saveNow()
    const first = await s.saves.next()
    expect(first).not.toBeInstanceOf(Error)
    expect(s.out.at(-1)).toBe(`Saved 4 entities to ${saved}`)
    const onDisk = readFileSync(saved, 'utf8')
    expect(digestOf(Buffer.from(onDisk))).toBe((first as SaveResult).written.digest)

    expect(
      (await post('Employee?$method=update', { __KEY: 1, __STAMP: 1, name: 'Ada L.' })).status,
    ).toBe(200)
    const before = dumpData(s.server.ds)
    expect(await s.stop()).toBe(0)
    expect(s.out.at(-1)).toBe(`Saved 4 entities to ${saved}`)

    // Loaded back: the same keys, stamps, values and relations.
    const again = await loadDatastoreFiles({ model: f.model, data: saved })
    expect(dumpData(again)).toEqual(before)
    expect(again.dataClass('Employee').get(2)!.get('employer')).toMatchObject({ key: 2 })
    expect(again.dataClass('Employee').get(1)!.getStamp()).toBe(2)

    // And served again, a REST client reads the same.
    const t = await start(['serve', '-m', f.model, '-d', saved])
    try {
      expect(await names(t.url, 'Employee')).toEqual(['Ada L.', 'Bob'])
      expect(await getJson(`${t.url}/rest/Employee(2)/employer`)).toMatchObject({ name: 'Globex' })
    } finally {
      await t.stop()
    }
  })

  it('keeps pictures and BLOBs byte for byte, with their types and versions, an empty BLOB empty', async () => {
    const data = binaryData()
    const f = files('save-binaries', BINARY_MODEL, data)
    const saved = join(f.folder, 'saved.json')
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--save', saved])
    // One written through REST too: whatever version the write gives it is the one to keep.
    const written = someBytes(300)
    const update = await fetch(`${s.url}/rest/Doc?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        __KEY: 3,
        __STAMP: 1,
        file: { $base64: Buffer.from(written).toString('base64'), type: 'text/plain' },
      }),
    })
    expect(update.status).toBe(200)
    const before = storedBinaries(s.server.ds)
    const served = await servedBinaries(s.url)
    expect(await s.stop()).toBe(0)

    const again = await loadDatastoreFiles({ model: f.model, data: saved })
    expect(storedBinaries(again)).toEqual(before)
    expect(before[0]).toMatchObject({
      picture: { bytes: bytesOf(data.Doc[0]!.picture!), type: 'image/png', version: 4 },
      file: { bytes: bytesOf(data.Doc[0]!.file!), type: 'application/pdf', version: 2 },
    })
    expect(before[1]!.file).toMatchObject({ bytes: new Uint8Array(0), version: 1 })
    expect(before[2]).toMatchObject({ picture: null, file: { bytes: written } })

    const t = await start(['serve', '-m', f.model, '-d', saved])
    try {
      expect(await servedBinaries(t.url)).toEqual(served)
    } finally {
      await t.stop()
    }
  })

  it('saved into the watched data file, does not reload its own save', async () => {
    const f = files('save-watch')
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--watch', '--save', f.data])
    const served = s.server.ds
    try {
      await fetch(`${s.url}/rest/Company?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Initech"}',
      })
      s.saveNow()
      expect(await s.saves.next()).not.toBeInstanceOf(Error)
      // The rename is seen (once or more): each time, the bytes are the ones served.
      expect(await s.reloads.next()).toEqual({ kind: 'unchanged' })
      expect(await names(s.url, 'Company')).toEqual(['Acme', 'Initech'])
    } finally {
      expect(await s.stop()).toBe(0)
    }
    expect(s.reloads.rest().filter((o) => o.kind !== 'unchanged')).toEqual([])
    expect(s.server.ds).toBe(served)
  })

  it('reports a save that fails, and exits with code 1 when the save on exit fails', async () => {
    const f = files('save-fail')
    const nowhere = join(f.folder, 'no-such-folder', 'saved.json')
    const s = await start(['serve', '-m', f.model, '--save', nowhere])
    s.saveNow()
    expect(await s.saves.next()).toBeInstanceOf(Error)
    expect(s.err.at(-1)).toMatch(
      new RegExp(`^entistore: cannot save the data to ${nowhere}: ENOENT`),
    )
    expect(await s.stop()).toBe(1)
    expect(existsSync(nowhere)).toBe(false)
  })

  it('reports a key left pointing at a deleted entity and saves it as null', async () => {
    const f = files('dangling')
    const saved = join(f.folder, 'saved.json')
    const s = await start(['serve', '-m', f.model, '-d', f.data, '--save', saved])
    expect(
      (await fetch(`${s.url}/rest/Company(1)?$method=delete`, { method: 'POST' })).status,
    ).toBe(200)
    expect(await s.stop()).toBe(0)
    expect(s.err).toEqual([
      'entistore: Employee(1).employer names Company 1, which was deleted: saved as null',
    ])
    const again = await loadDatastoreFiles({ model: f.model, data: saved })
    expect(again.dataClass('Employee').get(1)!.get('employer')).toBeNull()
  })
})

describe('a failure while serving', () => {
  it('closes the server and stops watching before main() returns 1', async () => {
    const f = files('throws')
    let server: RunningServer | undefined
    const err: string[] = []
    const code = await main(['serve', '-m', f.model, '-d', f.data, '--watch', '--port', '0'], {
      out: () => {},
      err: (l) => err.push(l),
      stopSignal: new Promise(() => {}),
      onListening: (s) => {
        server = s
        throw new Error('listening hook broke')
      },
    })
    expect(code).toBe(1)
    expect(err[0]).toMatch(/^entistore: Error: listening hook broke/)
    // Closed: a request finds nobody listening.
    await expect(fetch(`${server!.url}/rest/$catalog`)).rejects.toThrow()
  })
})

describe('--delay and --fail-rate', () => {
  it('--fail-rate 1 fails every request with 503 and says so once listening', async () => {
    const f = files('fail')
    const s = await start(['serve', '-m', f.model, '--fail-rate', '1'])
    try {
      expect(s.out[1]).toBe('Chaos: 1 of requests fail with 503')
      const res = await fetch(`${s.url}/rest/$catalog`)
      expect(res.status).toBe(503)
      expect(((await res.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
        9095,
      )
    } finally {
      await s.stop()
    }
  })

  it('--seed makes the failures repeat from run to run', async () => {
    const f = files('seed')
    const run = async (): Promise<number[]> => {
      const s = await start(['serve', '-m', f.model, '--fail-rate', '0.5', '--seed', '42'])
      try {
        const statuses: number[] = []
        for (let i = 0; i < 20; i++) statuses.push((await fetch(`${s.url}/rest/$catalog`)).status)
        expect(s.out[1]).toBe('Chaos: 0.5 of requests fail with 503 (seed 42)')
        return statuses
      } finally {
        await s.stop()
      }
    }
    const first = await run()
    expect(new Set(first)).toEqual(new Set([200, 503]))
    expect(await run()).toEqual(first)
  })

  it('--delay holds each reply for the time drawn from its range', async () => {
    const f = files('delay')
    const delays: { fn: () => void; ms: number }[] = []
    let scheduled!: () => void
    const waiting = new Promise<void>((resolve) => (scheduled = resolve))
    const s = await start(['serve', '-m', f.model, '--delay', '100-300', '--seed', '1'], {
      schedule: (fn, ms) => {
        delays.push({ fn, ms })
        scheduled()
        return () => {}
      },
    })
    try {
      expect(s.out[1]).toBe('Chaos: every reply waits 100-300 ms (seed 1)')
      const res = fetch(`${s.url}/rest/$catalog`)
      await waiting
      expect(delays[0]!.ms).toBeGreaterThanOrEqual(100)
      expect(delays[0]!.ms).toBeLessThanOrEqual(300)
      delays[0]!.fn()
      expect((await res).status).toBe(200)
    } finally {
      await s.stop()
    }
  })
})

describe('usage errors of the serve options', () => {
  it.each([
    [['--delay', 'soon'], '--delay must be milliseconds (250) or a range (100-500), got "soon"'],
    [['--delay', '500-100'], 'got "500-100"'],
    [['--fail-rate', '2'], '--fail-rate must be a number from 0 to 1, got "2"'],
    [['--fail-rate', '10%'], 'got "10%"'],
    [['--seed', 'x'], '--seed must be an integer from 0 to 4294967295, got "x"'],
    [['--save'], '--save needs a value'],
    [['--wacth'], 'unknown option "--wacth", did you mean --watch?'],
    [['--fail-rates', '1'], 'unknown option "--fail-rates", did you mean --fail-rate?'],
    [['--out', 'x'], 'unknown option "--out"'],
    [['--postgres-schema', 'app'], '--postgres-schema needs --postgres <url>'],
    [['--postgres-prefix', 'app_'], '--postgres-prefix needs --postgres <url>'],
    [['--max-lag', '500'], '--max-lag needs --postgres <url>'],
    [
      ['--postgres', 'postgres://db/app', '--max-lag', '2'],
      '--max-lag must be milliseconds, an integer from 4',
    ],
    [['--postgres', 'postgres://db/app', '--max-lag', 'soon'], 'got "soon"'],
    [
      ['--postgres', 'postgres://db/app', '--postgres-schema', 'App'],
      '--postgres-schema: the schema must be a lower-case identifier (a-z, 0-9 and _, not starting with a digit), got "App"',
    ],
    [
      ['--postgres', 'postgres://db/app', '--postgres-prefix', 'a-b'],
      '--postgres-prefix: the prefix must be empty or a lower-case identifier',
    ],
    [['--postgres', 'postgres://db/app', '--postgres-schema', ''], 'got ""'],
    [['--writes', 'one'], '--writes needs --postgres <url>'],
    [['--writer-listen', 'unix:/tmp/w.sock'], '--writer-listen needs --postgres <url>'],
    [
      ['--postgres', 'postgres://db/app', '--writes', 'all'],
      '--writes must be one or each, got "all"',
    ],
    [
      [
        '--postgres',
        'postgres://db/app',
        '--writes',
        'each',
        '--writer-listen',
        'unix:/tmp/w.sock',
      ],
      '--writer-listen and --writer-address go with --writes one',
    ],
    [
      ['--postgres', 'postgres://db/app', '--writer-listen', 'tcp://0.0.0.0:7071'],
      '--writer-listen must be unix:/path.sock or http://host:port, got "tcp://0.0.0.0:7071"',
    ],
    [
      ['--postgres', 'postgres://db/app', '--writer-address', 'http://10.0.0.5/forward'],
      '--writer-address must be unix:/path.sock or http://host:port',
    ],
  ])('refuses %j', async (args, message) => {
    const err: string[] = []
    const code = await main(['serve', '-m', 'm.json', ...args], {
      out: () => {},
      err: (l) => err.push(l),
    })
    expect(code).toBe(2)
    expect(err).toEqual([
      expect.stringContaining(message),
      "run 'entistore serve --help' for its options",
    ])
  })
})

describe('the built entistore command', () => {
  // `npm test` builds first (pretest), so dist/ must be there.
  it('saves on SIGUSR2 and on SIGTERM', async () => {
    expect(existsSync(DIST_CLI), `${DIST_CLI} is missing: run npm run build`).toBe(true)
    const f = files('bin')
    const saved = join(f.folder, 'saved.json')
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '-m', f.model, '-d', f.data, '--save', saved, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    let stdout = ''
    const lines = new Queue<string>()
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      let nl: number
      while ((nl = stdout.indexOf('\n')) >= 0) {
        lines.push(stdout.slice(0, nl))
        stdout = stdout.slice(nl + 1)
      }
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    try {
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(await lines.next())![0]
      expect(await lines.next()).toBe(`Explorer at ${url}/`)
      await fetch(`${url}/rest/Company?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Hooli"}',
      })
      // The request log's line (on by default), then the save's.
      expect(await lines.next()).toMatch(
        /^POST \/rest\/Company\?\$method=update 200 [\d.]+ ms \d+ B/,
      )
      child.kill('SIGUSR2')
      expect(await lines.next()).toBe(`Saved 3 entities to ${saved}`)
      expect(JSON.parse(readFileSync(saved, 'utf8')).Company).toHaveLength(2)
      await fetch(`${url}/rest/Company?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Pied Piper"}',
      })
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(stderr).toBe('')
    expect(JSON.parse(readFileSync(saved, 'utf8')).Company).toHaveLength(3)
  })
})
