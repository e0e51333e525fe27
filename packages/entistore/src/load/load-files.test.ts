import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dumpData, ManualClock } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileError } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import { loadDatastoreFiles } from './load-files.js'

let dir: string
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const MODEL = JSON.stringify({
  __NAME: 'files',
  dataClasses: [
    { name: 'Tag', attributes: [{ name: 'code', type: 'string' }], key: [{ name: 'code' }] },
  ],
})

const UNIQUE_LABEL_MODEL = JSON.stringify({
  dataClasses: [
    {
      name: 'Tag',
      attributes: [
        { name: 'code', type: 'string' },
        { name: 'label', type: 'string', unique: true },
      ],
      key: [{ name: 'code' }],
    },
  ],
})

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-files-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function fileError(p: Promise<unknown>): Promise<FileError> {
  try {
    await p
  } catch (e) {
    if (e instanceof FileError) return e
    throw e
  }
  throw new Error('expected a FileError')
}

describe('readJsonFile', () => {
  it('reads JSON, with or without a byte-order mark', async () => {
    expect(await readJsonFile(file('plain.json', '{"a":1}'), 'data')).toEqual({ a: 1 })
    expect(await readJsonFile(file('bom.json', '\uFEFF{"a":2}'), 'data')).toEqual({ a: 2 })
  })

  it('names the file and what it is for in every failure', async () => {
    const missing = join(dir, 'nope.json')
    const e = await fileError(readJsonFile(missing, 'model'))
    expect([e.file, e.message]).toEqual([missing, `${missing}: the model file does not exist`])
    expect((e.cause as NodeJS.ErrnoException).code).toBe('ENOENT')
    const bad = file('bad.json', '[1,')
    const syntax = await fileError(readJsonFile(bad, 'data'))
    expect([syntax.file, syntax.line, syntax.column, syntax.message]).toEqual([
      bad,
      1,
      4,
      `${bad}:1:4: the data file is not valid JSON: Unexpected end of JSON input`,
    ])
    expect(syntax.cause).toBeInstanceOf(SyntaxError)
    expect((await fileError(readJsonFile(file('empty.json', ''), 'data'))).message).toContain(
      'not valid JSON',
    )
  })
})

describe('loadDatastoreFiles', () => {
  it('loads a model and its data, on the clock given', async () => {
    const clock = new ManualClock('2023-05-06T07:08:09Z')
    const ds = await loadDatastoreFiles({
      model: file('m.json', MODEL),
      data: file('d.json', JSON.stringify({ Tag: [{ code: 'x' }, { code: 'y' }] })),
      clock,
    })
    expect(ds.name).toBe('files')
    expect(ds.dataClass('Tag').length).toBe(2)
    expect(ds.dataClass('Tag').get('x')!.getTimestamp()).toBe(clock.now())
    expect(ds.globalStamp).toBe(0)
  })

  it('leaves the indexes of a large data file to their first use, or builds them with eagerIndexes', async () => {
    const data = file(
      'many.json',
      JSON.stringify({ Tag: Array.from({ length: 1500 }, (_, i) => ({ code: `t${i}` })) }),
    )
    const model = file('m3.json', MODEL)
    const unbuilt = (ds: { buildIndexes(): number }) => ds.buildIndexes()
    expect(unbuilt(await loadDatastoreFiles({ model, data }))).toBe(1) // the key's sorted index
    expect(unbuilt(await loadDatastoreFiles({ model, data, eagerIndexes: true }))).toBe(0)
  })

  it('loads a model alone', async () => {
    const ds = await loadDatastoreFiles({ model: file('m2.json', MODEL) })
    expect(ds.dataClass('Tag').length).toBe(0)
  })

  it('names the model file for a model error and the data file for a data error', async () => {
    const model = file('m3.json', JSON.stringify({ dataClasses: 'nope' }))
    const e = await fileError(loadDatastoreFiles({ model }))
    expect(e.file).toBe(model)
    expect(e.message).toBe(`${model}: Invalid model: model: expected a "dataClasses" array`)

    const data = file('d3.json', JSON.stringify({ Tag: [{ code: 'x' }, { code: 'x' }] }))
    const d = await fileError(loadDatastoreFiles({ model: file('m4.json', MODEL), data }))
    expect(d.file).toBe(data)
    expect(d.message).toContain('Tag[1]')
  })

  it('loads in slices, the event loop running between them, what it loads at once', async () => {
    // About 1.2 MB: five slices of 256 KB at least, and as many commit slices as it takes. A
    // unique label: its claims grow between the slices (DataLoader.prepare).
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      code: `tag number ${i}`,
      label: `L${i}`,
    }))
    const data = file('slices.json', JSON.stringify({ Tag: rows }, null, 1))
    const model = file('m5.json', UNIQUE_LABEL_MODEL)
    let turns = 0
    let counting = true
    const count = (): void => {
      turns++
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const clock = new ManualClock('2025-01-01T00:00:00Z')
    const sliced = await loadDatastoreFiles({ model, data, clock, inSlices: true })
    counting = false
    const whole = await loadDatastoreFiles({ model, data, clock })
    expect(turns).toBeGreaterThanOrEqual(5)
    expect(sliced.dataClass('Tag').length).toBe(40_000)
    expect(JSON.stringify(dumpData(sliced))).toBe(JSON.stringify(dumpData(whole)))
    // The label of the first row again in the last slice: refused, sliced as at once.
    const twice = file('twice.json', JSON.stringify({ Tag: [...rows, { code: 'x', label: 'l0' }] }))
    for (const inSlices of [true, false]) {
      const e = await fileError(loadDatastoreFiles({ model, data: twice, clock, inSlices }))
      expect(e.message).toContain('Tag[40000]')
    }
  })

  it('loads JSON Lines, rows of any class in any order, as the same rows in a data file', async () => {
    const model = file('m6.json', MODEL)
    const lines = file(
      'tags.jsonl',
      '{"__entityModel":"Tag","code":"b"}\n\n{"__entityModel":"Tag","code":"a"}\n',
    )
    const json = file('tags.json', '{"Tag":[{"code":"b"},{"code":"a"}]}')
    const clock = new ManualClock('2025-01-01T00:00:00Z')
    expect(dumpData(await loadDatastoreFiles({ model, data: lines, clock }))).toEqual(
      dumpData(await loadDatastoreFiles({ model, data: json, clock })),
    )
    const wrong = file('wrong.jsonl', '{"__entityModel":"Nope","code":"b"}\n')
    expect((await fileError(loadDatastoreFiles({ model, data: wrong }))).message).toBe(
      `${wrong}: Invalid data: "Nope": there is no dataclass "Nope" in the model`,
    )
  })
})
