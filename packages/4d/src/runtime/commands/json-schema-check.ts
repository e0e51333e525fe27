/**
 * @module The schema half of `JSON Validate` (json-schema.ts validates values): a JSON Schema of
 * draft 4 checked whole before any value is looked at, since 4D "returns a Null object and throws
 * an error" for an invalid schema (docs/commands-legacy/json-validate.md), whichever branch the
 * value would have taken. What is refused: a schema that is not an object, a `type` that names no
 * type, a pattern that is not a regex, a keyword of the wrong kind (`required: "a"`), a `$ref`
 * that names nothing or loops through `$ref`s only. A `$ref` is a JSON pointer into the root
 * schema (`#`, `#/definitions/x`); a remote one is refused, since nothing here fetches a document.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type Schema = Record<string, unknown>

/** A schema 4D would refuse: the command raises instead of answering. */
export class InvalidSchemaError extends Error {}

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'])
const COUNTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties']
const FLAGS = ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems']

export function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// JSON.parse gives objects with Object.prototype: `constructor` must not be read as a property.
export const own = (o: Schema, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined)

export const fail = (path: string, what: string): never => {
  throw new InvalidSchemaError(`${path} ${what}`)
}

/** A property name as a segment of a JSON pointer. */
export const pointerKey = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

const isTexts = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((item) => typeof item === 'string')

/** The schema checked: throws InvalidSchemaError for the first thing in it 4D would refuse. */
export function checkSchema(root: Json): CheckedSchema {
  if (!isObject(root)) throw new InvalidSchemaError('the schema is not an object')
  const checked = new CheckedSchema(root)
  checked.check(root, '#')
  return checked
}

/** A schema that passed the check: its `$ref`s resolve and its patterns compile (once). */
export class CheckedSchema {
  private readonly regexes = new Map<string, RegExp>()

  constructor(readonly root: Schema) {}

  /** Throws InvalidSchemaError for the first thing in the schema 4D would refuse. */
  check(schema: unknown, path: string): void {
    if (!isObject(schema)) return fail(path, 'is not a schema (an object)')
    const at = (key: string): string => `${path}/${pointerKey(key)}`
    const ref = own(schema, '$ref')
    if (ref !== undefined) {
      if (typeof ref !== 'string') fail(at('$ref'), 'is not a text')
      this.checkRefChain(ref as string, at('$ref'))
    }
    const type = own(schema, 'type')
    if (type !== undefined) {
      const types = Array.isArray(type) ? type : [type]
      for (const t of types)
        if (typeof t !== 'string' || !TYPES.has(t))
          fail(at('type'), `names an unknown type: ${JSON.stringify(t)}`)
    }
    for (const key of ['maximum', 'minimum', 'multipleOf'])
      if (own(schema, key) !== undefined && typeof own(schema, key) !== 'number')
        fail(at(key), 'is not a number')
    const multipleOf = own(schema, 'multipleOf')
    if (typeof multipleOf === 'number' && multipleOf <= 0) fail(at('multipleOf'), 'is not positive')
    for (const key of COUNTS) {
      const n = own(schema, key)
      if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0))
        fail(at(key), 'is not a positive integer or 0')
    }
    for (const key of FLAGS)
      if (own(schema, key) !== undefined && typeof own(schema, key) !== 'boolean')
        fail(at(key), 'is not a Boolean')
    const pattern = own(schema, 'pattern')
    if (pattern !== undefined) this.regex(pattern, at('pattern'))
    if (own(schema, 'format') !== undefined && typeof own(schema, 'format') !== 'string')
      fail(at('format'), 'is not a text')
    const required = own(schema, 'required')
    if (required !== undefined && !isTexts(required)) fail(at('required'), 'is not a list of texts')
    if (own(schema, 'enum') !== undefined && !Array.isArray(own(schema, 'enum')))
      fail(at('enum'), 'is not a list')
    for (const key of ['properties', 'patternProperties', 'definitions']) {
      const map = own(schema, key)
      if (map === undefined) continue
      if (!isObject(map)) fail(at(key), 'is not an object')
      for (const [name, sub] of Object.entries(map as Schema)) {
        if (key === 'patternProperties') this.regex(name, at(key))
        this.check(sub, `${at(key)}/${pointerKey(name)}`)
      }
    }
    for (const key of ['additionalProperties', 'additionalItems']) {
      const sub = own(schema, key)
      if (sub !== undefined && typeof sub !== 'boolean') this.check(sub, at(key))
    }
    const items = own(schema, 'items')
    if (Array.isArray(items)) items.forEach((sub, i) => this.check(sub, `${at('items')}/${i}`))
    else if (items !== undefined) this.check(items, at('items'))
    const dependencies = own(schema, 'dependencies')
    if (dependencies !== undefined) {
      if (!isObject(dependencies)) fail(at('dependencies'), 'is not an object')
      for (const [name, dep] of Object.entries(dependencies as Schema)) {
        const depPath = `${at('dependencies')}/${pointerKey(name)}`
        if (Array.isArray(dep)) {
          if (!isTexts(dep)) fail(depPath, 'is not a list of texts')
        } else this.check(dep, depPath)
      }
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = own(schema, key)
      if (list === undefined) continue
      if (!Array.isArray(list) || list.length === 0) fail(at(key), 'is not a list of schemas')
      ;(list as unknown[]).forEach((sub, i) => this.check(sub, `${at(key)}/${i}`))
    }
    if (own(schema, 'not') !== undefined) this.check(own(schema, 'not'), at('not'))
  }

  /** A `$ref` that resolves, and whose chain of `$ref`s ends somewhere. */
  private checkRefChain(ref: string, path: string): void {
    const seen = new Set<string>()
    let next: string | undefined = ref
    while (next !== undefined) {
      if (seen.has(next)) fail(path, `loops through "${next}"`)
      seen.add(next)
      const target = own(this.resolve(next, path).schema, '$ref')
      next = typeof target === 'string' ? target : undefined
    }
  }

  /** The schema a local `$ref` names (a JSON pointer, percent-encoded as a URI fragment). */
  resolve(ref: string, path: string): { schema: Schema; path: string } {
    if (ref === '#' || ref === '') return { schema: this.root, path: '#' }
    if (!ref.startsWith('#/')) return fail(path, `"${ref}" is not a pointer into this schema`)
    let node: unknown = this.root
    for (const raw of ref.slice(2).split('/')) {
      let key: string
      try {
        key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      } catch {
        return fail(path, `"${ref}" is not a valid pointer`)
      }
      const into = Array.isArray(node) || isObject(node) ? (node as Schema) : undefined
      if (into === undefined || !Object.hasOwn(into, key))
        return fail(path, `"${ref}" names nothing`)
      node = into[key]
    }
    if (!isObject(node)) return fail(path, `"${ref}" does not name a schema`)
    return { schema: node, path: ref }
  }

  // ECMAScript regexes, as the draft says; Unicode mode first (code points), then the legacy one
  // that older patterns such as `[\w-]{` were written for.
  regex(pattern: unknown, path: string): RegExp {
    if (typeof pattern !== 'string') return fail(path, 'is not a text')
    let re = this.regexes.get(pattern)
    if (re !== undefined) return re
    for (const flags of ['u', '']) {
      try {
        re = new RegExp(pattern, flags)
        break
      } catch {
        // the other flags, then the error below
      }
    }
    if (re === undefined) return fail(path, `is not a valid regular expression: ${pattern}`)
    this.regexes.set(pattern, re)
    return re
  }
}
