import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatastore, dumpData, type ModelJson } from '@entistore/core'
import { dataFileText, dataSaver, writeFileAtomic } from './save.js'

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
    const saver = dataSaver(file, () => ds, { beforeReplace: (text) => told.push(text) })
    const first = saver.save()
    ds.dataClass('Item').create({ label: 'two' })
    const second = saver.save()
    const [a, b] = await Promise.all([first, second])
    expect(a.entities).toBe(1)
    expect(b.entities).toBe(2)
    expect(readFileSync(file, 'utf8')).toBe(b.text)
    expect(told).toEqual([a.text, b.text])
    const again = createDatastore(model)
    again.loadData(JSON.parse(readFileSync(file, 'utf8')))
    expect(dumpData(again)).toEqual(dumpData(ds))
  })
})
