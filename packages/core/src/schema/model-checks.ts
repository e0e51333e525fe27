/**
 * @module The checks of a model file's fields (a model file is user input): names, the known fields of
 * a dataclass and of an attribute, optional values of the right type, function and singleton lists.
 * Each failure is an InvalidModel error that says where.
 */
import { fail } from '../errors/datastore-error.js'
import { VALUE_TYPES, type MethodJson, type SingletonJson, type ValueType } from './model-json.js'
import { reservedNameAllowed } from './change-tracking.js'

export const KEY_TYPES: ReadonlySet<ValueType> = new Set([
  'long',
  'long64',
  'word',
  'byte',
  'string',
  'uuid',
])

export const NUMERIC_TYPES: ReadonlySet<ValueType> = new Set([
  'long',
  'long64',
  'word',
  'byte',
  'number',
  'duration',
])

export const DATACLASS_FIELDS = new Set([
  'name',
  'className',
  'collectionName',
  'tableNumber',
  'scope',
  'exposed',
  'uuid',
  'dataURI',
  'defaultTopSize',
  'extraProperties',
  'attributes',
  'key',
  'methods',
])

export const ATTRIBUTE_FIELDS = new Set([
  'name',
  'kind',
  'type',
  'fieldPos',
  'scope',
  'exposed',
  'uuid',
  'indexed',
  'indexKind',
  'unique',
  'not_null',
  'autosequence',
  'identifying',
  'readOnly',
  'path',
  'reversePath',
  'foreignKey',
  'inverseName',
  'dateOnly',
  'maxLength',
  'never_null',
])

// Names become object keys and URL segments: letters, digits and underscores, not starting with a
// digit, and never `__…` (the wire's own names: __KEY, __STAMP, __proto__).
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u

const FUNCTION_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u

/**
 * Why `name` cannot name a function, or undefined when it can. A function's name is an ECMAScript
 * identifier, as a 4D class member's is: `$` is allowed (`Function $upcoming()`); never a wire
 * name (`__KEY`).
 */
export function functionNameProblem(name: string): string | undefined {
  return FUNCTION_NAME.test(name) && !name.startsWith('__')
    ? undefined
    : `the function name ${JSON.stringify(name)} is not valid (letters, digits, _ and $, not starting with a digit or __)`
}

/** Whether `name` may name a dataclass or an attribute (the `__…` names of change tracking aside). */
export const isModelName = (name: string): boolean => NAME.test(name) && !name.startsWith('__')

export function invalid(where: string, why: string): never {
  return fail('InvalidModel', [where, why])
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// `reserved`: the dataclass whose attribute it names (or null for a dataclass), for the few `__…`
// names of 4D's change tracking (change-tracking.ts); undefined where none is allowed.
export function checkName(where: string, name: unknown, reserved?: string | null): string {
  if (
    typeof name !== 'string' ||
    !NAME.test(name) ||
    (name.startsWith('__') &&
      (reserved === undefined || !reservedNameAllowed(name, reserved ?? undefined)))
  ) {
    invalid(
      where,
      `the name ${JSON.stringify(name)} is not valid (letters, digits and _, not starting with a digit or __)`,
    )
  }
  return name as string
}

export function optional<T>(
  where: string,
  obj: Record<string, unknown>,
  field: string,
  type: 'string' | 'boolean' | 'number',
): T | undefined {
  const v = obj[field]
  if (v === undefined || v === null) return undefined
  if (typeof v !== type) invalid(where, `"${field}" must be a ${type}, got ${JSON.stringify(v)}`)
  if (type === 'number' && !Number.isInteger(v))
    invalid(where, `"${field}" must be an integer, got ${String(v)}`)
  return v as T
}

/**
 * Whether an attribute's `classID` (4D: the class an object field is restricted to) is 4D.Vector,
 * the one class Entistore gives a meaning; another class is echoed in the catalog and the values
 * stay plain objects.
 */
export function isVectorClass(at: string, type: ValueType, classID: unknown): boolean {
  if (classID === undefined) return false
  if (typeof classID !== 'string') return invalid(at, '"classID" must be a string')
  if (type !== 'object') return invalid(at, `"classID" applies to object attributes, not ${type}`)
  return classID === '4D.Vector'
}

/** The fields of `obj` that are not in `known`, copied safely (Object.fromEntries never sets a prototype). */
export function extras(
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
): Readonly<Record<string, unknown>> {
  return Object.freeze(Object.fromEntries(Object.entries(obj).filter(([k]) => !known.has(k))))
}

// The calculated functions come in plain objects: a dataclass or attribute named `toString` or
// `constructor` must not pick up a member of Object.prototype as its function.
export const own = <T>(
  obj: Readonly<Record<string, T>> | undefined,
  name: string,
): T | undefined => (obj !== undefined && Object.hasOwn(obj, name) ? obj[name] : undefined)

/**
 * A `methods` list of the catalog (the datastore's, a dataclass's, a singleton's): objects with a
 * valid `name`, copied and frozen; absent is empty.
 */
export function methodList(where: string, value: unknown): readonly MethodJson[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value) || !value.every((x) => isRecord(x) && typeof x.name === 'string'))
    invalid(where, '"methods" must be an array of objects with a "name"')
  const list = value as Record<string, unknown>[]
  list.forEach((x, i) => {
    const problem = functionNameProblem(x.name as string)
    if (problem !== undefined) invalid(`${where}: methods[${i}]`, problem)
  })
  return Object.freeze(list.map((x) => Object.freeze({ ...x }) as MethodJson))
}

/** The catalog's `singletons`: `{ name, methods }` objects. */
export function singletonList(value: unknown): readonly SingletonJson[] {
  if (value === undefined) return Object.freeze([])
  if (!Array.isArray(value)) invalid('model', '"singletons" must be an array')
  return Object.freeze(
    (value as unknown[]).map((s, i) => {
      const where = `singletons[${i}]`
      if (!isRecord(s)) invalid(where, 'expected an object with a "name" and "methods"')
      const o = s as Record<string, unknown>
      return Object.freeze({
        ...o,
        name: checkName(where, o.name),
        methods: methodList(`singleton "${String(o.name)}"`, o.methods ?? []),
      }) as SingletonJson
    }),
  )
}

export function valueType(at: string, type: string | undefined, fallback?: ValueType): ValueType {
  const t = type ?? fallback
  if (t === undefined) return invalid(at, 'a "type" is required')
  if (!(VALUE_TYPES as readonly string[]).includes(t))
    invalid(at, `unknown type ${JSON.stringify(t)} (expected one of ${VALUE_TYPES.join(', ')})`)
  return t as ValueType
}

export const describe = (v: unknown): string =>
  v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : typeof v

// Only key-like types can hold a key: a bool, date or object foreignKey matches no key type.
export const keyFamily = (t: ValueType): 'number' | 'text' | 'other' =>
  NUMERIC_TYPES.has(t) ? 'number' : t === 'string' || t === 'uuid' ? 'text' : 'other'
