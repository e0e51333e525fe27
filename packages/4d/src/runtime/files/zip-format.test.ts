// The ZIP byte format (zip-format.ts): what it writes it reads back, stored and deflated; it reads
// what Info-ZIP's `zip` writes; and it refuses what would escape a folder or inflate past its word.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateRawSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  MAX_ENTRY_SIZE,
  readZip,
  safeEntryNames,
  writeZip,
  ZipFormatError,
  type ZipInput,
} from './zip-format.js'

const text = (s: string): Uint8Array => new TextEncoder().encode(s)
const when = new Date(2024, 4, 17, 13, 45, 30).getTime()

const contents = (bytes: Uint8Array): Record<string, string> =>
  Object.fromEntries(
    readZip(bytes).map((e) => [e.name, e.folder ? '<folder>' : new TextDecoder().decode(e.read())]),
  )

/** Whether Info-ZIP's `zip` or `unzip` is on PATH (the case that uses it is skipped without). */
function onPath(command: string): boolean {
  try {
    execFileSync(command, ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('writeZip then readZip', () => {
  it('gives back names, folders, bytes and the time (to the 2 s of MS-DOS), stored and deflated', () => {
    const long = 'abc'.repeat(1000)
    const inputs: ZipInput[] = [
      { name: 'docs/', modified: when, level: 0 },
      { name: 'docs/a.txt', bytes: text(long), modified: when, level: 6 },
      { name: 'b.bin', bytes: Uint8Array.of(0, 1, 2, 255), modified: when, level: 0 },
      { name: 'empty.txt', bytes: new Uint8Array(0), modified: when, level: 9 },
    ]
    const zip = writeZip(inputs)
    const entries = readZip(zip)
    expect(entries.map((e) => [e.name, e.folder, e.size])).toEqual([
      ['docs/', true, 0],
      ['docs/a.txt', false, 3000],
      ['b.bin', false, 4],
      ['empty.txt', false, 0],
    ])
    expect(new TextDecoder().decode(entries[1]!.read())).toBe(long)
    expect([...entries[2]!.read()]).toEqual([0, 1, 2, 255])
    expect(entries.every((e) => e.modified === when)).toBe(true)
    // Deflated: the archive is much smaller than the text it holds.
    expect(zip.length).toBeLessThan(600)
  })

  it('writes and reads an empty archive (its end record alone)', () => {
    const zip = writeZip([])
    expect(zip.length).toBe(22)
    expect(readZip(zip)).toEqual([])
  })

  it('keeps UTF-8 names (flag bit 11)', () => {
    const zip = writeZip([{ name: 'été/日本.txt', bytes: text('ok'), modified: when, level: 6 }])
    expect(contents(zip)).toEqual({ 'été/日本.txt': 'ok' })
  })

  it('reads a name that is not UTF-8 and not flagged so as CP437', () => {
    const zip = writeZip([{ name: 'caf#.txt', bytes: text('x'), modified: when, level: 0 }])
    // CP437's 0x82 is "é", and alone it is no UTF-8: in the local and central headers both.
    const name = text('caf#')
    for (let i = 0; i + 4 <= zip.length; i++)
      if (name.every((b, j) => zip[i + j] === b)) zip[i + 3] = 0x82
    expect(contents(zip)).toEqual({ 'café.txt': 'x' })
  })

  it('finds the end record past an archive comment', () => {
    const zip = writeZip([{ name: 'a.txt', bytes: text('x'), modified: when, level: 0 }])
    const comment = text('a comment with PK\u0005\u0006 inside')
    const withComment = new Uint8Array(zip.length + comment.length)
    withComment.set(zip)
    withComment.set(comment, zip.length)
    new DataView(withComment.buffer).setUint16(zip.length - 2, comment.length, true)
    expect(contents(withComment)).toEqual({ 'a.txt': 'x' })
  })

  it('refuses a name given twice, and what is not a ZIP archive', () => {
    const a: ZipInput = { name: 'a', bytes: text('1'), modified: when, level: 0 }
    expect(() => writeZip([a, a])).toThrow(ZipFormatError)
    expect(() => readZip(text('not a zip archive at all, just text'))).toThrow(/not a ZIP/)
  })

  it('any set of files written is read back with the same names and bytes', () => {
    const name = fc.stringMatching(/^[a-zA-Zé0-9_.-]{1,12}(\/[a-zA-Z0-9_-]{1,8}){0,2}$/)
    const file = fc.record({
      name,
      bytes: fc.uint8Array({ maxLength: 300 }),
      level: fc.constantFrom(0, 1, 6, 9),
    })
    fc.assert(
      fc.property(fc.uniqueArray(file, { selector: (f) => f.name, maxLength: 8 }), (files) => {
        const zip = writeZip(files.map((f) => ({ ...f, modified: when })))
        const back = readZip(zip)
        expect(back.map((e) => e.name)).toEqual(files.map((f) => f.name))
        back.forEach((e, i) => expect([...e.read()]).toEqual([...files[i]!.bytes]))
      }),
      { numRuns: 200 },
    )
  })
})

describe('Info-ZIP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-zip-format-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.skipIf(!onPath('zip'))(
    'reads its folders, deflated and stored entries and UTF-8 names',
    () => {
      mkdirSync(join(dir, 'in/sub'), { recursive: true })
      writeFileSync(join(dir, 'in/readme.txt'), 'hello '.repeat(100))
      writeFileSync(join(dir, 'in/sub/été.txt'), 'accents')
      writeFileSync(join(dir, 'in/tiny'), 'x')
      execFileSync('zip', ['-r', '-q', '../out.zip', '.', '-z'], {
        cwd: join(dir, 'in'),
        input: 'an archive comment\n.\n',
      })
      expect(contents(new Uint8Array(readFileSync(join(dir, 'out.zip'))))).toEqual({
        'readme.txt': 'hello '.repeat(100),
        'sub/': '<folder>',
        'sub/été.txt': 'accents',
        tiny: 'x',
      })
    },
  )

  it.skipIf(!onPath('unzip'))('unzip tests and extracts what writeZip writes', () => {
    const zip = writeZip([
      { name: 'd/', modified: when, level: 0 },
      { name: 'd/été.txt', bytes: text('deflated '.repeat(50)), modified: when, level: 6 },
      { name: 's.txt', bytes: text('stored'), modified: when, level: 0 },
    ])
    writeFileSync(join(dir, 'ours.zip'), zip)
    execFileSync('unzip', ['-t', '-q', 'ours.zip'], { cwd: dir })
    execFileSync('unzip', ['-q', 'ours.zip', '-d', 'x'], { cwd: dir })
    expect(readFileSync(join(dir, 'x/d/été.txt'), 'utf8')).toBe('deflated '.repeat(50))
    expect(readFileSync(join(dir, 'x/s.txt'), 'utf8')).toBe('stored')
  })
})

/** A one-entry archive by hand: `name`, deflated `data`, with the sizes and CRC declared. */
function handMade(name: string, data: Uint8Array, declared: number, crc: number): Uint8Array {
  const zip = writeZip([{ name, bytes: new Uint8Array(0), modified: when, level: 0 }])
  const view = new DataView(zip.buffer)
  const nameLength = view.getUint16(26, true)
  const local = zip.subarray(0, 30 + nameLength)
  const central = zip.subarray(30 + nameLength, zip.length - 22)
  const out = new Uint8Array(zip.length + data.length)
  out.set(local)
  out.set(data, local.length)
  out.set(central, local.length + data.length)
  out.set(zip.subarray(zip.length - 22), local.length + data.length + central.length)
  const v = new DataView(out.buffer)
  const c = local.length + data.length
  for (const [at, method] of [
    [0, 8],
    [c + 2, 8],
  ] as const) {
    // Local header fields from 8, central ones from 10 (two more for "made by").
    v.setUint16(at + 8, method, true)
    v.setUint32(at + 14, crc, true)
    v.setUint32(at + 18, data.length, true)
    v.setUint32(at + 22, declared, true)
  }
  v.setUint32(out.length - 6, c, true)
  return out
}

/** A one-entry ZIP64 archive by hand: sizes and offset in ZIP64's extra fields and end record. */
function zip64Archive(name: string, bytes: Uint8Array): Uint8Array {
  const out: number[] = []
  const u16 = (v: number): void => void out.push(v & 255, (v >>> 8) & 255)
  const u32 = (v: number): void => [0, 8, 16, 24].forEach((s) => out.push((v >>> s) & 255))
  const u64 = (v: number): void => (u32(v), u32(0))
  const n = text(name)
  const crc = crc32(bytes)
  ;[0x04034b50, 45, 0, 0, 0, 0x21].forEach((v, i) => (i === 0 ? u32(v) : u16(v)))
  ;[crc, 0xffffffff, 0xffffffff].forEach(u32)
  ;[n.length, 20].forEach(u16)
  out.push(...n)
  ;[1, 16].forEach(u16)
  ;[bytes.length, bytes.length].forEach(u64)
  out.push(...bytes)
  const central = out.length
  ;[0x02014b50, 45, 45, 0, 0, 0, 0x21].forEach((v, i) => (i === 0 ? u32(v) : u16(v)))
  ;[crc, 0xffffffff, 0xffffffff].forEach(u32)
  ;[n.length, 28, 0, 0, 0].forEach(u16)
  ;[0, 0xffffffff].forEach(u32)
  out.push(...n)
  ;[1, 24].forEach(u16)
  ;[bytes.length, bytes.length, 0].forEach(u64)
  const end64 = out.length
  u32(0x06064b50)
  u64(44)
  ;[45, 45].forEach(u16)
  ;[0, 0].forEach(u32)
  ;[1, 1, end64 - central, central].forEach(u64)
  u32(0x07064b50)
  u32(0)
  u64(end64)
  u32(1)
  u32(0x06054b50)
  ;[0, 0, 0xffff, 0xffff].forEach(u16)
  ;[0xffffffff, 0xffffffff].forEach(u32)
  u16(0)
  return Uint8Array.from(out)
}

describe('ZIP64', () => {
  it('reads the sizes and offsets of its end record and extra fields', () => {
    const zip = zip64Archive('big.txt', text('not so big'))
    expect(readZip(zip).map((e) => [e.name, e.size])).toEqual([['big.txt', 10]])
    expect(contents(zip)).toEqual({ 'big.txt': 'not so big' })
  })
})

describe('refusals', () => {
  it('a hand-made entry reads when its sizes are true', () => {
    const bytes = text('hello hello hello')
    const zip = handMade('h.txt', deflateRawSync(bytes), bytes.length, crc32(bytes))
    expect(contents(zip)).toEqual({ 'h.txt': 'hello hello hello' })
  })

  it('a bomb-like entry: inflating past its declared size, or declaring past the bound', () => {
    const zeros = new Uint8Array(1_000_000)
    const bomb = handMade('bomb.bin', deflateRawSync(zeros), 1000, crc32(zeros))
    expect(() => readZip(bomb)[0]!.read()).toThrow(/past its declared size/)
    const huge = handMade('huge.bin', deflateRawSync(zeros), MAX_ENTRY_SIZE + 1, crc32(zeros))
    expect(() => readZip(huge)[0]!.read()).toThrow(/above the 268435456 bytes/)
  })

  it('a wrong CRC-32', () => {
    const bytes = text('hello')
    const zip = handMade('h.txt', deflateRawSync(bytes), bytes.length, crc32(bytes) ^ 1)
    expect(() => readZip(zip)[0]!.read()).toThrow(/CRC-32/)
  })

  it('zip slip: a path with "..", or absolute, is refused for writing out', () => {
    expect(safeEntryNames('a/./b/c.txt')).toEqual(['a', 'b', 'c.txt'])
    for (const name of ['../evil.txt', 'a/../../evil', '/etc/passwd', 'C:/x', '\\x', 'a\\..\\b'])
      expect(() => safeEntryNames(name), name).toThrow(ZipFormatError)
    // Listed, it is only a name: the archive reads.
    const zip = writeZip([{ name: '../evil.txt', bytes: text('x'), modified: when, level: 0 }])
    expect(readZip(zip).map((e) => e.name)).toEqual(['../evil.txt'])
  })
})
