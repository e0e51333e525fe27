/**
 * @module Pass `resolve-commands`: each command of a unit against the command table (research
 * §8.5). A tokenized command (`Length:C16`) is found by its number, and a name that is not the
 * table's for that number is reported; a written one by its number too (the grammar knows it
 * from the name). A command the table implements is called; one it marks not runnable, or does
 * not know, is reported and raises "not implemented" when reached, as do constants without a
 * value and the classic constructs that do not run here (arrays, pointers, fields). A call with
 * a number of arguments the signature does not allow fails when reached.
 */
import { isUiConstant } from '../../runtime/commands/ui.js'
import type { Node } from '../../ast/nodes.js'
import { commandName } from '../../grammar/builtins.js'
import { COMMANDS } from '../../runtime/commands/index.js'
import type { CommandTable } from '../../runtime/commands/table.js'
import { constantValue } from '../../runtime/commands/constants.js'
import type { Analysis } from '../analysis.js'
import { walkUnit } from './walk-unit.js'

/** The commands whose answer the compiler writes in place. */
const INTRINSICS: ReadonlyMap<
  number,
  'count-parameters' | 'current-method-name' | 'copy-parameters'
> = new Map([
  [259, 'count-parameters'],
  [684, 'current-method-name'],
  [1790, 'copy-parameters'],
])

/** Classic constructs that parse and do not run here, by node kind. */
const UNSUPPORTED: Readonly<Partial<Record<Node['kind'], string>>> = {
  Field: 'A field',
  Table: 'A table',
  EmbeddedSql: 'Begin SQL',
}

/** What a pointer points to: a variable, or an element of an array variable. */
const POINTABLE: ReadonlySet<string> = new Set([
  'Local',
  'Param',
  'Name',
  'InterprocessVar',
  'ArrayElement',
])

/** What else a pointer points to in 4D, which it cannot here. */
const POINTER_TARGETS: Readonly<Partial<Record<Node['kind'], string>>> = {
  Field: 'A pointer to a field',
  Table: 'A pointer to a table',
}

/** What a check says of a command that cannot run, by the table's reason. */
const WHY: Readonly<Record<string, string>> = {
  UI: ' (it needs a user interface)',
  processes: " (4D code runs in its call's own process: no other process or worker)",
}

export function resolveCommands(analysis: Analysis, table: CommandTable = COMMANDS): void {
  walkUnit(analysis.unit, (node) => {
    if (analysis.resolved.has(node)) return
    switch (node.kind) {
      case 'Command':
        return resolveCommand(analysis, table, node)
      case 'Constant': {
        const value = constantValue(node.name, node)
        if (value !== undefined) analysis.resolved.set(node, { kind: 'constant', value })
        else
          notRunnable(
            analysis,
            node,
            node.name,
            `The constant "${node.name}" is not implemented${isUiConstant(node.name) ? WHY.UI : ''}`,
          )
        return
      }
      case 'Ds':
        if (node.args !== null)
          notRunnable(
            analysis,
            node,
            'ds(localID)',
            'Another datastore (ds(localID)) cannot be used here',
          )
        return
      case 'PointerTo': {
        // A pointer to a variable or an array element runs (pointers/pointer.ts); to a field or
        // a table, which point into current records, it does not.
        if (POINTABLE.has(node.target.kind)) return
        const construct = POINTER_TARGETS[node.target.kind] ?? 'A pointer to an expression'
        notRunnable(analysis, node, construct, `${construct} cannot run here`, true)
        return false
      }
      default: {
        const construct = UNSUPPORTED[node.kind]
        if (construct !== undefined) {
          notRunnable(analysis, node, construct, `${construct} cannot run here`, true)
          return false
        }
      }
    }
  })
}

function resolveCommand(
  analysis: Analysis,
  table: CommandTable,
  node: Extract<Node, { kind: 'Command' }>,
): void {
  const entry = table.byNumber(node.number)
  const known = entry?.name ?? commandName(node.number)
  if (node.tokenized && known !== undefined && known.toLowerCase() !== node.name.toLowerCase())
    analysis.session.warning(
      'command-name',
      `${node.name}:C${node.number} names the command ${known}`,
      node.loc,
    )
  const intrinsic = INTRINSICS.get(node.number)
  if (intrinsic !== undefined) {
    analysis.resolved.set(node, { kind: 'intrinsic', name: intrinsic })
    return
  }
  const name = known ?? node.name
  if (entry?.impl === undefined) {
    const why = WHY[entry?.notRunnable ?? ''] ?? ''
    notRunnable(analysis, node, name, `The command "${name}" cannot run here${why}`)
    return
  }
  const count = node.args?.length ?? 0
  const sig = entry.parsed
  if (sig !== undefined && (count < sig.min || count > sig.max)) {
    const message = `${name} takes ${arity(sig.min, sig.max)}, not ${count}`
    analysis.session.error('arguments', message, node.loc)
    analysis.invalid.set(node, message)
    return
  }
  if (entry.number === ON_ERR_CALL) analysis.trapsErrors = true
  analysis.resolved.set(node, { kind: 'command', entry })
}

const ON_ERR_CALL = 155

const arity = (min: number, max: number): string =>
  min === max
    ? `${min} parameter${min === 1 ? '' : 's'}`
    : max === Infinity
      ? `at least ${min} parameter${min === 1 ? '' : 's'}`
      : `${min} to ${max} parameters`

function notRunnable(
  analysis: Analysis,
  node: Node,
  name: string,
  message: string,
  construct = false,
): void {
  analysis.session.error('not-runnable', message, node.loc, name)
  analysis.resolved.set(node, { kind: 'not-runnable', name, construct })
}
