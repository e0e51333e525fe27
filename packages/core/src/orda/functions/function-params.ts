/**
 * @module A function's arguments checked against the types it declares (`params`), before it runs:
 * a mismatch is FunctionParameterInvalid (9101, a 400 over REST) naming the parameter, what was
 * expected and what came. Dates arrive as text over the wire: a `date` parameter is handed to the
 * function as a `Date`. Without `params`, arguments pass as they are.
 */
import { fail } from '../../errors/datastore-error.js'
import { parseDate } from '../../values/dates.js'
import type { ParamSpec } from '../../functions/define.js'
import { functionText, type FunctionInfo } from '../../functions/registry.js'
import { kindOf } from '../kinds/object-kind.js'

// What a value is, told by its kind (kinds/object-kind.ts) and not by the public classes, which
// run their functions through this file; read for its dataclass's name.
type Named = { readonly dataClass: { readonly name: string } }
const isEntity = (v: unknown): v is Named => kindOf(v) === 'entity'
const isDraft = (v: unknown): v is Named => kindOf(v) === 'draft'
const isSelection = (v: unknown): v is Named => kindOf(v) === 'selection'

/** The arguments as the function receives them; throws FunctionParameterInvalid on a mismatch. */
export function checkParams(fn: FunctionInfo, args: readonly unknown[]): unknown[] {
  const specs = fn.params
  if (specs === undefined) return [...args]
  const refuse = (why: string): never => fail('FunctionParameterInvalid', [functionText(fn), why])
  if (args.length > specs.length)
    refuse(
      `it takes ${specs.length === 0 ? 'no parameters' : `at most ${specs.length} parameter${specs.length > 1 ? 's' : ''}`}, ${args.length} were given`,
    )
  return args.map((value, i) => {
    if (value === undefined || value === null) return value
    const spec = specs[i]!
    const converted = convert(spec, value)
    if (converted === MISMATCH)
      refuse(`parameter ${i + 1} must be ${expected(spec)}, not ${shown(value)}`)
    return converted
  })
}

const MISMATCH = Symbol('mismatch')

const isPlainObject = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !isEntity(v) &&
  !isDraft(v) &&
  !isSelection(v) &&
  !(v instanceof Date)

function convert(spec: ParamSpec, value: unknown): unknown {
  switch (spec) {
    case 'any':
      return value
    case 'string':
      return typeof value === 'string' ? value : MISMATCH
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : MISMATCH
    case 'integer':
      return Number.isSafeInteger(value) ? value : MISMATCH
    case 'boolean':
      return typeof value === 'boolean' ? value : MISMATCH
    case 'date': {
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? MISMATCH : value
      if (typeof value !== 'string') return MISMATCH
      const iso = parseDate(value, false)
      return iso === undefined ? MISMATCH : new Date(iso)
    }
    case 'object':
      return isPlainObject(value) ? value : MISMATCH
    case 'array':
      return Array.isArray(value) ? value : MISMATCH
  }
  if ('entity' in spec)
    return (isEntity(value) || isDraft(value)) && value.dataClass.name === spec.entity
      ? value
      : MISMATCH
  return isSelection(value) && value.dataClass.name === spec.selection ? value : MISMATCH
}

function expected(spec: ParamSpec): string {
  if (typeof spec === 'string')
    return spec === 'integer' || spec === 'array' || spec === 'object'
      ? `an ${spec}`
      : spec === 'date'
        ? 'a date (ISO 8601 text)'
        : `a ${spec}`
  return 'entity' in spec
    ? `an entity of ${spec.entity}`
    : `an entity selection of ${spec.selection}`
}

/** A value as a message shows it: its JSON, cut short, or what kind of object it is. */
function shown(value: unknown): string {
  if (isEntity(value) || isDraft(value)) return `an entity of ${value.dataClass.name}`
  if (isSelection(value)) return `an entity selection of ${value.dataClass.name}`
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}
