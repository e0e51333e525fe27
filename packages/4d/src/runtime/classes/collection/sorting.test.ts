// Examples of docs/API/CollectionClass.md for the functions that order elements.
import { describe, expect, it } from 'vitest'
import {
  budgetTests,
  errorOf,
  inSteps,
  numbers,
  run,
  steppingBudget,
  stepsTests,
  underBudget,
  type BudgetCase,
} from '../../commands/run.fixture.js'
import { run4d } from '../../../compile/run4d.js'
import { Collection } from '../../values/collection.js'

describe('.sort()', () => {
  it('example 1: texts before numbers, each sorted', () => {
    expect(
      run(`$col:=New collection("Tom";5;"Mary";3;"Henry";1;"Jane";4;"Artie";6;"Chip";2)
$col2:=$col.sort()
return [$col2; $col]`),
    ).toEqual([
      ['Artie', 'Chip', 'Henry', 'Jane', 'Mary', 'Tom', 1, 2, 3, 4, 5, 6],
      ['Artie', 'Chip', 'Henry', 'Jane', 'Mary', 'Tom', 1, 2, 3, 4, 5, 6],
    ])
  })
  it('example 3: numerical, then alphabetical with a formula', () => {
    expect(
      run(`$col:=New collection(33;4;66;1111;222)
$col2:=$col.sort().copy()
$col3:=$col.sort(Formula(String($1.value)<String($1.value2)))
return [$col2; $col3]`),
    ).toEqual([
      [4, 33, 66, 222, 1111],
      [1111, 222, 33, 4, 66],
    ])
  })
  it('the order of types: null, Booleans, texts, numbers, objects, collections, dates', () => {
    expect(
      run(`$o:={k: 1}
return [!2020-01-01!; [1]; $o; 2; "b"; True; Null; False; "A"; 1].sort()`),
    ).toEqual([null, false, true, 'A', 'b', 1, 2, { k: 1 }, [1], '2020-01-01'])
  })
})

describe('.orderBy()', () => {
  it('ck ascending and ck descending on numbers', () => {
    expect(
      run(`$c:=[3;1;2]\nreturn [$c.orderBy(ck ascending); $c.orderBy(ck descending); $c]`),
    ).toEqual([
      [1, 2, 3],
      [3, 2, 1],
      [3, 1, 2],
    ])
  })
  it('"value desc, id" and the criteria collection agree', () => {
    const data = `$c:=New collection
For($i;1;6)
  $c.push(New object("id";$i;"value";$i%3))
End for
`
    const byText = run(`${data}return $c.orderBy("value desc, id").extract("id")`)
    const byObjects = run(`${data}$crit:=New collection
$crit.push(New object("propertyPath";"value";"descending";True))
$crit.push(New object("propertyPath";"id";"descending";False))
return $c.orderBy($crit).extract("id")`)
    expect(byText).toEqual([2, 5, 1, 4, 3, 6])
    expect(byObjects).toEqual(byText)
  })
  it('a property path: "phones.p1 asc", and {propertyPath: "phones.p2"; descending: True}', () => {
    const data = `$c:=New collection
$c.push(New object("name";"Cleveland";"phones";New object("p1";"01";"p2";"02")))
$c.push(New object("name";"Blountsville";"phones";New object("p1";"00";"p2";"03")))
`
    expect(run(`${data}return $c.orderBy("phones.p1 asc").extract("name")`)).toEqual([
      'Blountsville',
      'Cleveland',
    ])
    expect(
      run(`${data}$crit:=New collection(New object("propertyPath";"phones.p2";"descending";True))
return $c.orderBy($crit).extract("name")`),
    ).toEqual(['Blountsville', 'Cleveland'])
  })
  it('a bad criteria text is an error', () => {
    expect(errorOf(`return [{a: 1}].orderBy("a b c")`).errCode).toBe(9415)
  })
})

describe('.orderByMethod()', () => {
  it('example 1: alphabetical by orderBy, numerical by a formula', () => {
    expect(
      run(`$c:=New collection
$c.push("33";"4";"1111";"222")
return [$c.orderBy(); $c.orderByMethod(Formula(Num($1.value)<Num($1.value2)))]`),
    ).toEqual([
      ['1111', '222', '33', '4'],
      ['4', '33', '222', '1111'],
    ])
  })
  it('example 2: by length, the longest first', () => {
    expect(
      run(`$fruits:=New collection("Orange";"Apple";"Grape";"pear";"Banana";"fig";"Blackberry";"Passion fruit")
return $fruits.orderByMethod(Formula(Length(String($1.value))>Length(String($1.value2))))`),
    ).toEqual(['Passion fruit', 'Blackberry', 'Orange', 'Banana', 'Apple', 'Grape', 'pear', 'fig'])
  })
  it('example 3: a method with sk character codes and sk strict', () => {
    const methods = { sortCollection: `$1.result:=(Compare strings($1.value;$1.value2;$2)<0)` }
    expect(
      run(
        `$strings1:=New collection("Alpha";"Charlie";"alpha";"bravo";"Bravo";"charlie")
return [$strings1.orderByMethod("sortCollection";sk char codes); $strings1.orderByMethod("sortCollection";sk strict)]`,
        { methods },
      ),
    ).toEqual([
      ['Alpha', 'Bravo', 'Charlie', 'alpha', 'bravo', 'charlie'],
      ['alpha', 'Alpha', 'bravo', 'Bravo', 'charlie', 'Charlie'],
    ])
  })
})

