/**
 * @module The project methods 4D code calls by name (`myMethod(1)`, or `myMethod` alone): names
 * compared without case (docs/Concepts/identifiers.md), each a Function object that the project
 * loader or `compileMethod` gives.
 */
import type { FourDFunction } from './function-object.js'

export class MethodRegistry {
  readonly #methods = new Map<string, FourDFunction>()

  define(name: string, fn: FourDFunction): void {
    this.#methods.set(name.toLowerCase(), fn)
  }

  get(name: string): FourDFunction | undefined {
    return this.#methods.get(name.toLowerCase())
  }
}
