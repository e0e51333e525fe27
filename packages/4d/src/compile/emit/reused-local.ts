/**
 * @module Whether a local that takes a member's value (`$employer:=$e.employer`) may be given the
 * same object at each of those assignments, pointed at the next value, rather than a new one: what
 * lets a relation read in a loop make no entity a pass (member-sites.ts `getInto`). The local must
 * keep nothing, as a `For each` item must (loop-item.ts, value-kept.ts): read only as the object of
 * a member, declared, assigned, or compared with `Null` (a comparison with anything else may
 * tell two objects apart). A parameter and the result leave the call, so they never qualify.
 */
import type { Node } from '../../ast/nodes.js'
import { walk } from '../../ast/walk.js'
import type { Analysis, Slot } from '../analysis.js'
import { keepsValue, type Use } from './value-kept.js'

// Per unit, once a slot: its whole body is walked for each slot asked about.
const answers = new WeakMap<Analysis, Map<Slot, boolean>>()

/** Whether the local `slot` of the unit `analysis` keeps no value it is assigned. */
export function reusesLocal(analysis: Analysis, slot: Slot): boolean {
  let known = answers.get(analysis)
  if (known === undefined) answers.set(analysis, (known = new Map()))
  let answer = known.get(slot)
  if (answer === undefined) known.set(slot, (answer = keepsNothing(analysis, slot)))
  return answer
}

function keepsNothing(analysis: Analysis, slot: Slot): boolean {
  if (slot.param !== undefined || slot.isResult) return false
  const { body } = analysis.unit
  const harmless = new Set<Node>()
  for (const statement of body)
    walk(statement, (n) => {
      if (n.kind === 'Assign' && n.op === ':=') harmless.add(n.target)
      else if (n.kind === 'Var') for (const name of n.names) harmless.add(name)
      else if (n.kind === 'Binary' && (n.op === '=' || n.op === '#')) {
        if (n.right.kind === 'Null') harmless.add(n.left)
        if (n.left.kind === 'Null') harmless.add(n.right)
      }
    })
  const useOf = (n: Node): Use => {
    const r = analysis.resolved.get(n)
    if ((r?.kind !== 'slot' && r?.kind !== 'captured') || r.slot !== slot) return undefined
    if (r.kind === 'captured') return 'kept'
    return harmless.has(n) ? 'skip' : 'read'
  }
  return !keepsValue(body, useOf)
}
