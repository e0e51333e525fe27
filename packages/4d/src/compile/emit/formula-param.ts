/**
 * @module Whether a formula keeps its `$1`: what lets a collection function give it the same `$1`
 * object for each element, rather than a new one (one allocation an element, and the array of
 * parameters with it). A formula that only reads members of `$1` (`$1.value`, `$1.value2.name`)
 * keeps it nowhere and sets nothing on it (a formula is an expression: `$1.result:=…` is a
 * statement), so the next element's `{value}` may overwrite it. Any other use keeps it: `$1`
 * passed, returned, put in a literal, pointed to, called (`$1.f()` runs with `This` = `$1`), read
 * by number (`${1}`) or copied (`Copy parameters`). A formula inside it has a `$1` of its own.
 */
import type { ExprNode } from '../../ast/expressions.js'
import type { Node } from '../../ast/nodes.js'
import { walk } from '../../ast/walk.js'

/** `Copy parameters`' number (command 1790): it would hand `$1` out. */
const COPY_PARAMETERS = 1790

/** Whether `body` (a formula's expression) may keep its `$1` past its call. */
export function keepsFirstParam(body: ExprNode): boolean {
  const callees = new Set<Node>()
  let kept = false
  walk(body, (n, parent) => {
    if (kept) return false
    switch (n.kind) {
      case 'Formula':
        return false
      case 'Call':
        callees.add(n.callee)
        return
      case 'IndirectParam':
        kept = true
        return false
      case 'Command':
        if (n.number === COPY_PARAMETERS) kept = true
        return
      case 'Param':
        if (n.index === 1 && !(parent?.kind === 'Member' && !callees.has(parent))) kept = true
        return
      default:
        return
    }
  })
  return kept
}
