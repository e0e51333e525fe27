/**
 * @module The passes over one unit, in order, sharing its diagnostics session (research §8.2):
 * `lower-classic`, `resolve-names`, `check-declarations`, `resolve-commands`. Their result is what
 * the code generator (emit/) needs; they run when a file is compiled, so that its problems are
 * known before any code runs, while the JavaScript is made at the unit's first call.
 */
import { Analysis } from './analysis.js'
import { checkDeclarations } from './passes/check-declarations.js'
import { lowerClassic } from './passes/lower-classic.js'
import { resolveCommands } from './passes/resolve-commands.js'
import { resolveNames } from './passes/resolve-names.js'
import type { Session } from './session.js'
import type { Unit } from './units.js'

export function analyze(unit: Unit, session: Session, text = ''): Analysis {
  const analysis = new Analysis(unit, session, text)
  const classic = lowerClassic(analysis)
  resolveNames(analysis)
  checkDeclarations(analysis, classic)
  resolveCommands(analysis)
  return analysis
}
