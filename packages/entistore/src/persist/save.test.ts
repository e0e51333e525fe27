import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatastore, dumpData, type ModelJson } from '@entistore/core'
import { loadDatastoreFiles } from '../load/load-files.js'
import { dataFileText, dataSaver, digestOf, writeFileAtomic } from './save.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-save-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'label', type: 'string' },
      ],
    },
    { name: 'Empty', attributes: [{ name: 'ID', type: 'long' }] },
  ],
}

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temporary file behind', async () => {
    const file = join(dir, 'a.json')
    writeFileSync(file, 'old')
    await writeFileAtomic(file, 'new text')
    expect(readFileSync(file, 'utf8')).toBe('new text')
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([])
  })

  it('calls beforeRename with the text on disk and the file not yet replaced', async () => {
    const file = join(dir, 'b.json')
    writeFileSync(file, 'old')
    const seen: string[][] = []
    await writeFileAtomic(file, 'new', {
      beforeRename: () => {
        const temps = readdirSync(dir).filter((f) => f.startsWith('.b.json.'))
        seen.push([
          readFileSync(file, 'utf8'),
          ...temps.map((t) => readFileSync(join(dir, t), 'utf8')),
        ])
      },
    })
    expect(seen).toEqual([['old', 'new']])
    expect(readFileSync(file, 'utf8')).toBe('new')
  })

  it('fails without touching anything when the folder does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'no/such/dir/a.json'), 'x')).rejects.toThrow(/ENOENT/)
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([])
  })
})

describe('dataFileText', () => {
  it('writes one row a line and reads back as the same data', () => {
    const data = { Item: [{ ID: 1, label: 'a' }, { ID: 2 }], Empty: [] }
    const text = dataFileText(data)
    expect(text).toBe(
      '{\n  "Item": [\n    {"ID":1,"label":"a"},\n    {"ID":2}\n  ],\n  "Empty": []\n}\n',
    )
    expect(JSON.parse(text)).toEqual(data)
  })
})

describe('dataSaver', () => {
  it('saves the datastore of the moment; overlapping saves end with the later one', async () => {
    const ds = createDatastore(model)
    ds.dataClass('Item').create({ label: 'one' })
    const file = join(dir, 'saved.json')
    const told: string[] = []
    const saver = dataSaver(file, () => ds, { beforeReplace: (w) => told.push(w.digest) })
    const first = saver.save()
    ds.dataClass('Item').create({ label: 'two' })
    const second = saver.save()
    const [a, b] = await Promise.all([first, second])
    expect(a.entities).toBe(1)
    expect(b.entities).toBe(2)
    expect(digestOf(readFileSync(file))).toBe(b.written.digest)
    expect(told).toEqual([a.written.digest, b.written.digest])
    expect(a.written.digest).not.toBe(b.written.digest)
    const again = createDatastore(model)
    again.loadData(JSON.parse(readFileSync(file, 'utf8')))
    expect(dumpData(again)).toEqual(dumpData(ds))
  })
})

describe('dataSaver, in slices', () => {
  const many = () => {
    const ds = createDatastore(model)
    ds.loadData({ Item: Array.from({ length: 200 }, (_, i) => ({ label: `l${i}` })) })
    return ds
  }

  it('writes the picture of the moment it was asked for, while writes go on between its slices', async () => {
    const ds = many()
    const file = join(dir, 'sliced.json')
    const want = dumpData(ds)
    let done = false
    const saving = dataSaver(file, () => ds, { sliceMs: 0 })
      .save()
      .then((r) => ((done = true), r))
    let writes = 0
    for (let key = 1; !done; key++, writes++) {
      // Keys 1-100 updated, 101-200 dropped: rows the save may not have read yet.
      ds.dataClass('Item').update(((key - 1) % 100) + 1, { label: `changed ${key}` })
      ds.dataClass('Item').create({ label: 'new' })
      if (key <= 100) ds.dataClass('Item').drop(key + 100)
      await new Promise(setImmediate)
    }
    const result = await saving
    expect(writes).toBeGreaterThan(5)
    expect(result.entities).toBe(200)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(want)
  })

  it('writes JSON Lines to a .jsonl file: one row a line, __entityModel first, classes in model order', async () => {
    const ds = many()
    ds.dataClass('Empty').create({ ID: 7 })
    const file = join(dir, 'saved.jsonl')
    const result = await dataSaver(file, () => ds).save()
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    const rows = lines.slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(rows).toHaveLength(201)
    expect(rows.every((r) => Object.keys(r)[0] === '__entityModel')).toBe(true)
    const back: Record<string, unknown[]> = { Item: [], Empty: [] }
    for (const { __entityModel, ...row } of rows) back[__entityModel as string]!.push(row)
    expect(back).toEqual(dumpData(ds))
    expect(rows.map((r) => r.__entityModel)).toEqual([...Array(200).fill('Item'), 'Empty'])
    expect(result.written.digest).toBe(digestOf(readFileSync(file)))
  })
})

describe('dataSaver, of a datastore that tracks changes', () => {
  const tracked: ModelJson = {
    dataClasses: [
      {
        name: 'Item',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: 'label', type: 'string' },
          { name: '__GlobalStamp', type: 'long64', indexed: true },
        ],
      },
    ],
  }

  it.each(['tracked.json', 'tracked.jsonl'])(
    'keeps each __GlobalStamp and the __DeletedRecords rows in %s, and so the stamp when loaded',
    async (name) => {
      const ds = createDatastore(tracked, { data: { Item: [{ label: 'a' }, { label: 'b' }] } })
      ds.dataClass('Item').create({ label: 'c' }) // 1
      ds.dataClass('Item').drop(1) // 2, its row 3
      ds.dataClass('Item').update(2, { label: 'b2' }) // 4
      const file = join(dir, name)
      const result = await dataSaver(file, () => ds).save()
      expect(result.entities).toBe(3)
      // Read back as `serve --data` reads it.
      const modelFile = join(dir, 'tracked-model.json')
      writeFileSync(modelFile, JSON.stringify(tracked))
      const again = await loadDatastoreFiles({ model: modelFile, data: file })
      expect(dumpData(again)).toEqual(dumpData(ds))
      expect(dumpData(again).__DeletedRecords).toMatchObject([
        { ID: 1, __Stamp: 2, __TableName: 'Item', __PrimaryKey: '1' },
      ])
      // The highest stamp the rows hold: the next change goes on after it.
      expect(again.getGlobalStamp()).toBe(4)
      again.dataClass('Item').drop(2)
      expect(dumpData(again).__DeletedRecords).toMatchObject([
        { ID: 1, __Stamp: 2 },
        { ID: 2, __Stamp: 5, __PrimaryKey: '2' },
      ])
    },
  )
})
