// The JSON theme: JSON Parse's examples (docs/commands-legacy/json-parse.md) and JSON Stringify.
import { describe, expect, it } from 'vitest'
import { objectOf } from '../ops/literals.js'
import { Collection } from '../values/collection.js'
import {
  budgetTests,
  errorOf,
  inSteps,
  numbers,
  plain,
  run,
  stepsTests,
  underBudget,
  type BudgetCase,
} from './run.fixture.js'

describe('JSON Parse', () => {
  it('example 1: a real, a long, a text, an object, a Boolean, a time', () => {
    expect(
      run(
        `return [JSON Parse("42.17"); JSON Parse("120.13";Is longint); JSON Parse("\\"Year 42\\"";Is text); JSON Parse("{\\"name\\":\\"john\\"}"); JSON Parse("{\\"manager\\":true}";Is Boolean); String(JSON Parse("5120";Is time))]`,
      ),
    ).toEqual([42.17, 120, 'Year 42', { name: 'john' }, true, '01:25:20'])
  })
  it('example 2: a date-time text stays a text; Is date gives the day', () => {
    expect(
      run(
        `return [JSON Parse("\\"1990-12-25T12:00:00Z\\""); JSON Parse("\\"2008-01-01T12:00:00Z\\"";Is date)]`,
      ),
    ).toEqual(['1990-12-25T12:00:00Z', '2008-01-01'])
  })
  it('example 3: a YYYY-MM-DD text is a date', () => {
    expect(
      run(`$o:=JSON Parse("{\\"name\\":\\"Marcus\\",\\"birthday\\":\\"2017-10-16\\"}")
var $birthday : Date
$birthday:=$o.birthday
return [Value type($o.birthday)=Is date; $birthday]`),
    ).toEqual([true, '2017-10-16'])
  })
  it('examples 4 and 5: Stringify then Parse; an array is a collection', () => {
    expect(
      run(`$Contact:=New object("name";"Monroe";"firstname";"Alan")
$Contact2:=JSON Parse(JSON Stringify($Contact))
return [$Contact2; JSON Parse("[\\"Monday\\",10,\\"Tuesday\\",11,false]")]`),
    ).toEqual([{ name: 'Monroe', firstname: 'Alan' }, ['Monday', 10, 'Tuesday', 11, false]])
  })
  it('a text that is not JSON is an error', () => {
    expect(errorOf(`return JSON Parse("{oops")`).errCode).toBe(9415)
  })
})

describe('JSON Stringify', () => {
  it('compact, and pretty with *', () => {
    expect(run(`return [JSON Stringify({a: [1; 2]}); JSON Stringify({a: 1};*)]`)).toEqual([
      '{"a":[1,2]}',
      '{\n\t"a": 1\n}',
    ])
  })
})

describe('the budget', () => {
  const records = (n: number): Collection =>
    new Collection(numbers(n).items.map((v) => objectOf('v', v, 'd', '2024-01-02')))
  const CASES: BudgetCase[] = [
    ['JSON Stringify', 'return Length(JSON Stringify($1))', (n) => [numbers(n)]],
    ['JSON Stringify *', 'return Length(JSON Stringify($1; *))', (n) => [records(n)]],
    // A text counts a pass each 64 characters it writes.
    [
      'JSON Stringify of a text',
      'return Length(JSON Stringify($1))',
      (n) => ['a"é\n'.repeat(n * 5)],
    ],
    ['JSON Parse', 'return JSON Parse($1).length', (n) => [JSON.stringify(plain(records(n)))]],
  ]

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops between two values or pieces.
  stepsTests(CASES)

  it('JSON Parse of 20 MB (what a client may post) stops many times in a call in slices', () => {
    // Long texts, quotes escaped in them: few values, so that the test stays short, and a scan
    // that goes through every character of the text.
    const item = 'abcdefghi"'.repeat(1_000)
    const text = JSON.stringify(Array.from({ length: 1_900 }, (_, i) => `${item}${i}`))
    expect(text.length).toBeGreaterThan(20_000_000)
    const { value, stops } = inSteps('$v:=JSON Parse($1)\nreturn [$v.length; $v[1899]]', [text])
    expect(value).toEqual([1_900, `${item}1899`])
    // A stop at least every 256K characters (the scan of 64K counts 1,024 passes, the parse of a
    // piece of 64K as many): 80 for the text, not counting those of the pieces.
    expect(stops).toBeGreaterThanOrEqual(80)
  })

  it('JSON Parse still answers a text that is not JSON with its error, which Try catches', () => {
    const code = '$r:=Try(JSON Parse("{nope"))\nreturn Last errors[0].errCode'
    expect(underBudget(code, [], 1e9)).toEqual({ value: 9415 })
  })
})
