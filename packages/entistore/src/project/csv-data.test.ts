/**
 * The CSV data of a project on its own: RFC 4180 records with their places (parseCsv), each field
 * type's conversion of a cell, pictures and BLOBs by path (readCsvFolder), and the file, line and
 * column of every refusal, a row the datastore refuses included (loadCsvData).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatastore, type ModelJson, type ValueType } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileError } from '../files/file-error.js'
import { loadCsvData, parseCsv, readCsvFolder } from './csv-data.js'

/** The records of `text` as `line:column text` cells. */
const cells = (text: string): string[][] =>
  parseCsv(text, 'f.csv').map((r) => r.map((c) => `${c.line}:${c.column} ${c.text}`))

/** The FileError a promise or function rejects with, its message without `base/`. */
async function refusal(run: () => unknown, base = ''): Promise<string> {
  try {
    await run()
  } catch (e) {
    if (!(e instanceof FileError)) throw e
    return base && e.message.startsWith(`${base}/`) ? e.message.slice(base.length + 1) : e.message
  }
  throw new Error('no refusal')
}

describe('parseCsv', () => {
  it('reads records by commas and line ends, each cell at its line and column', () => {
    expect(cells('ID,name\n1,Ada\n2,\n')).toEqual([
      ['1:1 ID', '1:4 name'],
      ['2:1 1', '2:3 Ada'],
      ['3:1 2', '3:3 '],
    ])
  })

  it('takes CRLF line ends, a last line without one, and skips a byte order mark', () => {
    expect(cells('\uFEFFID,a\r\n1,x\r\n2,y')).toEqual([
      ['1:1 ID', '1:4 a'],
      ['2:1 1', '2:3 x'],
      ['3:1 2', '3:3 y'],
    ])
  })

  it('unquotes values: commas, "" for a quote, line breaks, and keeps places right after them', () => {
    expect(cells('a,b\n"Big, Inc.","say ""hi"""\n"two\r\nlines",z\nq,r')).toEqual([
      ['1:1 a', '1:3 b'],
      ['2:1 Big, Inc.', '2:13 say "hi"'],
      ['3:1 two\r\nlines', '4:8 z'],
      ['5:1 q', '5:3 r'],
    ])
  })

  it('keeps empty values apart: unquoted, quoted, and at the end of a record', () => {
    expect(parseCsv('a,,"",\n', 'f.csv').map((r) => r.map((c) => c.text))).toEqual([
      ['a', '', '', ''],
    ])
  })

  it.each([
    ['a quote never closed', 'a,b\n1,"open\n', 'f.csv:2:3: a quoted value is not closed'],
    ['text after a closing quote', 'a,b\n"x"y,2\n', 'f.csv:2:4: text after a closing quote'],
    ['a quote inside an unquoted value', 'a\n5"\n', 'f.csv:2:2: a quote inside a value'],
  ])('refuses %s at its place', async (_, text, message) => {
    expect(await refusal(() => parseCsv(text, 'f.csv'))).toContain(message)
  })
})

