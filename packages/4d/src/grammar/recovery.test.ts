/**
 * @module Recovery: a statement that does not parse becomes an `Unparsed` node where it stands,
 * with the line and column of the failure, and the rest of the file parses as if it were not there.
 * Whatever the text, `parse4d` returns a tree and never throws (a property over arbitrary text).
 */
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, test } from 'vitest'
import type { StatementNode } from '../ast/statements.js'
import { parse4d } from './parse.js'

const method = (text: string) => parse4d(text, { file: 'Methods/m.4dm' })
const kinds = (body: readonly StatementNode[]) => body.map((s) => s.kind)

describe('a bad statement fails alone', () => {
  test('the statements around it parse, and the problem points at the failure', () => {
    const { file, problems } = method('$a:=1\n$b:=(1+\n$c:=3\n')
    expect(file.kind).toBe('MethodFile')
    if (file.kind !== 'MethodFile') return
    expect(kinds(file.body)).toEqual(['Assign', 'Unparsed', 'Assign'])
    expect(problems).toEqual([
      { line: 2, column: 8, message: 'Expected expression but end of line found' },
    ])
  })

  test('inside a block, the block keeps its other statements', () => {
    const { file, problems } = method('If ($x)\n\t$a:=)\n\t$b:=2\nEnd if\n')
    if (file.kind !== 'MethodFile') throw new Error('a method file')
    const block = file.body[0]!
    expect(block.kind).toBe('If')
    if (block.kind !== 'If') return
    expect(kinds(block.then)).toEqual(['Unparsed', 'Assign'])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatchObject({ line: 2, column: 6 })
  })

  test('a block without its end leaves its opening line unparsed and its lines in place', () => {
    const { file, problems } = method('For ($i; 1; 3)\n\t$n+=$i\n$after:=1\n')
    if (file.kind !== 'MethodFile') throw new Error('a method file')
    expect(kinds(file.body)).toEqual(['Unparsed', 'Assign', 'Assign'])
    expect(problems).toEqual([{ line: 1, column: 1, message: 'For without a matching End for' }])
  })

  test('a stray end names the block it would close', () => {
    const { problems } = method('$a:=1\nEnd while\n')
    expect(problems).toEqual([
      { line: 2, column: 1, message: 'End while without a matching While' },
    ])
  })

  test('a broken function header does not take the next function with it', () => {
    const text = 'Function f($a : )\n\t$x:=1\n\nFunction g() : Text\n\treturn "g"\n'
    const { file, problems } = parse4d(text, { file: 'Classes/C.4dm' })
    if (file.kind !== 'ClassFile') throw new Error('a class file')
    expect(file.members.map((m) => m.kind)).toEqual(['Unparsed', 'Function'])
    expect(problems).toEqual([{ line: 1, column: 17, message: 'Expected type but ")" found' }])
  })

  test('CRLF files report the same lines and columns as LF files', () => {
    const lf = method('$a:=1\n\t$b:=(\n$c:=2\n').problems
    const crlf = method('$a:=1\r\n\t$b:=(\r\n$c:=2\r\n').problems
    expect(crlf).toEqual(lf)
  })
})

describe('deep input', () => {
  test('nested blocks without their ends are each reported (each statement is parsed once)', () => {
    const text = Array.from({ length: 60 }, (_, i) => `${'\t'.repeat(i)}If ($a${i})\n`).join('')
    const { problems } = method(text)
    expect(problems).toHaveLength(60)
    expect(problems.every((p) => p.message === 'If without a matching End if')).toBe(true)
  })

  test('past the bounds of nesting, the file is one problem instead of a crash', () => {
    const blocks = 'If ($a)\n'.repeat(150) + 'End if\n'.repeat(150)
    expect(method(blocks).problems).toEqual([
      { line: 102, column: 1, message: 'Blocks are nested more than 100 levels deep' },
    ])
    const parens = method('$a:=' + '('.repeat(300) + '1' + ')'.repeat(300))
    expect(parens.problems.map((p) => p.message)).toEqual([
      'Expressions are nested more than 200 levels deep',
    ])
    const chain = method('$a:=' + '1+'.repeat(600) + '1')
    expect(chain.problems.map((p) => p.message)).toEqual([
      'An expression chains more than 500 operators or members',
    ])
  })

  test('within the bounds, deep code parses', () => {
    const blocks = 'If ($a)\n'.repeat(99) + '$x:=1\n' + 'End if\n'.repeat(99)
    expect(method(blocks).problems).toEqual([])
    expect(method('$a:=' + '('.repeat(150) + '1' + ')'.repeat(150)).problems).toEqual([])
  })
})

describe('parse4d never throws', () => {
  const fragments = fc.constantFrom(
    'If ($a)',
    'End if',
    'Else',
    'Case of',
    ': ($x)',
    'End case',
    'For ($i;1;2)',
    'End for',
    'For each ($x;$c)',
    'End for each',
    'While (True)',
    'End while',
    'Repeat',
    'Until ($x)',
    'Try',
    'Catch',
    'End try',
    'Use ($o)',
    'End use',
    'Function f()',
    'Class constructor',
    'property a : Text',
    'Alias b c.d',
    'Class extends X',
    '$a:=1',
    '$a:=(',
    '"open',
    '/* open',
    '*/',
    '\\',
    'return',
    'Begin SQL',
    'End SQL',
    '{a: [1; 2]}',
    '#DECLARE($a : Text)',
    ':=',
    'Length:C16(',
    'Is text:K8:3',
    '->',
    '$p->',
    '[T]F',
    '?10:00:00?',
    '!2020-01-01!',
  )
  const line = fc.oneof(fragments, fc.string({ maxLength: 12 }))
  const source = fc
    .tuple(fc.array(line, { maxLength: 25 }), fc.constantFrom('\n', '\r\n', '\r'))
    .map(([lines, eol]) => lines.join(eol))

  fcTest.prop([source, fc.constantFrom('class', 'method' as const)])(
    'on any text it returns a tree whose problems lie inside the text',
    (text, kind) => {
      const { file, problems } = parse4d(text, { file: 'x.4dm', kind: kind as 'class' | 'method' })
      expect(file.kind).toBe(kind === 'class' ? 'ClassFile' : 'MethodFile')
      const lines = text.split(/\r\n|\r|\n/).length
      for (const p of problems) {
        expect(p.line).toBeGreaterThanOrEqual(1)
        expect(p.line).toBeLessThanOrEqual(lines)
        expect(p.column).toBeGreaterThanOrEqual(1)
      }
    },
  )
})
