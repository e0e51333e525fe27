// Examples of docs/API/CollectionClass.md for the functions that modify the collection.
import { describe, expect, it } from 'vitest'
import {
  errorOf,
  inSteps,
  numbers,
  run,
  stepsTests,
  underBudget,
  type BudgetCase,
} from '../../commands/run.fixture.js'
import { Collection } from '../../values/collection.js'

describe('.push() / .pop() / .shift() / .unshift()', () => {
  it('push: $col.push(3) //$col=[1,2,3]; push(6;New object(…)) adds both', () => {
    expect(
      run(`$col:=New collection(1;2)
$col.push(3)
$col.push(6;New object("firstname";"John";"lastname";"Smith"))
return $col`),
    ).toEqual([1, 2, 3, 6, { firstname: 'John', lastname: 'Smith' }])
  })
  it('push returns the collection: $col.push(7;50).sort() sorts $col itself', () => {
    expect(
      run(`$col:=New collection(5;3;9)
$sortedCol:=$col.push(7;50).sort()
return [$col; $sortedCol]`),
    ).toEqual([
      [3, 5, 7, 9, 50],
      [3, 5, 7, 9, 50],
    ])
  })
  it('pop: a first-in, last-out stack; Undefined from an empty collection', () => {
    expect(
      run(`$stack:=New collection
$stack.push(1;2)
$a:=$stack.pop()
$stack.push(New collection(4;5))
$b:=$stack.pop()
$c:=$stack.pop()
return [$a; $b; $c; $stack.length; Value type($stack.pop())=Is undefined]`),
    ).toEqual([2, [4, 5], 1, 0, true])
  })
  it('shift: $val=1, $c=[2,4,5,6,7,8]', () => {
    expect(
      run(`$c:=New collection(1;2;4;5;6;7;8)
$val:=$c.shift()
return [$val; $c]`),
    ).toEqual([1, [2, 4, 5, 6, 7, 8]])
  })
  it('unshift: [4,1,2], [5,4,1,2], [6,7,5,4,1,2]', () => {
    expect(
      run(`$c:=New collection(1;2)
$r:=[]
$r.push($c.unshift(4).copy())
$r.push($c.unshift(5).copy())
$r.push($c.unshift(6;7).copy())
return $r`),
    ).toEqual([
      [4, 1, 2],
      [5, 4, 1, 2],
      [6, 7, 5, 4, 1, 2],
    ])
  })
})

describe('.insert() / .remove() / .combine()', () => {
  it('insert: (2;"X"), (-2;"Y"), (-10;"Hi")', () => {
    expect(
      run(`$col:=New collection("a";"b";"c";"d")
$col.insert(2;"X")
$col.insert(-2;"Y")
$col.insert(-10;"Hi")
return $col`),
    ).toEqual(['Hi', 'a', 'b', 'X', 'Y', 'c', 'd'])
  })
  it('remove: (3), (3;2), (-8;1), (-3;1)', () => {
    expect(
      run(`$col:=New collection("a";"b";"c";"d";"e";"f";"g";"h")
$r:=[]
$r.push($col.remove(3).copy())
$r.push($col.remove(3;2).copy())
$r.push($col.remove(-8;1).copy())
$r.push($col.remove(-3;1).copy())
return $r`),
    ).toEqual([
      ['a', 'b', 'c', 'e', 'f', 'g', 'h'],
      ['a', 'b', 'c', 'g', 'h'],
      ['b', 'c', 'g', 'h'],
      ['b', 'g', 'h'],
    ])
  })
  it('remove on an empty collection does nothing; .length: $col.remove(0;3).length is 2', () => {
    expect(run(`return [].remove(0).length`)).toBe(0)
    expect(
      run(`$col:=New collection("one";"two";"three")
$col[4]:="five"
return $col.remove(0;3).length`),
    ).toBe(2)
  })
  it('combine: $c.combine($fruits;3) inserts each element at 3', () => {
    expect(
      run(`$c:=New collection(1;2;3;4;5;6)
$fruits:=New collection("Orange";"Banana";"Apple";"Grape")
return $c.combine($fruits;3)`),
    ).toEqual([1, 2, 3, 'Orange', 'Banana', 'Apple', 'Grape', 4, 5, 6])
  })
})

describe('.clear() / .fill() / .resize()', () => {
  it('clear: $vSize=0', () => {
    expect(
      run(`$col:=New collection(1;2;5)
$col.clear()
return $col.length`),
    ).toBe(0)
  })
  it('fill: ("2"), ("Hello";5), (0;1;5), ("world";1;-5)', () => {
    expect(
      run(`$c:=New collection(1;2;3;"Lemon";Null;"";4;5)
$r:=[]
$r.push($c.fill("2").copy())
$r.push($c.fill("Hello";5).copy())
$r.push($c.fill(0;1;5).copy())
$r.push($c.fill("world";1;-5).copy())
return $r`),
    ).toEqual([
      ['2', '2', '2', '2', '2', '2', '2', '2'],
      ['2', '2', '2', '2', '2', 'Hello', 'Hello', 'Hello'],
      ['2', 0, 0, 0, 0, 'Hello', 'Hello', 'Hello'],
      ['2', 'world', 'world', 0, 0, 'Hello', 'Hello', 'Hello'],
    ])
  })
  it('resize: (10) nulls, (10;0) zeros, (10;New object) objects, (2) cut', () => {
    expect(
      run(`$r:=[]
$r.push(New collection.resize(10))
$r.push(New collection.resize(10;0))
$r.push(New collection(1;2;3;4;5).resize(7;New object("name";"X")))
$r.push(New collection(1;2;3;4;5).resize(2))
return $r`),
    ).toEqual([
      Array(10).fill(null),
      Array(10).fill(0),
      [1, 2, 3, 4, 5, { name: 'X' }, { name: 'X' }],
      [1, 2],
    ])
  })
})