describe('readCsvFolder', () => {
  let base: string
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'entistore-csv-'))
  })
  afterAll(() => rm(base, { recursive: true, force: true }))

  let folders = 0
  /** A new CSV folder holding `files` (names to contents). */
  async function folderWith(files: Record<string, string | Uint8Array>): Promise<string> {
    const folder = join(base, `f${++folders}`)
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(folder, name, '..'), { recursive: true })
      await writeFile(join(folder, name), content)
    }
    return folder
  }

  /** A model of one dataclass T: a long key ID and `v` of `type`. */
  const model = (type: string): ModelJson => ({
    dataClasses: [
      {
        name: 'T',
        key: [{ name: 'ID' }],
        attributes: [
          { name: 'ID', type: 'long', identifying: true },
          { name: 'v', type: type as ValueType },
        ],
      },
    ],
  })
  const quoted = (cell: string): string => `"${cell.replaceAll('"', '""')}"`

  /** The value a `type` field gets from `cell` (written quoted, as any cell may be). */
  async function convert(type: string, cell: string): Promise<unknown> {
    const folder = await folderWith({ 'T.csv': `ID,v\n1,${quoted(cell)}\n` })
    return (await readCsvFolder(folder, model(type))).rows.T![0]!.v
  }

  it.each([
    ['bool', 'true', true],
    ['bool', 'FALSE', false],
    ['bool', '1', true],
    ['bool', '0', false],
    ['byte', '-128', -128],
    ['word', '32767', 32767],
    ['long', '-2147483648', -(2 ** 31)],
    ['long64', '9007199254740991', Number.MAX_SAFE_INTEGER],
    ['number', '35.5', 35.5],
    ['number', '1e3', 1000],
    ['number', '-.5', -0.5],
    ['date', '2024-02-29', '2024-02-29'],
    ['duration', '08:30:00', 30_600_000],
    ['duration', '25:00:00.5', 90_000_500],
    ['duration', '01:02', 3_720_000],
    ['uuid', '3F2504E04F8911D39A0C0305E82C3301', '3F2504E04F8911D39A0C0305E82C3301'],
    ['uuid', '6f9619ff-8b86-d011-b42d-00c04fc964ff', '6f9619ff-8b86-d011-b42d-00c04fc964ff'],
    ['object', '{"lat":45.7,"tags":["a"]}', { lat: 45.7, tags: ['a'] }],
    ['object', '[0.12,-0.4]', [0.12, -0.4]],
    ['string', ' spaces, "quotes"\nand lines ', ' spaces, "quotes"\nand lines '],
  ])('converts a %s cell %j', async (type, cell, value) => {
    expect(await convert(type, cell)).toEqual(value)
  })

  it.each(['bool', 'long', 'number', 'date', 'duration', 'uuid', 'object', 'image', 'blob'])(
    'reads an empty %s cell as null',
    async (type) => {
      expect(await convert(type, '')).toBeNull()
    },
  )

  it("reads an empty text cell as the empty text (4D's blank), not null", async () => {
    expect(await convert('string', '')).toBe('')
  })

  it.each([
    ['bool', 'yes', 'is not a boolean (true, false, 1 or 0)'],
    ['byte', '128', 'is not an integer from -128 to 127 (byte)'],
    ['word', '40000', 'is not an integer from -32768 to 32767 (word)'],
    ['long', '1.5', 'is not an integer from -2147483648 to 2147483647 (long)'],
    [
      'long64',
      '9007199254740993',
      'is not an integer from -9007199254740991 to 9007199254740991 (long64)',
    ],
    ['number', 'lots', 'is not a number'],
    ['number', '0x10', 'is not a number'],
    ['date', '2023-02-29', 'is not a date (YYYY-MM-DD)'],
    ['date', '2024-2-1', 'is not a date (YYYY-MM-DD)'],
    ['duration', '8h', 'is not a time (HH:MM:SS, or HH:MM:SS.mmm)'],
    ['duration', '10:75:00', 'is not a time (HH:MM:SS, or HH:MM:SS.mmm)'],
    ['uuid', 'not-a-uuid', 'is not a UUID (32 hexadecimal digits, dashes allowed)'],
    ['object', '{nope', 'is not JSON (an Object field holds a JSON object or array)'],
    ['object', '3', 'is not a JSON object or array'],
  ])('refuses a %s cell %j at its file, line and column', async (type, cell, why) => {
    const folder = await folderWith({ 'T.csv': `ID,v\n1,${cell}\n` })
    expect(await refusal(() => readCsvFolder(folder, model(type)), folder)).toBe(
      `T.csv:2:3: T.v: "${cell}" ${why}`,
    )
  })

  it('reads pictures and BLOBs from a path relative to the CSV folder', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const folder = await folderWith({
      'T.csv': 'ID,v\n1,files/logo.png\n',
      'U.csv': 'ID,v\n1,files/logo.png\n',
      'files/logo.png': png,
    })
    const both: ModelJson = {
      dataClasses: [
        { ...model('image').dataClasses[0]! },
        { ...model('blob').dataClasses[0]!, name: 'U' },
      ],
    }
    const { rows } = await readCsvFolder(folder, both)
    const base64 = Buffer.from(png).toString('base64')
    expect(rows.T![0]!.v).toEqual({ $base64: base64 })
    expect(rows.U![0]!.v).toEqual({ $base64: base64, type: 'application/octet-stream' })
  })

  it('refuses a picture path that names no file, at its cell', async () => {
    const folder = await folderWith({ 'T.csv': 'ID,v\n1,files/none.png\n' })
    expect(await refusal(() => readCsvFolder(folder, model('image')), folder)).toBe(
      'T.csv:2:3: T.v: "files/none.png" names no file that can be read (no such file; a path from the CSV folder)',
    )
  })

  it('reads a file of a subfolder, by a path that goes up and down inside the folder', async () => {
    const folder = await folderWith({
      'T.csv': 'ID,v\n1,files/a/../b/x.bin\n',
      'files/b/x.bin': 'ok',
    })
    expect((await readCsvFolder(folder, model('blob'))).rows.T![0]!.v).toEqual({
      $base64: Buffer.from('ok').toString('base64'),
      type: 'application/octet-stream',
    })
  })

  describe('refuses a file cell that leads out of the CSV folder, at its cell', () => {
    // A file beside the CSV folder, readable: what a cell must not reach.
    let outside: string
    beforeAll(async () => {
      outside = join(base, 'outside.txt')
      await writeFile(outside, 'secret')
    })

    it.each([
      ['a path up and out', '../outside.txt', 'leads out of the CSV folder'],
      ['a path up and out, missing', '../../none', 'leads out of the CSV folder'],
      ['an absolute path', '/etc/passwd', 'is an absolute path'],
    ])('%s', async (_, cell, why) => {
      const folder = await folderWith({ 'T.csv': `ID,v\n1,${cell}\n` })
      expect(await refusal(() => readCsvFolder(folder, model('blob')), folder)).toBe(
        `T.csv:2:3: T.v: "${cell}" ${why} (a picture or BLOB cell names a file inside the CSV folder, as files/logo.png)`,
      )
    })

    it('a symbolic link inside the folder to a file outside it', async () => {
      const folder = await folderWith({ 'T.csv': 'ID,v\n1,files/link.png\n' })
      await mkdir(join(folder, 'files'))
      await symlink(outside, join(folder, 'files/link.png'))
      expect(await refusal(() => readCsvFolder(folder, model('image')), folder)).toBe(
        'T.csv:2:3: T.v: "files/link.png" leads out of the CSV folder through a symbolic link (a picture or BLOB cell names a file inside the CSV folder, as files/logo.png)',
      )
    })

    it('a symbolic link to a folder outside it', async () => {
      const folder = await folderWith({ 'T.csv': 'ID,v\n1,up/outside.txt\n' })
      await symlink(base, join(folder, 'up'))
      expect(await refusal(() => readCsvFolder(folder, model('blob')), folder)).toMatch(
        /^T\.csv:2:3: T\.v: "up\/outside\.txt" leads out of the CSV folder through a symbolic link/,
      )
    })
  })

  it('reads a file through a symbolic link that stays inside the folder, and a folder that is a link', async () => {
    const folder = await folderWith({ 'T.csv': 'ID,v\n1,alias.bin\n', 'files/x.bin': 'in' })
    await symlink(join(folder, 'files/x.bin'), join(folder, 'alias.bin'))
    const linked = `${folder}-link`
    await symlink(folder, linked)
    expect((await readCsvFolder(linked, model('blob'))).rows.T![0]!.v).toMatchObject({
      $base64: Buffer.from('in').toString('base64'),
    })
  })

  it('matches header names to fields whatever their case and spaces around them', async () => {
    const folder = await folderWith({ 't.csv': ' id , V\n7,x\n' })
    expect((await readCsvFolder(folder, model('string'))).rows).toEqual({
      T: [{ ID: 7, v: 'x' }],
    })
  })

  it.each([
    [
      'a header naming no field',
      { 'T.csv': 'ID,nope\n' },
      'T.csv:1:4: "nope" is no field of table T (its fields: ID, v)',
    ],
    [
      'a field named twice',
      { 'T.csv': 'ID,id\n' },
      'T.csv:1:4: the field "ID" is named twice in the header',
    ],
    [
      'a record of too few values',
      { 'T.csv': 'ID,v\n1,a\n2\n' },
      'T.csv:3:1: 1 values where the header names 2 fields',
    ],
    [
      'a file named after no table',
      { 'Nope.csv': 'ID\n' },
      'Nope.csv: no table is named Nope: a CSV file is named after its table (T.csv)',
    ],
  ])('refuses %s', async (_, files, message) => {
    const folder = await folderWith(files)
    expect(await refusal(() => readCsvFolder(folder, model('string')), folder)).toBe(message)
  })

  it('reads only the .csv files of the folder', async () => {
    const folder = await folderWith({ 'T.csv': 'ID,v\n1,a\n', 'notes.txt': 'not data' })
    expect(Object.keys((await readCsvFolder(folder, model('string'))).rows)).toEqual(['T'])
  })

  it('refuses a folder that cannot be read', async () => {
    expect(await refusal(() => readCsvFolder(join(base, 'missing'), model('string')))).toContain(
      join(base, 'missing'),
    )
  })

  it('names the file and line of a row the datastore refuses, and loads nothing', async () => {
    const folder = await folderWith({ 'T.csv': 'ID,v\n1,a\n1,b\n' })
    const csv = await readCsvFolder(folder, model('string'))
    const ds = createDatastore(model('string'))
    expect(await refusal(() => loadCsvData(ds, csv), folder)).toMatch(/^T\.csv:3:1: /)
    expect(ds.dataClass('T').all().length).toBe(0)
  })

  it('loads 4D\'s "no related entity": a foreign key of 0 or an empty text that names no entity', async () => {
    // 4D exports a record never related with its field's blank (0, ""): it finds no related
    // record through it. A key that is 0 or "" on the other side is a reference all the same.
    const related: ModelJson = {
      dataClasses: [
        {
          name: 'Company',
          key: [{ name: 'ID' }],
          attributes: [{ name: 'ID', type: 'long' }],
        },
        {
          name: 'Tag',
          key: [{ name: 'code' }],
          attributes: [{ name: 'code', type: 'string' }],
        },
        {
          name: 'Person',
          key: [{ name: 'ID' }],
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'companyID', type: 'long' },
            { name: 'tagCode', type: 'string' },
            { name: 'company', kind: 'relatedEntity', path: 'Company', foreignKey: 'companyID' },
            { name: 'tag', kind: 'relatedEntity', path: 'Tag', foreignKey: 'tagCode' },
          ],
        },
      ],
    }
    const folder = await folderWith({
      'Company.csv': 'ID\n1\n',
      'Tag.csv': 'code\nvip\n',
      'Person.csv': 'ID,companyID,tagCode\n1,0,\n2,1,vip\n',
    })
    const csv = await readCsvFolder(folder, related)
    expect(csv.rows.Person).toEqual([
      { ID: 1, companyID: null, tagCode: null },
      { ID: 2, companyID: 1, tagCode: 'vip' },
    ])
    const ds = createDatastore(related)
    loadCsvData(ds, csv)
    expect(ds.dataClass('Person').get(1)!.get('company')).toBeNull()
    const withZero = await folderWith({
      'Company.csv': 'ID\n0\n',
      'Person.csv': 'ID,companyID\n1,0\n',
    })
    expect((await readCsvFolder(withZero, related)).rows.Person![0]!.companyID).toBe(0)
  })
})
