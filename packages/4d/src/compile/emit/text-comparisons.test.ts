/**
 * The comparison operators on two long texts in a call in slices (runtime/ops/compare-steps.ts):
 * `=`, `#`, `<`, `>`, `<=`, `>=` and `%` fold a text past a piece a piece at a time, stopping
 * between pieces, and answer what the plain operator answers; on short texts and numbers they
 * add no stop; plain code keeps the plain operator.
 */
import { describe, expect, it } from 'vitest'
import { inSteps, underBudget } from '../../runtime/commands/run.fixture.js'
import { emitSteps } from './emit.fixture.js'

// 300,000 characters with accents and spaces, and the same with a last word changed.
const long = 'Élodie à la fenêtre '.repeat(15_000)
const other = `${long}zèbre`
const CASES: [string, string, readonly unknown[]][] = [
  ['=', 'return $1=$2', [long, long.toUpperCase()]],
  ['= @', 'return $1=$2', [long, 'élodie@fenetre ']],
  ['#', 'return $1#$2', [long, other]],
  ['<', 'return $1<$2', [long, other]],
  ['>', 'return $1>$2', [other, long]],
  ['<=', 'return $1<=$2', [long, 'ELODIE@']],
  ['>=', 'return $1>=$2', [long, other]],
  ['%', 'return $1%$2', [other, 'ZEBRE']],
  ['% not found', 'return $1%$2', [long, 'zebre']],
]

describe('comparisons of long texts in a call in slices', () => {
  it.each(CASES)('%s stops inside its fold and answers the plain value', (_, code, args) => {
    const { value, stops } = inSteps(code, args)
    // A piece of 65,536 characters at a time, each counted: a stop between two of them.
    expect(stops).toBeGreaterThanOrEqual(4)
    expect({ value }).toEqual(underBudget(code, args, 1e9))
  })

  it('adds no stop for short texts and numbers', () => {
    const code =
      'var $n : Integer\nvar $x : Real:=1.5\n$n:=Num($1=$2)+Num($1<$2)+Num($1%"b")+Num($x<2)\nreturn $n'
    expect(inSteps(code, ['a b', 'A B'])).toEqual({ value: 3, stops: 0 })
  })

  it('writes the steps’ form in a generator only, and never for known numbers', () => {
    expect(emitSteps('var $t; $u : Text\n$b:=$t<$u', false)).toMatch(/rt\.lt\(v\d+, v\d+\)/)
    const source = emitSteps(
      'var $t; $u : Text\nvar $i : Integer\nvar $r : Real\n$b:=$t<$u\n$c:=$t%$u\n$d:=$i<$r',
    )
    expect(source).toMatch(/rt\.ltSteps\(v\d+, v\d+\)\) instanceof rt\.Steps/)
    expect(source).toMatch(/rt\.modSteps\(/)
    expect(source.match(/ltSteps/g)).toHaveLength(1)
  })
})
