// The JSON theme: JSON Parse's examples (docs/commands-legacy/json-parse.md) and JSON Stringify.
import { describe, expect, it } from 'vitest'
import { objectOf } from '../ops/literals.js'
import { Collection } from '../values/collection.js'
import {
  budgetTests,
  errorOf,
  numbers,
  plain,
  run,
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

  it('JSON Parse still answers a text that is not JSON with its error, which Try catches', () => {
    const code = '$r:=Try(JSON Parse("{nope"))\nreturn Last errors[0].errCode'
    expect(underBudget(code, [], 1e9)).toEqual({ value: 9415 })
  })
})
