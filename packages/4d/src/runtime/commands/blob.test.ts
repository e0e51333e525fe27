// The budget of the BLOB theme's conversions and copies, and of the Tools theme's digests and
// Base64 (context/budget.ts): a long one ends at the budget with 9410, and gives what it gave.
import { describe, expect, it } from 'vitest'
import { Collection } from '../values/collection.js'
import { budgetTests, stepsTests, underBudget, type BudgetCase } from './run.fixture.js'

// Converted a piece at a time (64K characters or bytes for a conversion, a megabyte for a digest or
// Base64), each piece counted: ten pieces are past a budget of 5 ms on a clock that moves 1 ms a
// reading (one reading a piece).
const text = (n: number): string => 'Élodie dit «ça va» 😀. '.repeat(n / 22 + 1).slice(0, n)

describe('conversions a piece at a time', () => {
  const CASES: BudgetCase[] = [
    [
      'TEXT TO BLOB',
      'var $b : Blob\nTEXT TO BLOB($1; $b; UTF8 text without length)\nreturn BLOB size($b)',
    ],
    [
      'TEXT TO BLOB (Mac Roman)',
      'var $b : Blob\nTEXT TO BLOB($1; $b; Mac text without length)\nreturn BLOB size($b)',
    ],
    [
      'BLOB to text',
      'var $b : Blob\nCONVERT FROM TEXT($1; "UTF-8"; $b)\nreturn Length(BLOB to text($b; UTF8 text without length))',
    ],
    [
      'CONVERT FROM TEXT (UTF-16)',
      'var $b : Blob\nCONVERT FROM TEXT($1; "UTF-16LE"; $b)\nreturn BLOB size($b)',
    ],
    [
      'Convert to text',
      'var $b : Blob\nCONVERT FROM TEXT($1; "UTF-16BE"; $b)\nreturn Convert to text($b; "UTF-16BE")=$1',
    ],
    [
      'BLOB to text of a BLOB given',
      'return Length(BLOB to text($1; UTF8 text without length))',
      (n) => [new TextEncoder().encode(text(n))],
    ],
    ['Generate digest', 'return Generate digest($1; SHA256 digest)'],
    ['BASE64 ENCODE', 'var $r : Text\nBASE64 ENCODE($1; $r)\nreturn Length($r)'],
  ]

  // Without a budget, 3,000,000 characters are three pieces of a megabyte, the clock read between
  // them, far from the deadline; a pair of halves of a surrogate pair lies across the first cut
  // (the text is cut at a megabyte).
  const SIZES = {
    large: 10_000_000,
    small: 3_000_000,
    unit: 'characters',
    args: (n: number) => [text(n)],
  }
  budgetTests(CASES, SIZES)
  // Written as steps (values/work.ts): a call in slices stops between two pieces.
  stepsTests(CASES, SIZES)

  it('BLOB to text of textLength characters, and the offset variable advanced past them', () => {
    const code = `var $b : Blob
TEXT TO BLOB($1; $b; UTF8 text without length)
$offset:=3
$t:=BLOB to text($b; UTF8 text without length; $offset; 5)
return [$t; $offset]`
    const t = text(3_000_000)
    const bytes = new TextEncoder().encode(t.slice(2, 7)).length
    expect(underBudget(code, [t])).toEqual({ value: [t.slice(2, 7), 3 + bytes] })
  })
})

describe('what runs in one piece counts its size before', () => {
  // Each call counts its bytes (more than 4,096) and reads the clock: the sixth reading is past
  // 5 ms, and that call does not start. Two readings before the loop (making the BLOB and its
  // Base64), three calls in it.
  it.each([
    ['SET BLOB SIZE', 'SET BLOB SIZE($b; BLOB size($b)+10000)'],
    ['INSERT IN BLOB', 'INSERT IN BLOB($b; 0; 10000)'],
    ['COPY BLOB', 'COPY BLOB($b; $b; 0; BLOB size($b); 10000)'],
    ['BASE64 DECODE', 'BASE64 DECODE($t; $d)'],
  ])('%s', (_, line) => {
    const code = `var $b : Blob\nvar $d : Blob\nSET BLOB SIZE($b; 10000)\nBASE64 ENCODE($b; $t)
For ($i; 1; 100)\n\t${line}\n\t$1.push(BLOB size($b))\nEnd for`
    const done = new Collection()
    expect(underBudget(code, [done], 5)).toEqual({ errCode: 9410 })
    expect(done.length).toBe(3)
  })
})
