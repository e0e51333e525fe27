/**
 * @module Checking a command's arguments: a parameter of the wrong type raises 4D's wrong
 * parameter type error naming the command and the parameter.
 */
import { raise } from '../errors/fourd-error.js'
import { typeName } from '../values/kinds.js'

const wrong = (command: string, parameter: string, expected: string, v: unknown): never =>
  raise('WrongParameterType', { parameter, command, expected, actual: typeName(v) })

/** A Text argument; Undefined is "" (a missing object property). */
export function textArg(command: string, parameter: string, v: unknown): string {
  if (typeof v === 'string') return v
  return v === undefined ? '' : wrong(command, parameter, 'Text', v)
}

/** A Number argument; Undefined is 0. */
export function numberArg(command: string, parameter: string, v: unknown): number {
  if (typeof v === 'number') return v
  return v === undefined ? 0 : wrong(command, parameter, 'Number', v)
}
