/**
 * @module Whether a `For each` keeps its item past the pass: what lets the host of the loop (an
 * entity selection) give the same object at each pass, pointed at the next item, rather than a
 * new one (iterate.ts, `reused`). The loop's local may be read only as value-kept.ts says keeps
 * nothing; a formula that copies it keeps it. A class's `Function get` reached by a member read
 * runs with `This` too: that one the host sees at run time (the ORDA bridge's handles, handle.ts).
 */
import type { ForEachNode } from '../../ast/statements.js'
import type { Node } from '../../ast/nodes.js'
import type { Analysis, Slot } from '../analysis.js'
import { keepsValue, type Use } from './value-kept.js'

/** Whether the loop `node`, whose item is the local `slot`, may keep an item past its pass. */
export function keepsLoopItem(analysis: Analysis, node: ForEachNode, slot: Slot): boolean {
  const useOf = (n: Node): Use => {
    const r = analysis.resolved.get(n)
    if ((r?.kind !== 'slot' && r?.kind !== 'captured') || r.slot !== slot) return undefined
    return r.kind === 'slot' ? 'read' : 'kept'
  }
  const parts = [node.until, node.while, ...node.body].filter((n) => n !== null)
  return keepsValue(parts, useOf)
}
