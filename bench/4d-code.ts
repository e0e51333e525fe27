/**
 * @module 4D code as the 4d-language suite runs it: a method compiled once by `@entistore/4d`,
 * called on a new Runtime each time with a budget of a minute, as a request runs a function.
 */
import {
  budgetOf,
  compileMethod,
  Runtime,
  type EmitOptions,
  type RuntimeOptions,
} from '@entistore/4d'
import { systemClock } from '@entistore/core'

/** A 4D method compiled once, called with `args` on a new Runtime each time (as a request does). */
export function fourD(
  text: string,
  args: () => unknown[],
  options: { readonly emit?: Partial<EmitOptions>; readonly runtime?: RuntimeOptions } = {},
): () => number {
  const method = compileMethod(text, { emit: options.emit })
  if (method.problems.some((p) => p.severity === 'error'))
    throw new Error(`4D code does not compile: ${JSON.stringify(method.problems)}`)
  return () =>
    method.call(
      new Runtime({ budget: budgetOf(60_000, systemClock), ...options.runtime }),
      args(),
    ) as number
}
