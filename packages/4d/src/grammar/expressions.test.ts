/**
 * @module The expression grammar against 4D's documented rules: one precedence for every binary
 * operator folded left to right (docs/Concepts/dt_number.md, operators.md), the ternary lowest,
 * prefixes first; and the colon's meanings kept apart (ternary, tokens `Name:C16`, `Name:K8:3`,
 * object literals, time literals).
 */
import { describe, expect, test } from 'vitest'
import { parseExpression } from './parse.js'
import { sexp } from './sexp.fixture.js'

const tree = (text: string) => sexp(parseExpression(text))

describe('precedence: strictly left to right', () => {
  test.each([
    ['3+4*5', '(* (+ 3 4) 5)'],
    ['3+(4*5)', '(+ 3 (* 4 5))'],
    ['10-2-3', '(- (- 10 2) 3)'],
    ['2^3^2', '(^ (^ 2 3) 2)'],
    ['$length>1+$i', '(+ (> $length 1) $i)'],
    ['$x=1 & $y=2', '(= (& (= $x 1) $y) 2)'],
    ['($x=1) & ($y=2)', '(& (= $x 1) (= $y 2))'],
    ['$a || $b && $c', '(&& (|| $a $b) $c)'],
    ['$a && $b || $c', '(|| (&& $a $b) $c)'],
    ['-$a+1', '(+ (- $a) 1)'],
    ['5 - -2', '(- 5 (- 2))'],
    ['$a+$b*$c-$d/$e', '(/ (- (* (+ $a $b) $c) $d) $e)'],
    ['$o.a.b+$c[1]', '(+ $o.a.b Index)'],
  ])('%s is %s', (text, expected) => {
    expect(tree(text)).toBe(expected)
  })

  test('the ternary takes the whole chain as its test and nests to the right', () => {
    expect(tree('$age>=21 ? "Beer" : "Juice"')).toBe('(? (>= $age 21) "Beer" "Juice")')
    expect(tree('$x ? 1 : $y ? 2 : 3')).toBe('(? $x 1 (? $y 2 3))')
    expect(tree('$x ? $y ? 1 : 2 : 3')).toBe('(? $x (? $y 1 2) 3)')
    expect(tree('$a || $b ? 1 : 2')).toBe('(? (|| $a $b) 1 2)')
  })
})

describe('the colon: ternary, tokens, literals', () => {
  test('a tokenized command or constant keeps its colon', () => {
    expect(tree('Length:C16("abc")')).toBe('<Length:C16 "abc">')
    expect(tree('Name:C16')).toBe('<Name:C16>')
    expect(tree('Is text:K8:3')).toBe('{Is text:K8:3}')
    expect(tree('fk resources folder:K87:11')).toBe('{fk resources folder:K87:11}')
  })

  test('tokens inside a ternary, with the spaces 4D recommends', () => {
    expect(tree('$c ? Length:C16($a) : 0')).toBe('(? $c <Length:C16 $a> 0)')
    expect(tree('$c ? Name:C16 : 1')).toBe('(? $c <Name:C16> 1)')
    expect(tree('$c ? Is text:K8:3 : Is real:K8:4')).toBe('(? $c {Is text:K8:3} {Is real:K8:4})')
    expect(tree('$t="" ? OBJECT Get name:C1087 : $t')).toBe(
      '(? (= $t "") <OBJECT Get name:C1087> $t)',
    )
  })

  test('a ternary written without spaces still parses when no token can be read', () => {
    expect(tree('$c?1:2')).toBe('(? $c 1 2)')
    expect(tree('$c?$a:$b')).toBe('(? $c $a $b)')
  })

  test('time literals beside ternaries and bit operators', () => {
    expect(tree('?10:20:30?')).toBe('?10:20:30?')
    expect(tree('$c ? ?10:00:00? : ?11:00:00?')).toBe('(? $c ?10:00:00? ?11:00:00?)')
    expect(tree('$c ? -1 : 1')).toBe('(? $c (- 1) 1)')
    expect(tree('$n ?+ 3')).toBe('(?+ $n 3)')
    expect(tree('$n ?? 3')).toBe('(?? $n 3)')
  })

  test('object literal keys, with tokens and ternaries as values', () => {
    expect(tree('{a: Length:C16("x"); b: $c ? 1 : 2}')).toBe('{a: <Length:C16 "x">; b: (? $c 1 2)}')
  })
})

describe('names', () => {
  test('command names with spaces, any case, longest first', () => {
    expect(tree('Current date+1')).toBe('(+ <Current date> 1)')
    expect(tree('current DATE')).toBe('<current DATE>')
    expect(tree('OB Keys($o)')).toBe('<OB Keys $o>')
    expect(tree('Current')).toBe('Current')
  })

  test('a name that only starts like a command stays a name', () => {
    expect(tree('Lengthy')).toBe('Lengthy')
    expect(tree('myMethod(1; 2)')).toBe('(myMethod 1 2)')
  })

  test('an unknown command token still gives a command with that number', () => {
    expect(tree('Some future command:C9999(1)')).toBe('<Some future command:C9999 1>')
  })
})
