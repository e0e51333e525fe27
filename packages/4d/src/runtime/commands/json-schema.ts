/**
 * @module A JSON Schema (draft 4) validator over plain JavaScript, for `JSON Validate`
 * (json-validate.ts, docs/commands-legacy/json-validate.md): 4D's implementation "is based upon
 * the version 4 of the draft", and answers each failure with a code and a message from the
 * page's table, which MESSAGES below copies word for word. The schema is checked first, whole
 * (json-schema-check.ts).
 *
 * Paths: `jsonPath` is `$` for the value, `.name` for a property (`['my key']` when the name is
 * not an identifier), `[2]` for an element (`$.list[2].id`); `schemaPaths` is a JSON pointer into
 * the schema ending at the keyword that failed (`#/properties/age/minimum`), through a `$ref` the
 * pointer it named (`#/definitions/positive/minimum`). A `uniqueItems` failure points at the
 * repeated element, every other failure at the value the keyword applies to.
 */
import {
  checkSchema,
  fail,
  isObject,
  own,
  pointerKey,
  type CheckedSchema,
  type Json,
  type Schema,
} from './json-schema-check.js'

export { InvalidSchemaError, type Json } from './json-schema-check.js'

export interface ValidationError {
  readonly code: number
  readonly jsonPath: string
  readonly message: string
  readonly schemaPaths: string
}

// docs/commands-legacy/json-validate.md, "Error management".
const MESSAGES: Readonly<Record<number, string>> = {
  2: "Error while validating against 'multipleOf' key.",
  3: 'The value provided should not be greater than specified in the schema ("{s1}").',
  4: 'The value provided should be less than specified in the schema ("{s1}").',
  5: 'The value provided should not be less than specified in the schema ("{s1}").',
  6: 'The value provided should be greater than specified in the schema ("{s1}").',
  7: 'The string is longer than specified in the schema.',
  8: 'The string is shorter than specified in the schema.',
  9: 'The string "{s1}" does not match the pattern in the schema:{s2}.',
  10: 'Error while validating an array. JSON contains more elements than specified in the schema.',
  11: 'The array contains more items than specified in the schema.',
  12: 'The array contains less items than specified in the schema.',
  13: 'Error while validating an array. Elements are not unique. Another instance of "{s1}" is already in the array.',
  14: 'The number of properties is greater than specified in the schema.',
  15: 'The number of properties is less than specified in the schema.',
  16: 'The required property "{s1}" is missing.',
  17: 'No additional properties allowed by the schema. The property(ies) {s1} should be removed.',
  18: 'The property "{s1}" requires the property "{s2}".',
  19: 'Error while validating against \'enum\' key. "{s1}" does not match any enum element in the schema.',
  20: 'Incorrect type. Expected type is: {s1}',
  21: 'The JSON matches more than one value.',
  22: 'The JSON does not match any value.',
  23: "The JSON is valid against the value of 'not'.",
  24: 'The string does not match ("{s1}")',
}

/** The failures of `json` against `schema`, none when it is valid. */
export function validateJson(json: Json, schema: Json): ValidationError[] {
  const validator = new Validator(checkSchema(schema))
  validator.validate(json, validator.schema.root, '$', '#')
  return validator.errors
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return `${path}.${key}`
  return `${path}['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`
}

/** A value in a message: a text as it is, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))

function isType(v: Json, type: string): boolean {
  switch (type) {
    case 'null':
      return v === null
    case 'integer':
      return Number.isInteger(v)
    case 'array':
      return Array.isArray(v)
    case 'object':
      return isObject(v)
    default:
      return typeof v === type
  }
}

function equal(a: Json, b: Json): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => equal(item, b[i]!))
  }
  if (!isObject(a) || !isObject(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => Object.hasOwn(b, k) && equal(a[k] as Json, b[k] as Json))
}

/** Characters as the schema counts them: code points, so an emoji is one. */
function codePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/

