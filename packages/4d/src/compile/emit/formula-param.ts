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
import { keepsValue } from './value-kept.js'

/** Whether `body` (a formula's expression) may keep its `$1` past its call. */
export const keepsFirstParam = (body: ExprNode): boolean =>
  keepsValue([body], (n) =>
    // A formula inside it has a `$1` of its own.
    n.kind === 'Formula' ? 'skip' : n.kind === 'Param' && n.index === 1 ? 'read' : undefined,
  )
