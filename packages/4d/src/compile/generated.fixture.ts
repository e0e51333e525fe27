/**
 * @module The JavaScript the compiler generates for a method's text, under each generation mode,
 * for the tests that read it (security) rather than run it.
 */
import type { MethodFileNode } from '../ast/files.js'
import { parse4d } from '../grammar/parse.js'
import { analyze } from './analyze.js'
import type { EmitOptions } from './emit/context.js'
import { emitUnit } from './emit/function.js'
import { Session } from './session.js'
import { methodUnit } from './units.js'

export const ALL_MODES: readonly EmitOptions[] = [
  { budget: true, lines: false },
  { budget: false, lines: false },
  { budget: true, lines: true },
  { budget: false, lines: true },
]

/** The generated body of the method `text`, one a mode. */
export function generatedSources(text: string): string[] {
  const file = 'Project/Sources/Methods/m.4dm'
  const ast = parse4d(text, { file, kind: 'method' }).file as MethodFileNode
  return ALL_MODES.map(
    (mode) => emitUnit(analyze(methodUnit(ast), new Session(file), text), mode).source,
  )
}
