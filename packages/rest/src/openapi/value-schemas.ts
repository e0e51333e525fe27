/**
 * @module The JSON Schema (2020-12, OpenAPI 3.1's dialect) of each attribute's value, in the two
 * forms the wire has: as a read writes it (serialize/entity.ts: date-only values between `!!`,
 * pictures and BLOBs as their `__deferred` objects, relations deferred or written out) and as a
 * write takes it (core's values/coerce.ts: canonical forms, a picture as base64 or an upload's ID).
 * Pure: a model's definitions in, plain objects out.
 */
import {
  aliasTarget,
  readsNull,
  type AttributeDef,
  type DataClassDef,
  type StorageAttributeDef,
  type ValueType,
} from '@entistore/core'

/** A JSON Schema object, as the description holds it. */
export type Schema = { readonly [keyword: string]: unknown }

/**
 * Where a schema of the description lives. Dataclass names hold no dot, so the shared schemas'
 * `rest.` prefix and the per-dataclass suffixes (`Employee.selection`) never meet a dataclass.
 */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** Any JSON object (`additionalProperties` said, so that generated types read its members). */
export const OPEN: Schema = { type: 'object', additionalProperties: true }

/** `schema` or null: a type list where it is one type, else `anyOf`. */
export function nullable(schema: Schema): Schema {
  const { type } = schema
  if (typeof type === 'string' && schema.enum === undefined && schema.const === undefined)
    return { ...schema, type: [type, 'null'] }
  if (Array.isArray(type) && schema.enum === undefined)
    return { ...schema, type: [...type, 'null'] }
  return { anyOf: [schema, { type: 'null' }] }
}

const integer = (minimum: number, maximum: number, format?: string): Schema =>
  format === undefined
    ? { type: 'integer', minimum, maximum }
    : { type: 'integer', format, minimum, maximum }

/** The ranges core's coercion holds each integer type to. */
const INTEGERS: Readonly<Partial<Record<ValueType, Schema>>> = {
  byte: integer(-128, 127),
  word: integer(-32768, 32767),
  long: integer(-2147483648, 2147483647, 'int32'),
  long64: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'int64'),
}

/** An attribute's flags that change its value's schema. */
interface ValueFlags {
  readonly dateOnly?: boolean
  readonly vector?: boolean
  readonly maxLength?: number
}

/** What a stored value of `type` is in a read (`dateOnly`, `vector`, `maxLength`: the attribute's flags). */
export function readValue(type: ValueType, flags: ValueFlags = {}): Schema {
  switch (type) {
    case 'bool':
      return { type: 'boolean' }
    case 'byte':
    case 'word':
    case 'long':
    case 'long64':
      return INTEGERS[type]!
    case 'number':
      return { type: 'number' }
    case 'duration':
      return { type: 'number', description: 'a duration, in milliseconds' }
    case 'string':
      return flags.maxLength === undefined
        ? { type: 'string' }
        : { type: 'string', maxLength: flags.maxLength }
    case 'uuid':
      return { type: 'string', pattern: '^[0-9A-F]{32}$' }
    case 'date':
      return flags.dateOnly
        ? {
            type: 'string',
            pattern: '^!!\\d{4}-\\d{2}-\\d{2}!!$',
            description: 'a date, between `!!` (4D: `!!2000-01-13!!`)',
          }
        : { type: 'string', format: 'date-time' }
    case 'object':
      return flags.vector
        ? { type: 'array', items: { type: 'number' }, description: 'a 4D.Vector' }
        : {
            type: ['object', 'array'],
            additionalProperties: true,
            description: 'any JSON object or array',
          }
    case 'image':
      return ref('rest.DeferredImage')
    case 'blob':
      return ref('rest.DeferredBlob')
  }
}

/** What a write takes for a value of `type`: the canonical forms (coerce.ts accepts a few more). */
export function writeValue(type: ValueType, flags: ValueFlags = {}): Schema {
  switch (type) {
    case 'duration':
      return {
        type: ['number', 'string'],
        description: 'milliseconds, or `HH:MM:SS[.mmm]`',
      }
    case 'uuid':
      return { type: 'string', description: '32 hexadecimal digits, dashes and braces allowed' }
    case 'date':
      return flags.dateOnly
        ? { type: 'string', description: '`YYYY-MM-DD`, `!!YYYY-MM-DD!!` or an ISO 8601 date-time' }
        : { type: 'string', description: 'an ISO 8601 date-time (or a date)' }
    case 'image':
    case 'blob':
      return { anyOf: [ref('rest.UploadReference'), ref('rest.Base64Value')] }
    default:
      return readValue(type, flags)
  }
}

/** A calculated attribute's value: its declared type, a date in either form its code returns. */
function calculatedValue(type: ValueType): Schema {
  return type === 'date' ? { type: 'string', description: 'a date or date-time' } : readValue(type)
}

/** What a description needs of the model to name an attribute's schema. */
export interface AttributeContext {
  /** The dataclass a relation leads to, when the description shows it. */
  readonly shown: (dataClass: string) => DataClassDef | undefined
}

