/**
 * @module The golden form of an AST: JSON with each `loc` written `line:column-line:column` and
 * each failure point `line:column`, so that a golden file reads as the tree and stays small.
 */
import { formatLoc, type Loc, type Position } from '../ast/loc.js'

const isLoc = (v: unknown): v is Loc =>
  typeof v === 'object' && v !== null && 'start' in v && 'end' in v

const isPosition = (v: unknown): v is Position =>
  typeof v === 'object' && v !== null && 'line' in v && 'column' in v && 'offset' in v

/** The tree as golden JSON text (2-space indented, ending with a newline). */
export function goldenJson(tree: unknown): string {
  const replacer = (key: string, value: unknown): unknown => {
    if (key === 'loc' && isLoc(value)) return formatLoc(value)
    if (key === 'at' && isPosition(value)) return `${value.line}:${value.column}`
    return value
  }
  return JSON.stringify(tree, replacer, 2) + '\n'
}
