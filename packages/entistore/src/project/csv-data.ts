/**
 * @module A folder of CSV files as a project's data (`serve --project Project --data csv/`): one
 * file a table (`Car.csv`), a header row of field names, RFC 4180 quoting, each value converted by
 * its field's type. A mistake (a header naming no field, a value that is not of its field's type,
 * a quote never closed, a picture or BLOB path that leads out of the folder) is a FileError at the
 * file, line and column of the cell, before anything is loaded.
 *
 * 4D keeps its data in a data file (.4DD), not in the project folder, and has no convention for a
 * folder of CSV files: the folder is always given with `--data`.
 */
import { readdir, readFile, realpath } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { DatastoreError, type DataClassJson, type Datastore, type ModelJson } from '@entistore/core'
import { FileError, unreadableFile, unreadableFolder } from '../files/file-error.js'

/** One cell with its place in the file. */
interface Cell {
  readonly text: string
  readonly line: number
  readonly column: number
}

/** The records of a CSV text (RFC 4180): fields by commas, quoted with `"`, `""` a quote in one. */
export function parseCsv(text: string, file: string): Cell[][] {
  const records: Cell[][] = []
  let record: Cell[] = []
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  let lineStart = at
  const place = (i: number) => ({ line, column: i - lineStart + 1 })
  for (;;) {
    const start = place(at)
    let value = ''
    if (text[at] === '"') {
      at++
      for (;;) {
        const q = text.indexOf('"', at)
        if (q < 0)
          throw new FileError(file, 'a quoted value is not closed: the file ends inside it', start)
        const part = text.slice(at, q)
        // A quoted value may hold line breaks: count them, so that later places stay right.
        for (let i = part.indexOf('\n'); i >= 0; i = part.indexOf('\n', i + 1)) {
          line++
          lineStart = at + i + 1
        }
        value += part
        at = q + 1
        if (text[at] !== '"') break
        value += '"'
        at++
      }
      const next = text[at]
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        throw new FileError(
          file,
          'text after a closing quote (a quote in a value is written "")',
          place(at),
        )
    } else {
      const end = /[,\r\n]/.exec(text.slice(at))
      const stop = end ? at + end.index : text.length
      value = text.slice(at, stop)
      const quote = value.indexOf('"')
      if (quote >= 0)
        throw new FileError(
          file,
          'a quote inside a value that does not start with one (quote the whole value)',
          place(at + quote),
        )
      at = stop
    }
    record.push({ text: value, ...start })
    if (text[at] === ',') {
      at++
      continue
    }
    // The end of a record: CRLF, LF, or the end of the text. A last empty line is no record.
    if (!(record.length === 1 && record[0]!.text === '' && at >= text.length)) records.push(record)
    record = []
    if (text[at] === '\r') at++
    if (text[at] === '\n') at++
    if (at >= text.length) return records
    line++
    lineStart = at
  }
}

/** A cell's value for a field of one type; BadValue says why it is not one. */
type Convert = (text: string) => unknown

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  byte: [-128, 127],
  word: [-32768, 32767],
  long: [-(2 ** 31), 2 ** 31 - 1],
  long64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
}

class BadValue extends Error {}

function integer(type: string): Convert {
  const [min, max] = INTEGER_RANGES[type]!
  return (text) => {
    const n = Number(text)
    if (!/^[-+]?\d+$/.test(text) || n < min || n > max)
      throw new BadValue(`is not an integer from ${min} to ${max} (${type})`)
    return n
  }
}

const number: Convert = (text) => {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new BadValue('is not a number')
  return Number(text)
}

const bool: Convert = (text) => {
  const t = text.toLowerCase()
  if (t === 'true' || t === '1') return true
  if (t === 'false' || t === '0') return false
  throw new BadValue('is not a boolean (true, false, 1 or 0)')
}

const date: Convert = (text) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const d = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  if (!d || d.toISOString().slice(0, 10) !== text) throw new BadValue('is not a date (YYYY-MM-DD)')
  return text
}

// 4D's Time: hours (any number of them), minutes, seconds; milliseconds in the REST form.
const duration: Convert = (text) => {
  const m = /^(\d+):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,3}))?)?$/.exec(text)
  if (!m) throw new BadValue('is not a time (HH:MM:SS, or HH:MM:SS.mmm)')
  const ms = Number((m[4] ?? '0').padEnd(3, '0'))
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000 + ms
}

const uuid: Convert = (text) => {
  if (!/^[0-9a-fA-F]{32}$|^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$/.test(text))
    throw new BadValue('is not a UUID (32 hexadecimal digits, dashes allowed)')
  return text
}