/** A stored attribute's read form: null allowed unless the attribute is the key or never reads it. */
function storedRead(dc: DataClassDef, attr: StorageAttributeDef): Schema {
  const value = readValue(attr.type, attr)
  return attr === dc.key || !readsNull(attr) ? value : nullable(value)
}

/**
 * The read form of `attr` of `dc`, or undefined when the description leaves it out (a relation to
 * a dataclass it does not show, an alias whose path it cannot follow).
 */
export function attributeRead(
  ctx: AttributeContext,
  dc: DataClassDef,
  attr: AttributeDef,
): Schema | undefined {
  switch (attr.kind) {
    case 'storage':
      return storedRead(dc, attr)
    case 'relatedEntity':
      return ctx.shown(attr.target) && relatedEntity(attr.target)
    case 'relatedEntities':
      return ctx.shown(attr.target) && relatedEntities(attr.target)
    case 'calculated':
      if (attr.related !== undefined) {
        const { dataClass, many } = attr.related
        return (
          ctx.shown(dataClass) && (many ? relatedEntities(dataClass) : relatedEntity(dataClass))
        )
      }
      return nullable(calculatedValue(attr.type))
    case 'alias': {
      const end = aliasEnd(ctx, dc, attr.path)
      if (end === undefined) return undefined
      const [at, last, many] = end
      // Through a to-many relation: the selection its last relation reaches, or the values.
      if (many && (last.kind === 'relatedEntity' || last.kind === 'relatedEntities'))
        return ctx.shown(last.target) && relatedEntities(last.target)
      const read = attributeRead(ctx, at, last)
      if (many) return read && { type: 'array', items: read }
      if (last.kind === 'storage' || last.kind === 'calculated') return nullable(read!)
      return read
    }
  }
}

/** A relatedEntity in a read: deferred, written out (`$expand`, `$attributes`), or null. */
const relatedEntity = (target: string): Schema => ({
  anyOf: [ref('rest.DeferredEntity'), ref(target), { type: 'null' }],
})

/** A relatedEntities attribute in a read: deferred, or its first page written out. */
const relatedEntities = (target: string): Schema => ({
  anyOf: [ref('rest.DeferredSelection'), ref(`${target}.related`)],
})

/**
 * The dataclass and attribute an alias path ends on, through shown relations only, and whether it
 * goes through a to-many relation.
 */
function aliasEnd(
  ctx: AttributeContext,
  dc: DataClassDef,
  path: readonly string[],
  depth = 0,
): [DataClassDef, Exclude<AttributeDef, { kind: 'alias' }>, boolean] | undefined {
  const end = aliasTarget((name) => ctx.shown(name), dc, path)
  if (end === undefined) return undefined
  const { owner, attr, many } = end
  if (attr.kind !== 'alias') return [owner, attr, many]
  // An alias of an alias, a few levels down (the engine's own bound).
  const next = depth < 8 ? aliasEnd(ctx, owner, attr.path, depth + 1) : undefined
  return next && [next[0], next[1], many || next[2]]
}

/**
 * The write form of `attr`, or undefined when a write may not give it: relatedEntities, an alias
 * (sent back unchanged it is ignored, any other value refused), a relation to a dataclass not shown.
 */
export function attributeWrite(
  ctx: AttributeContext,
  dc: DataClassDef,
  attr: AttributeDef,
): Schema | undefined {
  switch (attr.kind) {
    case 'storage': {
      const value = writeValue(attr.type, attr)
      return attr === dc.key || attr.notNull ? value : nullable(value)
    }
    case 'relatedEntity': {
      const target = ctx.shown(attr.target)
      if (!target) return undefined
      const key = writeValue(target.key.type, target.key)
      return {
        anyOf: [key, ref('rest.KeyReference'), ref('rest.DeferredEntity'), { type: 'null' }],
        description: `the related ${target.name}: its key, {"__KEY": …}, its deferred form, or null`,
      }
    }
    case 'calculated':
      // Written through its `set` function; without one only the value read may be sent back.
      return nullable(calculatedValue(attr.type))
    default:
      return undefined
  }
}

/** A short description of an attribute for the reader of the description. */
export function attributeNote(attr: AttributeDef): string {
  switch (attr.kind) {
    case 'storage': {
      const flags = [
        attr.identifying ? 'the key' : undefined,
        attr.autosequence ? 'autosequence' : undefined,
        attr.unique ? 'unique' : undefined,
        attr.notNull ? 'not null' : undefined,
        attr.type === 'date' ? (attr.dateOnly ? 'date only' : 'date and time') : undefined,
      ].filter((f) => f !== undefined)
      return [`${attr.type}`, ...flags].join(', ')
    }
    case 'relatedEntity':
      return `relatedEntity: one ${attr.target}`
    case 'relatedEntities':
      return `relatedEntities: ${attr.type}, ${attr.target} entities`
    case 'calculated':
      return `calculated ${attr.type}`
    case 'alias':
      return `alias of ${attr.path.join('.')}`
  }
}
