/**
 * @module Checking a command's arguments: a parameter of the wrong type raises 4D's wrong
 * parameter type error naming the command and the parameter. Undefined (a missing object
 * property, an omitted optional parameter) is the type's empty value, as 4D's commands take it.
 * The collection's functions check theirs the same way, so it lives below the commands and the
 * classes both (arguments/).
 */
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { kindOf, typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { TimeValue } from '../values/time-value.js'
import { SYMBOLS } from './symbols.js'

export const wrongType = (
  command: string,
  parameter: string,
  expected: string,
  v: unknown,
): never => raise('WrongParameterType', { parameter, command, expected, actual: typeName(v) })

/** A parameter that has the right type but a value the command cannot use. */
export const invalid = (command: string, parameter: string, detail: string): never =>
  raise('InvalidArgument', { parameter, command, detail })

/** A Text argument; Undefined is "". */
export function textArg(command: string, parameter: string, v: unknown): string {
  if (typeof v === 'string') return v
  return v === undefined ? '' : wrongType(command, parameter, 'Text', v)
}

/** A Number argument (a Time counts as its seconds); Undefined is 0. */
export function numberArg(command: string, parameter: string, v: unknown): number {
  if (typeof v === 'number') return v
  if (v instanceof TimeValue) return v.seconds
  return v === undefined ? 0 : wrongType(command, parameter, 'Number', v)
}

/** An Integer argument: a number made a long as assignment makes it (numbers.ts). */
export const integerArg = (command: string, parameter: string, v: unknown): number =>
  toInteger(numberArg(command, parameter, v))

/** An optional Integer argument: `fallback` when it is not given. */
export const optionalInteger = (
  command: string,
  parameter: string,
  v: unknown,
  fallback: number,
): number => (v === undefined ? fallback : integerArg(command, parameter, v))

/** A Boolean argument; Undefined is False. */
export function booleanArg(command: string, parameter: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v
  return v === undefined ? false : wrongType(command, parameter, 'Boolean', v)
}

/** A Date argument; Undefined is the null date. */
export function dateArg(command: string, parameter: string, v: unknown): DateValue {
  if (v instanceof DateValue) return v
  return v === undefined ? DateValue.NULL : wrongType(command, parameter, 'Date', v)
}

/** A Time argument (a number is its seconds); Undefined is `?00:00:00?`. */
export function timeArg(command: string, parameter: string, v: unknown): TimeValue {
  if (v instanceof TimeValue) return v
  if (typeof v === 'number') return TimeValue.of(v)
  return v === undefined ? TimeValue.ZERO : wrongType(command, parameter, 'Time', v)
}

/** A Collection argument. */
export function collectionArg(command: string, parameter: string, v: unknown): Collection {
  return v instanceof Collection ? v : wrongType(command, parameter, 'Collection', v)
}

/** An Object argument: a 4D object or an object of the host (never a collection). */
export function objectArg(command: string, parameter: string, v: unknown): object {
  return kindOf(v) === 'object' ? (v as object) : wrongType(command, parameter, 'Object', v)
}

/** Whether the argument is the bare `*` of a command call. */
export const isStar = (v: unknown): boolean => v === SYMBOLS['*']

/** The arguments without a trailing `*`, and whether there was one. */
export function withoutStar(args: readonly unknown[]): { args: unknown[]; star: boolean } {
  const star = args.length > 0 && isStar(args[args.length - 1])
  return { args: star ? args.slice(0, -1) : [...args], star }
}