describe('the number of parameters', () => {
  it('is checked when the function is called', () => {
    expect(errorOf(`return [1].insert(1)`).message).toBe('.insert() takes 2 parameters, not 1')
    expect(errorOf(`return [1].pop(1)`).errCode).toBe(9416)
  })
  it('a function the Collection class does not have is an unknown member method', () => {
    expect(errorOf(`return [1].forEach(Formula(1))`).errCode).toBe(-10729)
  })
})

describe('the budget', () => {
  it.each([
    ['.fill()', '$1.fill(0)\nreturn $1.sum()', () => [numbers(100_000)]],
    ['.resize()', '$1.resize(100000; 1)\nreturn $1.sum()', () => [new Collection()]],
  ])('%s of 100,000 elements ends at the budget with 9410', (_, code, args) => {
    // A budget of 5 ms on a clock that moves 1 ms a reading: about 24,000 passes.
    expect(underBudget(code, args(), 5)).toEqual({ errCode: 9410 })
  })

  // Each call counts the elements it moves (more than 4,096) and reads the clock: the sixth
  // reading is past 5 ms, and that call does not start (five calls done).
  it.each([
    ['.insert()', '$1.insert(0; -1)'],
    ['.unshift()', '$1.unshift(-1)'],
    ['.combine()', '$1.combine([-1]; 0)'],
  ])('%s counts the elements it moves before: past the budget, it does not start', (_, line) => {
    const c = numbers(10_000)
    const code = `For ($i; 1; 100)\n\t${line}\nEnd for`
    expect(underBudget(code, [c], 5)).toEqual({ errCode: 9410 })
    expect(c.items.slice(0, 6)).toEqual([-1, -1, -1, -1, -1, 0])
    expect(c.length).toBe(10_005)
  })

  it.each([
    ['.fill()', '$1.fill(7; 100)\nreturn $1'],
    ['.resize()', '$1.resize(20000; 1)\nreturn $1'],
    ['.insert()', '$1.insert(5000; -1)\nreturn $1'],
    ['.unshift()', '$1.unshift(-1; -2)\nreturn $1'],
    ['.combine()', '$1.combine($1; 3)\nreturn $1'],
  ])('%s gives what it gives without a budget', (_, code) => {
    const unbounded = underBudget(code, [numbers(10_000)])
    expect(underBudget(code, [numbers(10_000)], 1e9)).toEqual(unbounded)
    expect(unbounded).toHaveProperty('value')
  })

  it('.combine() of more elements than a call takes arguments', () => {
    // A spread of 200,000 elements into `splice` overflows the stack.
    expect(
      underBudget('$1.combine($2; 1)\nreturn [$1.length; $1[1]; $1[200001]]', [
        numbers(2),
        numbers(200_000),
      ]),
    ).toEqual({
      value: [200_002, 0, 7919],
    })
  })
  it.each([
    ['.fill()', '$1.fill(0)', () => numbers(100_000)],
    ['.resize()', '$1.resize(100000; 1)', () => new Collection([1])],
  ])('%s that the budget ends leaves the collection as it was', (_, line, made) => {
    // Its elements counted before any is written.
    const c = made()
    expect(underBudget(`${line}\nreturn $1.length`, [c], 5)).toEqual({ errCode: 9410 })
    expect(c.items).toEqual(made().items)
  })

  // Written as steps (values/work.ts): a call in slices stops as it counts the elements it
  // writes, before it writes them.
  const CASES: BudgetCase[] = [
    ['.fill()', '$1.fill(7; 5)\nreturn [$1[4]; $1[5]; $1[$1.length-1]]', (n) => [numbers(n)]],
    ['.resize()', '$1.resize($2; 1)\nreturn [$1.length; $1[$2-1]]', (n) => [new Collection(), n]],
  ]
  stepsTests(CASES)

  it.each([
    ['.insert()', '$1.insert(0; -1)'],
    ['.unshift()', '$1.unshift(-1)'],
    ['.combine()', '$1.combine([-1]; 0)'],
    ['.remove()', '$1.remove(0)'],
  ])('%s in a call in slices stops before it moves the elements', (_, line) => {
    // Ten calls that each move 100,000 elements: each counts them, its ticks run out, and it
    // stops; the loop's own ten passes do not run the ticks out.
    const code = `For ($i; 1; 10)\n\t${line}\nEnd for\nreturn [$1.length; $1[0]; $1[$1.length-1]]`
    const { value, stops } = inSteps(code, [numbers(100_000)])
    expect(stops).toBeGreaterThanOrEqual(10)
    expect({ value }).toEqual(underBudget(code, [numbers(100_000)], 1e9))
  })
})
