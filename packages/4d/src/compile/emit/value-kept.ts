/**
 * @module Whether code may keep a value it is given, past the moment it is given: what lets the
 * runtime give the same object again, pointed at the next value (a formula's `$1` for each
 * element of a collection function, formula-param.ts; a `For each` item, loop-item.ts). A read
 * of the value used as the object of a member (`$1.value`, `$e.salary:=…`) keeps nothing: what
 * it gives is a new value. Any other use may keep it: the value passed, returned, assigned,
 * compared, put in a literal, pointed to, indexed, called (`$e.f()` runs with `This` = `$e`),
 * reached by number (`${1}`) or by the commands that reach variables by number or by text.
 */
import type { Node } from '../../ast/nodes.js'
import { walk } from '../../ast/walk.js'

/** What a node is to the value: a read of it, a use that keeps it, a part not to look into. */
export type Use = 'read' | 'kept' | 'skip' | undefined

const REACHING = new Set([
  1790, // Copy parameters
  63, // EXECUTE FORMULA
  1601, // Formula from string
])

/** Whether a use of the value in `parts` may keep it; `useOf` tells what a node is to it. */
export function keepsValue(parts: readonly Node[], useOf: (n: Node) => Use): boolean {
  const callees = new Set<Node>()
  let kept = false
  const visit = (n: Node, parent: Node | null): boolean | void => {
    if (kept) return false
    switch (n.kind) {
      case 'Call':
        callees.add(n.callee)
        break
      case 'IndirectParam':
        kept = true
        return false
      case 'Command':
        if (REACHING.has(n.number)) kept = true
        break
    }
    const use = useOf(n)
    if (use === 'skip') return false
    if (use === 'kept') kept = true
    else if (use === 'read')
      kept = !(parent?.kind === 'Member' && parent.object === n && !callees.has(parent))
  }
  for (const part of parts) walk(part, visit)
  return kept
}
