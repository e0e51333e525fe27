/**
 * @module Generated source made a function with `vm.compileFunction` (research §8.7, §8.10), which
 * is run once to make the unit's function (and its sites, emit/function.ts): named after the 4D
 * file, its lines offset to the unit's first line, so that a stack frame reads
 * `Classes/Car.4dm:12`. `vm` is not the sandbox here (Node's docs: "not a security mechanism"):
 * the generated code is, naming nothing but its parameters. Functions are kept by file, line and
 * source, so a unit generated again the same (a class reloaded) is not compiled again.
 */
import { nodeBuiltin } from '../runtime/platform/node-builtins.js'
import type { FunctionImpl } from '../runtime/context/function-object.js'
import type { EmittedUnit } from './emit/function.js'

const compileFunction = nodeBuiltin('node:vm')?.compileFunction
const MAX_CACHED = 10_000
const cache = new Map<string, FunctionImpl>()

export function buildFunction(unit: EmittedUnit, file: string): FunctionImpl {
  const key = `${file}\n${unit.firstLine}\n${unit.source}`
  let fn = cache.get(key)
  if (fn === undefined) {
    const make = (
      compileFunction === undefined
        ? inPage(unit, file)
        : compileFunction(unit.source, [], { filename: file, lineOffset: unit.firstLine - 1 })
    ) as () => FunctionImpl
    fn = make()
    if (cache.size >= MAX_CACHED) cache.clear()
    cache.set(key, fn)
  }
  return fn
}

/**
 * Where there is no vm (a page, issue 81): `new Function`, named after the file by a
 * `sourceURL` comment and its lines pushed down to the unit's (the body starts on the third line
 * of what `Function` makes), so that a stack frame still reads `Classes/Car.4dm:12`.
 */
function inPage(unit: EmittedUnit, file: string): () => unknown {
  const lines = '\n'.repeat(Math.max(0, unit.firstLine - 3))
  return new Function(`${lines}${unit.source}\n//# sourceURL=${file}`) as () => unknown
}