const object: Convert = (text) => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new BadValue('is not JSON (an Object field holds a JSON object or array)')
  }
  if (typeof value !== 'object' || value === null)
    throw new BadValue('is not a JSON object or array')
  return value
}

const CONVERT: Readonly<Record<string, Convert>> = {
  bool,
  byte: integer('byte'),
  word: integer('word'),
  long: integer('long'),
  long64: integer('long64'),
  number,
  date,
  duration,
  uuid,
  object,
  string: (text) => text,
}

const INSIDE = '(a picture or BLOB cell names a file inside the CSV folder, as files/logo.png)'

/** Whether `path` is `folder` or below it (both absolute, resolved). */
const isInside = (folder: string, path: string): boolean => {
  const up = relative(folder, path)
  return up !== '..' && !up.startsWith(`..${sep}`) && !isAbsolute(up)
}

/** The CSV folder: as given, and its real path (symbolic links followed). */
interface Folder {
  readonly path: string
  readonly real: string
}

/**
 * The real path of the file a picture or BLOB cell names: a path from the CSV folder that stays
 * inside it, symbolic links followed. Any other path would let a CSV file serve whatever the
 * server may read (`/etc/passwd`, `../.env`) to every client.
 */
async function fileInside(folder: Folder, text: string): Promise<string> {
  if (isAbsolute(text)) throw new BadValue(`is an absolute path ${INSIDE}`)
  const path = resolve(folder.path, text)
  if (!isInside(resolve(folder.path), path))
    throw new BadValue(`leads out of the CSV folder ${INSIDE}`)
  let real: string
  try {
    real = await realpath(path)
  } catch (e) {
    throw cannotRead(e)
  }
  if (!isInside(folder.real, real))
    throw new BadValue(`leads out of the CSV folder through a symbolic link ${INSIDE}`)
  return real
}

const cannotRead = (e: unknown): BadValue => {
  const code = (e as NodeJS.ErrnoException).code
  return new BadValue(
    `names no file that can be read (${code === 'ENOENT' ? 'no such file' : (code ?? String(e))}; a path from the CSV folder)`,
  )
}

/** A picture or BLOB cell: the path of a file inside the CSV folder, read as the data file's form. */
async function binary(folder: Folder, text: string, picture: boolean): Promise<unknown> {
  // The real path is read, not the cell's: a link changed after the check is not followed.
  const file = await fileInside(folder, text)
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch (e) {
    throw cannotRead(e)
  }
  // A picture's type is read from its bytes by the loader; a BLOB has none.
  return picture
    ? { $base64: bytes.toString('base64') }
    : { $base64: bytes.toString('base64'), type: 'application/octet-stream' }
}

/** The rows of one table's CSV file, each value converted by its field's type. */
async function tableRows(
  dc: DataClassJson,
  file: string,
  folder: Folder,
  text: string,
): Promise<{ rows: Record<string, unknown>[]; lines: number[] }> {
  const [header, ...records] = parseCsv(text, file)
  if (!header) return { rows: [], lines: [] }
  const storage = new Map(
    dc.attributes
      .filter((a) => (a.kind ?? 'storage') === 'storage')
      .map((a) => [a.name.toLowerCase(), a]),
  )
  const columns = header.map((cell, i) => {
    const attr = storage.get(cell.text.trim().toLowerCase())
    if (!attr)
      throw new FileError(
        file,
        `"${cell.text}" is no field of table ${dc.name} (its fields: ${[...storage.values()].map((a) => a.name).join(', ')})`,
        cell,
      )
    if (
      header.slice(0, i).some((c) => c.text.trim().toLowerCase() === cell.text.trim().toLowerCase())
    )
      throw new FileError(file, `the field "${attr.name}" is named twice in the header`, cell)
    return attr
  })
  const rows: Record<string, unknown>[] = []
  const lines: number[] = []
  for (const record of records) {
    if (record.length !== columns.length)
      throw new FileError(
        file,
        `${record.length} values where the header names ${columns.length} fields`,
        record[0],
      )
    const row: Record<string, unknown> = {}
    for (let i = 0; i < columns.length; i++) {
      const attr = columns[i]!
      const cell = record[i]!
      const type = attr.type as string
      try {
        // An empty cell is null, but in a text field, where it is the empty text (4D's blank).
        if (cell.text === '') row[attr.name] = type === 'string' ? '' : null
        else if (type === 'image' || type === 'blob')
          row[attr.name] = await binary(folder, cell.text, type === 'image')
        else row[attr.name] = CONVERT[type]!(cell.text)
      } catch (e) {
        if (!(e instanceof BadValue)) throw e
        throw new FileError(file, `${dc.name}.${attr.name}: "${cell.text}" ${e.message}`, cell)
      }
    }
    rows.push(row)
    lines.push(record[0]!.line)
  }
  return { rows, lines }
}