describe('.multiSort()', () => {
  it('example 1: a synchronized sort', () => {
    expect(
      run(`$col:=["A"; "C"; "B"]
$col2:=[1; 2; 3]
$col3:=[["Jim"; "Philip"; "Maria"]; ["blue"; "green"]; ["11"; 22; "33"]]
$col.multiSort([$col2; $col3])
return [$col; $col2; $col3]`),
    ).toEqual([
      ['A', 'B', 'C'],
      [1, 3, 2],
      [
        ['Jim', 'Philip', 'Maria'],
        ['11', 22, '33'],
        ['blue', 'green'],
      ],
    ])
  })
  it('example 2: continents, then countries and cities', () => {
    expect(
      run(`$city:=["Paris"; "Lyon"; "Rabat"; "Eching"; "San Diego"]
$country:=["France"; "France"; "Morocco"; "Germany"; "US"]
$continent:=["Europe"; "Europe"; "Africa"; "Europe"; "America"]
$continent.multiSort([$country; {collection: $city; order: ck ascending}])
return [$continent; $country; $city]`),
    ).toEqual([
      ['Africa', 'America', 'Europe', 'Europe', 'Europe'],
      ['Morocco', 'US', 'France', 'France', 'Germany'],
      ['Rabat', 'San Diego', 'Lyon', 'Paris', 'Eching'],
    ])
  })
  it('example 3: by a formula, objects in step', () => {
    expect(
      run(`$name:=[]
$name.push({firstname: "John"; lastname: "Smith"})
$name.push({firstname: "Alain"; lastname: "Martin"})
$name.push({firstname: "Jane"; lastname: "Doe"})
$name.push({firstname: "John"; lastname: "Doe"})
$address:=[]
$address.push({city: "Paris"; country: "France"})
$address.push({city: "Lyon"; country: "France"})
$address.push({city: "Eching"; country: "Germany"})
$address.push({city: "Berlin"; country: "Germany"})
$name.multiSort(Formula($1.value.firstname<$1.value2.firstname); [$address])
return [$name.extract("lastname"); $address.extract("city")]`),
    ).toEqual([
      ['Martin', 'Doe', 'Smith', 'Doe'],
      ['Lyon', 'Eching', 'Paris', 'Berlin'],
    ])
  })
  it('collections of different lengths are an error', () => {
    expect(errorOf(`return [1;2].multiSort([[1]])`).errCode).toBe(9415)
  })
})

