/** For tests: the JavaScript a method's text compiles to, as a generator (`steps`) or plain. */
import type { MethodFileNode } from '../../ast/files.js'
import { parse4d } from '../../grammar/parse.js'
import { analyze } from '../analyze.js'
import { Session } from '../session.js'
import { methodUnit } from '../units.js'
import { emitUnit } from './function.js'

/** The source the method `text` compiles to: the generator a call in slices runs, by default. */
export function emitSteps(text: string, steps = true): string {
  const file = 'Project/Sources/Methods/m.4dm'
  const ast = parse4d(text, { file, kind: 'method' }).file as MethodFileNode
  const analysis = analyze(methodUnit(ast), new Session(file), text)
  return emitUnit(analysis, { budget: true, lines: false, steps }).source
}