/** The rows read from a CSV folder, by dataclass, and where each row is (for a refused row). */
export interface CsvData {
  readonly rows: Readonly<Record<string, readonly Record<string, unknown>[]>>
  /** Each dataclass's file, and the line of each of its rows. */
  readonly places: ReadonlyMap<string, { readonly file: string; readonly lines: readonly number[] }>
}

/** Reads the `*.csv` files of `folder`, one per dataclass of `model` (named after it). */
export async function readCsvFolder(folder: string, model: ModelJson): Promise<CsvData> {
  let names: string[]
  let real: string
  try {
    names = (await readdir(folder)).filter((n) => extname(n).toLowerCase() === '.csv').sort()
    real = await realpath(folder)
  } catch (e) {
    throw unreadableFolder(folder, 'CSV', e)
  }
  const byName = new Map(model.dataClasses.map((dc) => [dc.name.toLowerCase(), dc]))
  const rows: Record<string, Record<string, unknown>[]> = {}
  const places = new Map<string, { file: string; lines: number[] }>()
  for (const name of names) {
    const file = join(folder, name)
    const dc = byName.get(name.slice(0, -4).toLowerCase())
    if (!dc)
      throw new FileError(
        file,
        `no table is named ${name.slice(0, -4)}: a CSV file is named after its table (${model.dataClasses.map((d) => `${d.name}.csv`).join(', ')})`,
      )
    if (places.has(dc.name))
      throw new FileError(file, `a second file for table ${dc.name} (${places.get(dc.name)!.file})`)
    let text: string
    try {
      text = (await readFile(file)).toString('utf8')
    } catch (e) {
      throw unreadableFile(file, 'CSV', e)
    }
    const read = await tableRows(dc, file, { path: folder, real }, text)
    rows[dc.name] = read.rows
    places.set(dc.name, { file, lines: read.lines })
  }
  withoutBlankReferences(model, rows)
  return { rows, places }
}

/**
 * 4D's "no related entity" in exported data: a foreign key of 0, or an empty text, that names no
 * entity of the related table, made null. 4D writes them for a record never related (a numeric
 * field's blank is 0, a text field's is empty), and finds no related record through them.
 */
function withoutBlankReferences(
  model: ModelJson,
  rows: Readonly<Record<string, Record<string, unknown>[]>>,
): void {
  const byName = new Map(model.dataClasses.map((dc) => [dc.name, dc]))
  for (const dc of model.dataClasses) {
    const own = rows[dc.name]
    if (own === undefined) continue
    for (const a of dc.attributes) {
      if (a.kind !== 'relatedEntity' || a.foreignKey === undefined) continue
      const target = byName.get(a.path ?? a.type ?? '')
      const key = target?.key?.[0]?.name
      const keys = new Set(key === undefined ? [] : (rows[target!.name] ?? []).map((r) => r[key]))
      for (const row of own) {
        const v = row[a.foreignKey]
        if ((v === 0 || v === '') && !keys.has(v)) row[a.foreignKey] = null
      }
    }
  }
}

/**
 * Loads `csv` into `into` in one commit. A row the datastore refuses (a duplicate key, a related
 * key that names no entity) throws a FileError at its CSV file and line.
 */
export function loadCsvData(into: Datastore, csv: CsvData): void {
  const load = into.beginLoad()
  try {
    for (const [name, rows] of Object.entries(csv.rows)) load.add(name, [...rows])
    load.commit()
  } catch (e) {
    if (!DatastoreError.is(e)) throw e
    // The datastore names the row as `Car[12].model: …`: the file and line say it to a person.
    const m = /\b(\w+)\[(\d+)\]/.exec(e.message)
    const place = m ? csv.places.get(m[1]!) : undefined
    const line = place?.lines[Number(m![2])]
    if (place === undefined || line === undefined)
      throw new FileError(firstFile(csv), e.message, { cause: e })
    throw new FileError(place.file, e.message, { cause: e, line })
  }
}

const firstFile = (csv: CsvData): string => [...csv.places.values()][0]?.file ?? 'the CSV folder'