function isIPv6(text: string): boolean {
  let s = text
  const last = s.lastIndexOf(':')
  if (last < 0) return false
  // An IPv4 tail (`::ffff:1.2.3.4`) stands for two groups.
  if (s.slice(last + 1).includes('.')) {
    if (!IPV4.test(s.slice(last + 1))) return false
    s = `${s.slice(0, last + 1)}0:0`
  }
  const halves = s.split('::')
  if (halves.length > 2) return false
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')))
  if (!groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false
  return halves.length === 2 ? groups.length < 8 : groups.length === 8
}

/** The formats the draft names, each a simple check; any other format passes, as the draft lets. */
const FORMATS: Readonly<Record<string, (s: string) => boolean>> = {
  'date-time': (s) =>
    /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(s),
  email: (s) => /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*$/.test(s),
  hostname: (s) => s.length <= 253 && s.split('.').every((label) => LABEL.test(label)),
  ipv4: (s) => IPV4.test(s),
  ipv6: isIPv6,
  uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(s),
}

class Validator {
  errors: ValidationError[] = []
  /** The `$ref`s being followed, with the value each is applied to: a loop that reads no value. */
  private readonly active = new Set<string>()

  constructor(readonly schema: CheckedSchema) {}

  private error(code: number, jsonPath: string, schemaPaths: string, s1 = '', s2 = ''): void {
    const message = MESSAGES[code]!.replace('{s1}', () => s1).replace('{s2}', () => s2)
    this.errors.push({ code, jsonPath, message, schemaPaths })
  }

  /** The failures of one sub-validation, kept apart (anyOf, oneOf, not). */
  private errorsOf(json: Json, schema: Schema, jp: string, sp: string): ValidationError[] {
    const outer = this.errors
    this.errors = []
    try {
      this.validate(json, schema, jp, sp)
      return this.errors
    } finally {
      this.errors = outer
    }
  }

  validate(json: Json, schema: Schema, jp: string, sp: string): void {
    const ref = own(schema, '$ref')
    // Draft 4: a `$ref` replaces the keywords beside it.
    if (typeof ref === 'string') {
      const target = this.schema.resolve(ref, sp)
      const key = `${target.path}\u0000${jp}`
      if (this.active.has(key)) fail(sp, `loops through "${ref}" without reading a value`)
      this.active.add(key)
      try {
        this.validate(json, target.schema, jp, target.path)
      } finally {
        this.active.delete(key)
      }
      return
    }
    const type = own(schema, 'type')
    if (type !== undefined) {
      const types = (Array.isArray(type) ? type : [type]) as string[]
      if (!types.some((t) => isType(json, t))) this.error(20, jp, `${sp}/type`, types.join(', '))
    }
    if (typeof json === 'number') this.number(json, schema, jp, sp)
    else if (typeof json === 'string') this.string(json, schema, jp, sp)
    else if (Array.isArray(json)) this.array(json, schema, jp, sp)
    else if (isObject(json)) this.object(json, schema, jp, sp)
    const choices = own(schema, 'enum') as Json[] | undefined
    if (choices !== undefined && !choices.some((c) => equal(c, json)))
      this.error(19, jp, `${sp}/enum`, shown(json))
    this.combinators(json, schema, jp, sp)
  }

  private number(n: number, schema: Schema, jp: string, sp: string): void {
    const multipleOf = own(schema, 'multipleOf') as number | undefined
    if (multipleOf !== undefined) {
      // A tolerance, so that 0.3 is a multiple of 0.1 as it is in decimal.
      const q = n / multipleOf
      if (!Number.isFinite(q) || Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q)))
        this.error(2, jp, `${sp}/multipleOf`)
    }
    const max = own(schema, 'maximum') as number | undefined
    if (max !== undefined) {
      if (own(schema, 'exclusiveMaximum') === true) {
        if (n >= max) this.error(4, jp, `${sp}/exclusiveMaximum`, String(max))
      } else if (n > max) this.error(3, jp, `${sp}/maximum`, String(max))
    }
    const min = own(schema, 'minimum') as number | undefined
    if (min !== undefined) {
      if (own(schema, 'exclusiveMinimum') === true) {
        if (n <= min) this.error(6, jp, `${sp}/exclusiveMinimum`, String(min))
      } else if (n < min) this.error(5, jp, `${sp}/minimum`, String(min))
    }
  }

  private string(s: string, schema: Schema, jp: string, sp: string): void {
    const maxLength = own(schema, 'maxLength') as number | undefined
    const minLength = own(schema, 'minLength') as number | undefined
    if (maxLength !== undefined || minLength !== undefined) {
      const length = codePoints(s)
      if (maxLength !== undefined && length > maxLength) this.error(7, jp, `${sp}/maxLength`)
      if (minLength !== undefined && length < minLength) this.error(8, jp, `${sp}/minLength`)
    }
    const pattern = own(schema, 'pattern') as string | undefined
    if (pattern !== undefined && !this.schema.regex(pattern, sp).test(s))
      this.error(9, jp, `${sp}/pattern`, s, pattern)
    const format = own(schema, 'format') as string | undefined
    const test =
      format === undefined || !Object.hasOwn(FORMATS, format) ? undefined : FORMATS[format]
    if (test !== undefined && !test(s)) this.error(24, jp, `${sp}/format`, format)
  }

  private array(list: Json[], schema: Schema, jp: string, sp: string): void {
    const items = own(schema, 'items')
    if (Array.isArray(items)) {
      const count = Math.min(items.length, list.length)
      for (let i = 0; i < count; i++)
        this.validate(list[i]!, items[i] as Schema, childPath(jp, i), `${sp}/items/${i}`)
      const more = own(schema, 'additionalItems')
      if (more === false && list.length > items.length) this.error(10, jp, `${sp}/additionalItems`)
      else if (isObject(more))
        for (let i = items.length; i < list.length; i++)
          this.validate(list[i]!, more, childPath(jp, i), `${sp}/additionalItems`)
    } else if (isObject(items))
      list.forEach((item, i) => this.validate(item, items, childPath(jp, i), `${sp}/items`))
    const maxItems = own(schema, 'maxItems') as number | undefined
    if (maxItems !== undefined && list.length > maxItems) this.error(11, jp, `${sp}/maxItems`)
    const minItems = own(schema, 'minItems') as number | undefined
    if (minItems !== undefined && list.length < minItems) this.error(12, jp, `${sp}/minItems`)
    if (own(schema, 'uniqueItems') === true)
      list.forEach((item, i) => {
        if (list.slice(0, i).some((before) => equal(before, item)))
          this.error(13, childPath(jp, i), `${sp}/uniqueItems`, shown(item))
      })
  }

  private object(o: Schema, schema: Schema, jp: string, sp: string): void {
    const keys = Object.keys(o)
    const maxProperties = own(schema, 'maxProperties') as number | undefined
    if (maxProperties !== undefined && keys.length > maxProperties)
      this.error(14, jp, `${sp}/maxProperties`)
    const minProperties = own(schema, 'minProperties') as number | undefined
    if (minProperties !== undefined && keys.length < minProperties)
      this.error(15, jp, `${sp}/minProperties`)
    for (const name of (own(schema, 'required') as string[] | undefined) ?? [])
      if (!Object.hasOwn(o, name)) this.error(16, jp, `${sp}/required`, name)
    const properties = own(schema, 'properties') as Schema | undefined
    const patterns = Object.entries((own(schema, 'patternProperties') as Schema | undefined) ?? {})
    const additional = own(schema, 'additionalProperties')
    const extra: string[] = []
    for (const key of keys) {
      const value = o[key] as Json
      let matched = false
      if (properties !== undefined && Object.hasOwn(properties, key)) {
        matched = true
        const sub = properties[key] as Schema
        this.validate(value, sub, childPath(jp, key), `${sp}/properties/${pointerKey(key)}`)
      }
      for (const [pattern, sub] of patterns)
        if (this.schema.regex(pattern, sp).test(key)) {
          matched = true
          const at = `${sp}/patternProperties/${pointerKey(pattern)}`
          this.validate(value, sub as Schema, childPath(jp, key), at)
        }
      if (matched) continue
      if (additional === false) extra.push(key)
      else if (isObject(additional))
        this.validate(value, additional, childPath(jp, key), `${sp}/additionalProperties`)
    }
    if (extra.length > 0)
      this.error(17, jp, `${sp}/additionalProperties`, extra.map((k) => `"${k}"`).join(', '))
    const dependencies = (own(schema, 'dependencies') as Schema | undefined) ?? {}
    for (const [name, dep] of Object.entries(dependencies)) {
      if (!Object.hasOwn(o, name)) continue
      const at = `${sp}/dependencies/${pointerKey(name)}`
      if (Array.isArray(dep)) {
        for (const needed of dep as string[])
          if (!Object.hasOwn(o, needed)) this.error(18, jp, at, name, needed)
      } else this.validate(o as Json, dep as Schema, jp, at)
    }
  }

  private combinators(json: Json, schema: Schema, jp: string, sp: string): void {
    const allOf = (own(schema, 'allOf') as Schema[] | undefined) ?? []
    allOf.forEach((sub, i) => this.validate(json, sub, jp, `${sp}/allOf/${i}`))
    const anyOf = own(schema, 'anyOf') as Schema[] | undefined
    if (
      anyOf !== undefined &&
      !anyOf.some((sub, i) => this.errorsOf(json, sub, jp, `${sp}/anyOf/${i}`).length === 0)
    )
      this.error(22, jp, `${sp}/anyOf`)
    const oneOf = own(schema, 'oneOf') as Schema[] | undefined
    if (oneOf !== undefined) {
      const valid = oneOf.filter(
        (sub, i) => this.errorsOf(json, sub, jp, `${sp}/oneOf/${i}`).length === 0,
      ).length
      if (valid !== 1) this.error(valid === 0 ? 22 : 21, jp, `${sp}/oneOf`)
    }
    const not = own(schema, 'not') as Schema | undefined
    if (not !== undefined && this.errorsOf(json, not, jp, `${sp}/not`).length === 0)
      this.error(23, jp, `${sp}/not`)
  }
}
