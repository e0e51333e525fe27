/**
 * @module What a 4D server would serve for a corpus project, read straight from its files with a
 * few patterns, apart from Entistore's own readers (a bug there must not hide itself here): the
 * tables ORDA maps (a single-field primary key, not in the Trash, exposed), which of them generate
 * their key on create, the fields a create must fill, and the exposed computed attributes and
 * aliases each Entity class declares.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ExpectedField {
  readonly name: string
  /** A UUID field (`store_as_UUID`): its values are UUIDs. */
  readonly uuid: boolean
  /** An Alpha's length (`limiting_length`). */
  readonly length: number | undefined
  /** 4D's type code (1 bool, 3/4/25 integers, 6 real, 8 date, 9 time, 10/14 text, 21 object…). */
  readonly type: number
  readonly notNull: boolean
  readonly unique: boolean
}

export interface ExpectedTable {
  readonly name: string
  readonly key: string
  /** The key is numbered (autosequence) or made a UUID (autogenerate) by the server. */
  readonly generatedKey: boolean
  /**
   * A mandatory field hidden from REST, that the server does not fill: no REST client can create
   * one (4D refuses the null as well); the application's own code does.
   */
  readonly hiddenMandatory: string | undefined
  /** Fields a create must give a value: mandatory (not_null) ones, the key aside. */
  readonly mandatory: readonly ExpectedField[]
  /**
   * The scalar fields a user's form fills (text, numbers, dates, booleans, times), the key and
   * what the server fills aside: a create with all of them is the first create a user makes.
   */
  readonly fillable: readonly ExpectedField[]
  /** The exposed computed attributes and aliases its Entity class declares. */
  readonly declared: readonly { readonly name: string; readonly kind: 'computed' | 'alias' }[]
}

const PROPERTY_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u

const attr = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]

/** The ORDA tables of the project at `folder` (the one holding `Project/`). */
export function expectedTables(folder: string): ExpectedTable[] {
  const sources = join(folder, 'Project', 'Sources')
  const xml = readFileSync(join(sources, 'catalog.4DCatalog'), 'utf8')
  const tables: ExpectedTable[] = []
  // `Table.field` of each relation's source: a foreign key, which a form fills by a choice.
  const foreign = new Set(
    [
      ...xml.matchAll(
        /<related_field\s+kind="source">\s*<field_ref\s[^>]*name="([^"]*)"[^>]*>\s*<table_ref\s[^>]*name="([^"]*)"/g,
      ),
    ].map((m) => `${m[2]}.${m[1]}`),
  )
  for (const m of xml.matchAll(/<table\s[^>]*>[\s\S]*?<\/table>/g)) {
    const block = m[0]
    const head = /<table\s[^>]*>/.exec(block)![0]
    const name = attr(head, 'name')!
    if (/<table_extra\s[^>]*trashed="true"/.test(block) || attr(head, 'hide_in_REST') === 'true')
      continue
    const keys = [...block.matchAll(/<primary_key\s[^>]*>/g)].map((k) => attr(k[0], 'field_name'))
    if (keys.length !== 1) continue
    // ORDA maps the names an object property may have (dsmapping.md, "General rules").
    if (!PROPERTY_NAME.test(name)) continue
    const fields = [...block.matchAll(/<field\s[^>]*>/g)].map((f) => ({
      tag: f[0],
      name: attr(f[0], 'name')!,
      uuid: attr(f[0], 'store_as_UUID') === 'true',
      length:
        attr(f[0], 'limiting_length') === undefined
          ? undefined
          : Number(attr(f[0], 'limiting_length')),
      // The server fills it (autosequence, autogenerate), or REST cannot write it (hidden).
      filled:
        attr(f[0], 'autosequence') === 'true' ||
        attr(f[0], 'autogenerate') === 'true' ||
        attr(f[0], 'hide_in_REST') === 'true',
      type: Number(attr(f[0], 'type')),
      notNull: attr(f[0], 'not_null') === 'true',
      unique: attr(f[0], 'unique') === 'true',
      hidden: attr(f[0], 'hide_in_REST') === 'true',
    }))
    const key = fields.find((f) => f.name === keys[0])
    if (key === undefined) continue
    const generatedKey =
      attr(key.tag, 'autosequence') === 'true' || attr(key.tag, 'autogenerate') === 'true'
    tables.push({
      name,
      key: key.name,
      generatedKey,
      hiddenMandatory: fields.find(
        (f) =>
          f !== key &&
          f.notNull &&
          f.hidden &&
          attr(f.tag, 'autosequence') !== 'true' &&
          attr(f.tag, 'autogenerate') !== 'true',
      )?.name,
      mandatory: fields
        .filter((f) => f !== key && f.notNull && !f.filled && PROPERTY_NAME.test(f.name))
        .map(fieldOf),
      fillable: fields
        .filter(
          (f) =>
            f !== key &&
            !f.filled &&
            SCALAR.has(f.type) &&
            !foreign.has(`${name}.${f.name}`) &&
            !f.name.startsWith('__') &&
            PROPERTY_NAME.test(f.name),
        )
        .map(fieldOf),
      declared: declaredAttributes(sources, name),
    })
  }
  return tables
}

// Boolean, integers, real, date, time, texts.
const SCALAR = new Set([1, 3, 4, 5, 6, 8, 9, 10, 14, 25])

const fieldOf = (f: ExpectedField): ExpectedField => ({
  name: f.name,
  uuid: f.uuid,
  length: f.length,
  type: f.type,
  notNull: f.notNull,
  unique: f.unique,
})

// `exposed Function get fullName(…)`, `exposed Alias employerName employer.name` (any case).
const COMPUTED =
  /^\s*(?:local\s+)?exposed\s+(?:local\s+)?Function\s+get\s+([\p{L}_][\p{L}\p{N}_]*)/imu
const ALIAS = /^\s*exposed\s+Alias\s+([\p{L}_][\p{L}\p{N}_]*)\s+\S/imu

function declaredAttributes(sources: string, table: string): ExpectedTable['declared'] {
  const file = join(sources, 'Classes', `${table}Entity.4dm`)
  if (!existsSync(file)) return []
  const out: { name: string; kind: 'computed' | 'alias' }[] = []
  for (const line of readFileSync(file, 'utf8').split(/\r\n|\n|\r/)) {
    const computed = COMPUTED.exec(line)
    if (computed) out.push({ name: computed[1]!, kind: 'computed' })
    const alias = ALIAS.exec(line)
    if (alias) out.push({ name: alias[1]!, kind: 'alias' })
  }
  return out
}

/** The class files of the project: what the class-file figures count. */
export function classFiles(folder: string): string[] {
  const dir = join(folder, 'Project', 'Sources', 'Classes')
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.4dm')) : []
}

/** A value a create may give `field` (`n` makes unique ones differ). */
export function sampleValue(field: ExpectedField, n: number): unknown {
  if (field.uuid) return n.toString(16).toUpperCase().padStart(32, '0')
  switch (field.type) {
    case 1:
      return false
    case 3:
    case 4:
    case 5:
    case 25:
    case 6:
      return n
    case 8:
      return '2024-01-15'
    case 9:
      return 3600
    case 21:
      return {}
    default:
      return `corpus ${n}`.slice(0, field.length ?? Infinity)
  }
}
