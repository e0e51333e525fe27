import { describe, expect, test } from 'vitest'
import { toLoc } from './loc.js'
import { Ast, type Node } from './nodes.js'
import { childrenOf, walk } from './walk.js'

const at = (line: number, column: number, offset: number) => ({ line, column, offset })
const loc = toLoc({ start: at(1, 1, 0), end: at(1, 6, 5) })

describe('Ast factories', () => {
  test('freeze the node and copy then freeze its arrays', () => {
    const args = [Ast.number({ value: 1, raw: '1' }, loc)]
    const call = Ast.command({ name: 'Abs', number: 99, tokenized: false, args }, loc)
    expect(Object.isFrozen(call)).toBe(true)
    expect(Object.isFrozen(call.args)).toBe(true)
    args.push(Ast.number({ value: 2, raw: '2' }, loc))
    expect(call.args).toHaveLength(1)
  })

  test('write kind first and loc last', () => {
    const node = Ast.member({ object: Ast.this({}, loc), name: 'x' }, loc)
    expect(Object.keys(node)).toEqual(['kind', 'object', 'name', 'loc'])
  })
})

describe('walk', () => {
  test('visits every node in source order and can skip a subtree', () => {
    const one = Ast.number({ value: 1, raw: '1' }, loc)
    const two = Ast.number({ value: 2, raw: '2' }, loc)
    const sum = Ast.binary({ op: '+', left: one, right: two }, loc)
    const target = Ast.local({ name: 'x' }, loc)
    const assign = Ast.assign({ target, op: ':=', value: sum }, loc)
    const kinds: string[] = []
    walk(assign, (n) => void kinds.push(n.kind))
    expect(kinds).toEqual(['Assign', 'Local', 'Binary', 'Number', 'Number'])
    const skipped: string[] = []
    walk(assign, (n) => (skipped.push(n.kind), n.kind !== 'Binary'))
    expect(skipped).toEqual(['Assign', 'Local', 'Binary'])
  })

  test('childrenOf leaves out absent optional children', () => {
    const ret: Node = Ast.return({ value: null }, loc)
    expect(childrenOf(ret)).toEqual([])
  })
})
