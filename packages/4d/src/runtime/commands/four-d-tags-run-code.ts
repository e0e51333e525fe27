/**
 * @module Runs the code of a `<!--#4DCODE …-->` tag (its tree, four-d-tags-code.ts) on the
 * template's scope (four-d-tags-scope.ts): each line and each condition compiled by the run's
 * compiler, the blocks run here as 4D runs them (docs/Concepts/flow-control.md, cf_looping.md).
 *
 * Every line is compiled before the first runs, as 4D tokenizes the whole block first: a syntax
 * error on the last line stops the block before anything of it happened. An error is a 4D error,
 * thrown to the code that called PROCESS 4D TAGS ("Any error will display the standard error
 * dialog", transformation-tags.md), which `Try` or `ON ERR CALL` may handle.
 */
import { numberArg } from '../arguments/arguments.js'
import { iterate } from '../context/iterate.js'
import { codeChildren, type CodeNode } from './four-d-tags-code.js'
import type { TagScope } from './four-d-tags-scope.js'

/** How a statement ends: the next one runs, or a loop or the block is left. */
type Flow = 'next' | 'break' | 'continue' | 'return'

/** Runs a block of code on the template's scope. */
export function runCode(scope: TagScope, nodes: readonly CodeNode[]): void {
  for (const node of nodes) prepare(scope, node)
  run(scope, nodes)
}

/** Compiles the code of a node and of those it holds. */
function prepare(scope: TagScope, node: CodeNode): void {
  const expression = (code: string | null) => {
    if (code !== null) scope.compile(code, 'expression')
  }
  switch (node.kind) {
    case 'line':
      scope.compile(node.code, 'statement')
      break
    case 'declare':
      expression(node.init)
      break
    case 'if':
      node.branches.forEach((b) => expression(b.condition))
      break
    case 'while':
      expression(node.condition)
      break
    case 'repeat':
      expression(node.until)
      break
    case 'for':
      ;[node.start, node.end, node.step].forEach(expression)
      break
    case 'forEach':
      ;[node.source, node.begin, node.end].forEach(expression)
      break
    case 'break':
    case 'continue':
    case 'return':
      break
    default: {
      const unknown: never = node
      throw new Error(`four-d-tags-run-code: unknown node kind ${(unknown as CodeNode).kind}`)
    }
  }
  for (const child of codeChildren(node)) prepare(scope, child)
}

function run(scope: TagScope, nodes: readonly CodeNode[]): Flow {
  for (const node of nodes) {
    const flow = step(scope, node)
    if (flow !== 'next') return flow
  }
  return 'next'
}

/** What a loop does after a pass of its body: go on, or leave with this flow. */
const leaves = (flow: Flow): Flow | undefined =>
  flow === 'break' ? 'next' : flow === 'return' ? 'return' : undefined

function step(scope: TagScope, node: CodeNode): Flow {
  switch (node.kind) {
    case 'line':
      scope.execute(node.code)
      return 'next'
    case 'declare':
      for (const name of node.names) {
        scope.locals.declare(name, node.type)
        if (node.init !== null) scope.assign(`$${name}`, scope.value(node.init))
      }
      return 'next'
    case 'if': {
      const branch = node.branches.find((b) => scope.test(b.condition))
      return run(scope, branch === undefined ? node.otherwise : branch.body)
    }
    case 'while':
      while ((scope.pass(), scope.test(node.condition))) {
        const out = leaves(run(scope, node.body))
        if (out !== undefined) return out
      }
      return 'next'
    case 'repeat':
      do {
        scope.pass()
        const out = leaves(run(scope, node.body))
        if (out !== undefined) return out
      } while (!scope.test(node.until))
      return 'next'
    case 'for':
      return forLoop(scope, node)
    case 'forEach': {
      const bound = (code: string | null) => (code === null ? undefined : scope.value(code))
      const items = iterate(scope.value(node.source), bound(node.begin), bound(node.end))
      for (let at = items.start; at < items.end; at++) {
        scope.pass()
        scope.assign(node.item, items.at(at))
        const out = leaves(run(scope, node.body))
        if (out !== undefined) return out
      }
      return 'next'
    }
    case 'break':
    case 'continue':
    case 'return':
      return node.kind
    default: {
      const unknown: never = node
      throw new Error(`four-d-tags-run-code: unknown node kind ${(unknown as CodeNode).kind}`)
    }
  }
}

/**
 * `For (counter; start; end {; step})`: the bounds read once, the counter read again at each pass
 * (the body may change it), and left past the end, as 4D leaves it.
 */
function forLoop(scope: TagScope, node: CodeNode & { kind: 'for' }): Flow {
  const start = numberArg('For', 'start', scope.value(node.start))
  const end = numberArg('For', 'end', scope.value(node.end))
  const increment = node.step === null ? 1 : numberArg('For', 'step', scope.value(node.step))
  scope.assign(node.counter, start)
  for (;;) {
    scope.pass()
    const counter = numberArg('For', 'counter', scope.value(node.counter))
    if (increment >= 0 ? counter > end : counter < end) return 'next'
    const out = leaves(run(scope, node.body))
    if (out !== undefined) return out
    scope.assign(node.counter, numberArg('For', 'counter', scope.value(node.counter)) + increment)
  }
}
