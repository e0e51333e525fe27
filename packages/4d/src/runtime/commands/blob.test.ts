// The budget of the BLOB theme's conversions and copies, and of the Tools theme's digests and
// Base64 (context/budget.ts): a long one ends at the budget with 9410, and gives what it gave.
import { describe, expect, it } from 'vitest'
import { Collection } from '../values/collection.js'
import { budgetTests, underBudget, type BudgetCase } from './run.fixture.js'

// Converted a megabyte at a time, each piece counted: ten pieces are past a budget of 5 ms on a
// clock that moves 1 ms a reading (one reading a piece).
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
    ['Generate digest', 'return Generate digest($1; SHA256 digest)'],
    ['BASE64 ENCODE', 'var $r : Text\nBASE64 ENCODE($1; $r)\nreturn Length($r)'],
  ]

  // Without a budget, 3,000,000 characters are three pieces, the clock read between them, far from
  // the deadline; a pair of halves of a surrogate pair lies across the first cut (the text is cut
  // at a megabyte).
  budgetTests(CASES, {
    large: 10_000_000,
    small: 3_000_000,
    unit: 'characters',
    args: (n) => [text(n)],
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
