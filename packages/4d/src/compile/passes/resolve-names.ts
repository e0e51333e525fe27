/**
 * @module Pass `resolve-names`: what each name of a unit refers to. Locals (`$total`, case
 * ignored) and parameters (`$1`, named ones, `$0` or the declared result) become slots of the
 * generated function; inside a `Formula`, a local is the formula's copy (4D copies the values of
 * locals when it makes the formula) and `$1` the formula's own parameter. A bare name is a
 * process variable when the unit declares it so, else a project method or a process variable,
 * decided at run time. Misplaced statements (`break` outside a loop, `Super` outside a class)
 * are reported and fail when reached; lines that did not parse are reported here too.
 */
import type { Node } from '../../ast/nodes.js'
import { childrenOf } from '../../ast/walk.js'
import type { Analysis, Slot } from '../analysis.js'
import { walkUnit } from './walk-unit.js'

export function resolveNames(analysis: Analysis): void {
  declareParameters(analysis)
  const processNames = declaredProcessNames(analysis)
  const visit = (node: Node, loops: number, inFormula: boolean): void => {
    switch (node.kind) {
      case 'Local': {
        const slot = localSlot(analysis, node.name)
        analysis.resolved.set(node, { kind: inFormula ? 'captured' : 'slot', slot })
        return
      }
      case 'Param':
        analysis.resolved.set(
          node,
          inFormula
            ? { kind: 'formula-param', index: node.index }
            : { kind: 'slot', slot: paramSlot(analysis, node.index) },
        )
        return
      case 'Name':
        analysis.resolved.set(node, {
          kind: processNames.has(node.name.toLowerCase()) ? 'process' : 'name',
        })
        return
      case 'Formula':
        visit(node.body, 0, true)
        return
      case 'Break':
      case 'Continue':
        if (loops === 0) invalid(analysis, node, `${node.kind.toLowerCase()} outside a loop`)
        return
      case 'Super':
        if (!analysis.unit.inClass) invalid(analysis, node, 'Super outside a class')
        else if (node.args !== null && analysis.unit.kind !== 'constructor')
          invalid(analysis, node, 'Super(…) outside a class constructor')
        break
      case 'Unparsed':
        analysis.session.error('syntax', node.message, node.at)
        return
      case 'Throw':
        analysis.hasThrow = true
        break
      default:
        break
    }
    const inner = isLoop(node) ? loops + 1 : loops
    for (const child of childrenOf(node)) visit(child, inner, inFormula)
  }
  walkUnit(analysis.unit, (node) => {
    visit(node, 0, false)
    return false
  })
}

const isLoop = (node: Node): boolean =>
  node.kind === 'For' || node.kind === 'ForEach' || node.kind === 'While' || node.kind === 'Repeat'

function invalid(analysis: Analysis, node: Node, message: string): void {
  analysis.session.error('placement', message, node.loc)
  analysis.invalid.set(node, message)
}

/** The slot of local `$name`, made at its first mention. */
export function localSlot(analysis: Analysis, name: string): Slot {
  const key = name.toLowerCase()
  let slot = analysis.locals.get(key)
  if (slot === undefined) {
    slot = analysis.newSlot(`$${name}`)
    analysis.locals.set(key, slot)
  }
  return slot
}

/** The slot of `$n`: a named parameter's when one is declared at `n`, `$0` the result. */
export function paramSlot(analysis: Analysis, index: number): Slot {
  const key = `#${index}`
  let slot = analysis.locals.get(key)
  if (slot === undefined) {
    if (index === 0) {
      slot = analysis.result ?? analysis.newSlot('$0')
      slot.isResult = true
      analysis.result = slot
    } else {
      slot = analysis.newSlot(`$${index}`)
      slot.param = index
      analysis.params[index - 1] = slot
    }
    analysis.locals.set(key, slot)
  }
  return slot
}

// The named parameters and result of the unit: `Function f($a : Text) -> $r : Integer`,
// `#DECLARE`. A name declared twice is an error (parameters.md: "must be declared only once").
function declareParameters(analysis: Analysis): void {
  const { unit, session } = analysis
  const seen = new Set<string>()
  const once = (name: string, at: Node): boolean => {
    const key = name.toLowerCase()
    if (!seen.has(key)) {
      seen.add(key)
      return true
    }
    session.error('declaration', `$${name} is declared twice`, at.loc)
    return false
  }
  for (const [i, p] of (unit.params ?? []).entries()) {
    if (p.variadic || p.name === null) continue
    const slot = once(p.name, p) ? localSlot(analysis, p.name) : analysis.newSlot(`$${p.name}`)
    slot.param = i + 1
    analysis.params[i] = slot
    analysis.locals.set(`#${i + 1}`, slot)
  }
  const result = unit.result
  if (result === null) return
  const slot =
    result.name === null
      ? analysis.newSlot('(result)')
      : once(result.name, result)
        ? localSlot(analysis, result.name)
        : analysis.newSlot(`$${result.name}`)
  slot.isResult = true
  analysis.result = slot
  analysis.locals.set('#0', slot)
}

// The names a `var` statement of the unit declares as process variables.
function declaredProcessNames(analysis: Analysis): Set<string> {
  const names = new Set<string>()
  walkUnit(analysis.unit, (node) => {
    if (node.kind === 'Var')
      for (const n of node.names) if (n.kind === 'Name') names.add(n.name.toLowerCase())
  })
  return names
}
