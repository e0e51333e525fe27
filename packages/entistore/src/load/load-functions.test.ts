/**
 * Functions from a module file: the default export as definitions or as a function of the model,
 * each way a module can be wrong (named by its file), loadDatastoreFiles with `functions`, a new
 * version imported on request, and the summary the CLI prints.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createDatastore, DatastoreError, type ModelJson } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileError } from '../files/file-error.js'
import { loadDatastoreFiles } from './load-files.js'
import { describeFunctions, importFunctions, summarizeFunctions } from './load-functions.js'

let dir: string
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const MODEL: ModelJson = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'price', type: 'number' },
      ],
    },
  ],
}
const DATA = { Item: [{ ID: 1, price: 10 }] }

// A module in plain JavaScript, as a user writes one (a tmp folder cannot import 'entistore').
const DEFS = `export default {
  dataStore: { hello: { exposed: true, onHTTPGet: true, call() { return 'hello from ' + this.name } } },
  dataClasses: {
    Item: {
      dataClass: { cheap: { exposed: true, params: ['number'], call(max) { return this.query('price <= :1', max) } } },
      entity: { double: { exposed: true, call() { return this.edit({ price: this.get('price') * 2 }).saveOrFail() } } },
      entitySelection: { total: { exposed: true, call() { return this.sum('price') } } },
    },
  },
  singletons: { Hits: { state: () => ({ n: 0 }), functions: { hit: { exposed: true, call() { return ++this.n } }, peek: { call() { return this.n } } } } },
}
`

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-functions-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function fileError(p: Promise<unknown>): Promise<FileError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  )
  if (e instanceof FileError) return e
  throw new Error(`expected a FileError, got ${String(e)}`)
}

describe('importFunctions', () => {
  it('reads the definitions a module exports by default', async () => {
    const defs = await importFunctions(file('defs.mjs', DEFS), { model: MODEL })
    const ds = createDatastore(MODEL, { data: DATA, functions: defs })
    expect(ds.call('hello')).toBe('hello from shop')
    expect(ds.singleton('Hits').call('hit')).toBe(1)
  })

  it('takes a relative path from the current directory, as the command line does', async () => {
    const path = relative(process.cwd(), file('relative.mjs', DEFS))
    expect(path.startsWith('/')).toBe(false)
    const defs = await importFunctions(path, { model: MODEL })
    expect(createDatastore(MODEL, { functions: defs }).call('hello')).toBe('hello from shop')
  })

  it('calls a default export that is a function with the model', async () => {
    const path = file(
      'factory.mjs',
      `export default async ({ model }) => ({
        dataStore: { classes: { exposed: true, call() { return model.dataClasses.map((d) => d.name).join() } } },
      })`,
    )
    const ds = createDatastore(MODEL, { functions: await importFunctions(path, { model: MODEL }) })
    expect(ds.call('classes')).toBe('Item')
  })

  it('names the file: missing, a directory, not JavaScript, no default export, not definitions', async () => {
    const missing = join(dir, 'missing.js')
    expect((await fileError(importFunctions(missing, { model: MODEL }))).message).toBe(
      `${missing}: the functions module does not exist`,
    )
    const folder = join(dir, 'folder.js')
    mkdirSync(folder)
    expect((await fileError(importFunctions(folder, { model: MODEL }))).message).toBe(
      `${folder}: the functions path is a directory, not a file`,
    )
    const garbage = file('garbage.mjs', 'this is not javascript\n')
    const notJs = await fileError(importFunctions(garbage, { model: MODEL }))
    expect(notJs.file).toBe(garbage)
    expect(notJs.message.startsWith(`${garbage}`)).toBe(true)
    const named = file('named.mjs', 'export const functions = {}\n')
    expect((await fileError(importFunctions(named, { model: MODEL }))).message).toBe(
      `${named}: the functions module has no default export: \`export default defineFunctions({ … })\`, or a function ({ model }) => definitions`,
    )
    const number = file('number.mjs', 'export default 42\n')
    expect((await fileError(importFunctions(number, { model: MODEL }))).message).toBe(
      `${number}: the default export of the functions module must be the definitions { dataStore, dataClasses, singletons } or a function that returns them, not number 42`,
    )
    const nothing = file('nothing.mjs', 'export default () => {}\n')
    expect((await fileError(importFunctions(nothing, { model: MODEL }))).message).toContain(
      'not undefined',
    )
    const throws = file(
      'throws.mjs',
      "export default () => { throw new Error('no model for me') }\n",
    )
    expect((await fileError(importFunctions(throws, { model: MODEL }))).message).toBe(
      `${throws}: the default export of the functions module failed: no model for me`,
    )
    const failing = file('failing.mjs', "throw new Error('top-level failure')\n")
    expect((await fileError(importFunctions(failing, { model: MODEL }))).message).toBe(
      `${failing}: the functions module cannot be imported: top-level failure`,
    )
  })

  it('imports the file as it is now under a version not used before, the cached module otherwise', async () => {
    const path = file(
      'versions.mjs',
      "export default { dataStore: { v: { call: () => 'one' } } }\n",
    )
    const first = await importFunctions(path, { model: MODEL })
    writeFileSync(path, "export default { dataStore: { v: { call: () => 'two' } } }\n")
    expect(await importFunctions(path, { model: MODEL })).toBe(first)
    const second = await importFunctions(path, { model: MODEL, version: 1 })
    expect(createDatastore(MODEL, { functions: second }).call('v')).toBe('two')
    expect(await importFunctions(path, { model: MODEL, version: 1 })).toBe(second)
  })
})

describe('loadDatastoreFiles with functions', () => {
  const model = () => file('model.json', JSON.stringify(MODEL))

  it('takes a module path or the definitions themselves', async () => {
    const fromFile = await loadDatastoreFiles({ model: model(), functions: file('d.mjs', DEFS) })
    expect(fromFile.call('hello')).toBe('hello from shop')
    const defs = { dataStore: { two: { call: () => 2 } } }
    expect((await loadDatastoreFiles({ model: model(), functions: defs })).call('two')).toBe(2)
  })

  it('names the module when the datastore refuses its definitions (InvalidFunctions)', async () => {
    const path = file(
      'invalid.mjs',
      'export default { dataClasses: { Nope: { dataClass: { f: { call() {} } } } } }\n',
    )
    const e = await fileError(loadDatastoreFiles({ model: model(), functions: path }))
    expect(e.file).toBe(path)
    expect(e.message).toBe(
      `${path}: Invalid functions: functions.dataClasses.Nope: the model has no dataclass "Nope"`,
    )
    expect(DatastoreError.is(e.cause) && e.cause.errCode).toBe(9104)
  })

  it('refuses definitions given as an object with the datastore’s own error', async () => {
    const bad = { dataStore: { f: (() => 1) as never } }
    await expect(loadDatastoreFiles({ model: model(), functions: bad })).rejects.toSatisfy(
      (e: unknown) => DatastoreError.is(e) && e.errCode === 9104,
    )
  })
})

describe('summarizeFunctions and describeFunctions', () => {
  it('lists the exposed, the private and those the model declares without code, in order', async () => {
    const declaring: ModelJson = {
      ...MODEL,
      dataClasses: [{ ...MODEL.dataClasses[0]!, methods: [{ name: 'legacy', applyTo: 'entity' }] }],
    }
    const defs = await importFunctions(file('summary.mjs', DEFS), { model: declaring })
    const summary = summarizeFunctions(createDatastore(declaring, { functions: defs }))
    expect(summary).toEqual({
      exposed: ['hello', 'Item.cheap', 'Item.double', 'Item.total', 'Hits.hit'],
      private: ['Hits.peek'],
      declared: ['Item.legacy'],
    })
    expect(describeFunctions(summary)).toBe(
      '5 exposed (hello, Item.cheap, Item.double, Item.total, Hits.hit), 1 private (Hits.peek), ' +
        '1 declared by the model without code (Item.legacy)',
    )
    expect(describeFunctions({ exposed: [], private: [], declared: [] })).toBe('none defined')
  })
})