describe('the budget', () => {
  // Numbers in no order: a sort makes about n log n comparisons, each a pass of the budget's.
  const CASES: BudgetCase[] = [
    ['.sort()', '$1.sort()\nreturn $1', (n) => [numbers(n)]],
    ['.sort(formula)', '$1.sort(Formula($1.value>$1.value2))\nreturn $1', (n) => [numbers(n)]],
    ['.orderBy()', 'return $1.orderBy()', (n) => [numbers(n)]],
    ['.orderBy(ck descending)', 'return $1.orderBy(ck descending)', (n) => [numbers(n)]],
    [
      '.orderBy(path)',
      'return $1.orderBy("v desc")',
      (n) => [new Collection(numbers(n).items.map((v) => ({ v })))],
    ],
    [
      '.orderByMethod()',
      'return $1.orderByMethod(Formula($1.value<$1.value2))',
      (n) => [numbers(n)],
    ],
    ['.multiSort()', '$1.multiSort()\nreturn $1', (n) => [numbers(n)]],
    [
      '.multiSort(cols)',
      '$1.multiSort([$2])\nreturn [$1; $2]',
      (n) => [numbers(n), new Collection(numbers(n).items.reverse())],
    ],
    [
      '.multiSort(formula; cols)',
      '$1.multiSort(Formula($1.value<$1.value2); [$2])\nreturn [$1; $2]',
      (n) => [numbers(n), new Collection(numbers(n).items.reverse())],
    ],
  ]

  // 5,000 elements without a budget, not 10,000: some 60,000 comparisons already read the clock
  // on the way, far from the deadline.
  budgetTests(CASES, { small: 5_000 })
  // Written as steps (values/sort-steps.ts): a call in slices stops inside them. 20,000 elements:
  // a sort's comparisons (some 290,000, a pass each) stop about 70 times, where a pass over
  // 100,000 elements stops 24; at 100,000 the sorts with a formula took most of this file's time.
  stepsTests(CASES, { large: 20_000 })

  // Texts past a piece (65,536 characters) are folded a piece at a time, once a sort
  // (sort-order.ts): 8 of 100,000 characters with accents, told apart by their last word, and as
  // objects' properties for .orderBy() and .multiSort() levels.
  const longTexts = (): Collection =>
    new Collection(
      ['delta', 'Alpha', 'charlie', 'écho', 'bravo', 'Foxtrot', 'golf', 'hôtel'].map(
        (w, i) => `${'é b '.repeat(25_000)}${w} ${i}`,
      ),
    )
  const lastWords = (v: unknown): string[] =>
    (v as string[]).map((t) => t.slice(100_000, t.indexOf(' ', 100_000)))
  it.each([
    ['.sort()', 'return $1.sort()'],
    ['.orderBy(ck descending)', 'return $1.orderBy(ck descending)'],
    [
      '.orderBy("t desc, n")',
      'return $1.map(Formula({t: $1.value; n: 1})).orderBy("t desc, n").extract("t")',
    ],
    ['.multiSort([…])', '$n:=[1;1;1;1;1;1;1;1]\n$t:=$1.copy()\n$n.multiSort([$t])\nreturn $t'],
  ])('%s of long texts stops inside their folds, each folded once, in 4D’s order', (_, code) => {
    const { value, stops } = inSteps(code, [longTexts()])
    expect({ value }).toEqual(underBudget(code, [longTexts()], 1e9))
    // 8 texts of two pieces each: a stop at least between two pieces of each, folded once.
    expect(stops).toBeGreaterThanOrEqual(8)
    expect(stops).toBeLessThan(40)
    if (code === 'return $1.sort()')
      expect(lastWords(value)).toEqual([
        'Alpha',
        'bravo',
        'charlie',
        'delta',
        'écho',
        'Foxtrot',
        'golf',
        'hôtel',
      ])
  })

  it('a sort the budget ended leaves the collection as it was', () => {
    const c = numbers(100_000)
    const before = [...c.items]
    expect(underBudget('$1.sort()', [c], 5)).toEqual({ errCode: 9410 })
    expect(c.items).toEqual(before)
  })

  it('a callback that is 4D code is gone into: a call in slices stops inside it', () => {
    // Each comparison runs a loop of 10,000 passes, more than the 4,096 between two stops, and
    // counts itself in `$2.n`.
    const Less = 'For ($i; 1; 10000)\nEnd for\n$1.result:=$1.value<$1.value2\n$2.n:=$2.n+1'
    const c = (): Collection => new Collection([5, 3, 9, 1, 7, 2, 8, 6, 4])
    for (const fn of ['sort', 'orderByMethod']) {
      const code = `$n:={n: 0}\nreturn [$1.${fn}("Less"; $n); $n.n]`
      const { value, stops } = inSteps(code, [c()], { methods: { Less } })
      const [sorted, compared] = value as [unknown, number]
      expect(sorted).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(stops).toBeGreaterThanOrEqual(2 * compared)
    }
  })

  it('.multiSort() with a callback that is 4D code goes into it, asked both ways', () => {
    // Each call runs a loop of 10,000 passes: two stops at least a call, and 8 elements ask
    // 7 comparisons at least, each one call or two.
    const Before = 'For ($i; 1; 10000)\nEnd for\n$1.result:=$1.value<$1.value2'
    const code =
      '$c:=[5;3;9;1;7;2;8;3]\n$d:=[1;2;3;4;5;6;7;8]\n$c.multiSort("Before"; [$d])\nreturn [$c; $d]'
    const { value, stops } = inSteps(code, [], { methods: { Before } })
    expect(value).toEqual([
      [1, 2, 3, 3, 5, 7, 8, 9],
      [4, 6, 2, 8, 1, 5, 7, 3],
    ])
    expect(value).toEqual(run(code, { methods: { Before } }))
    expect(stops).toBeGreaterThanOrEqual(14)
  })

  it('in a call in slices too: the sorted elements are put in place at the last step', () => {
    const c = numbers(100_000)
    const before = [...c.items]
    let stops = 0
    const inSlices = (ms: number): unknown =>
      run4d('$1.sort()\nreturn $1.length', [c], {
        emit: { steps: true, budget: true, lines: false },
        runtime: { budget: steppingBudget(ms) },
        stopped: () => {
          stops++
          // Between two slices, other requests see the collection as it was.
          for (const i of [1, 50_000, 99_999]) expect(c.items[i]).toBe(before[i])
        },
      })
    expect(() => inSlices(5)).toThrow(expect.objectContaining({ errCode: 9410 }))
    expect(c.items).toEqual(before)
    expect(inSlices(1e9)).toBe(100_000)
    expect(stops).toBeGreaterThanOrEqual(5)
    expect(c.items).toEqual([...before].sort((a, b) => (a as number) - (b as number)))
  })
})
