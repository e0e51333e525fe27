import { describe, expect, it } from 'vitest'
import { FourDError } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { newObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'
import { eq, ne } from './compare.js'
import { mul } from './arithmetic.js'
import { get } from './members.js'
import { objectOf } from './literals.js'
import { band, bitClear, bitSet, bitTest, bor, bxor, cond, shl, shr, truthy } from './logic.js'

// `a && b` and `a || b` as the compiler emits them: the operand that decides is returned.
const and = (a: unknown, b: () => unknown): unknown => (truthy(a) ? b() : a)
const or = (a: unknown, b: () => unknown): unknown => (truthy(a) ? a : b())

describe('docs/Concepts/operators.md "Truthy and falsy"', () => {
  it('false, Null, undefined, the null date, "", [] and {} are falsy', () => {
    for (const v of [false, null, undefined, DateValue.NULL, '', new Collection(), newObject()])
      expect(truthy(v)).toBe(false)
  })
  it('every other value is truthy, 0 included', () => {
    for (const v of [true, 0, -1, 'a', DateValue.of(2020, 1, 1), TimeValue.ZERO, Collection.of(0)])
      expect(truthy(v)).toBe(true)
    expect(truthy(objectOf('a', 0))).toBe(true)
  })
  it('an object of the host is truthy, even with no property of its own', () => {
    class Car {}
    expect(truthy(new Car())).toBe(true)
  })
})

describe('docs/Concepts/operators.md "Short-circuit operators"', () => {
  it('example 1 of &&: "Hello" && "World" is "World", False && 0 is False, 0 && False is False', () => {
    expect(and('Hello', () => 'World')).toBe('World')
    expect(and(false, () => 0)).toBe(false)
    expect(and(0, () => false)).toBe(false)
  })
  it('5 && !00-00-00! is 00/00/00; 5 && 10 && "hello" is "hello"', () => {
    expect(String(and(5, () => DateValue.NULL))).toBe('00/00/00')
    expect(
      and(
        and(5, () => 10),
        () => 'hello',
      ),
    ).toBe('hello')
  })
  it('example 2 of &&: $tax is Null when taxRate is Null, else the product', () => {
    const item = objectOf('price', 100, 'taxRate', null)
    expect(and(get(item, 'taxRate'), () => mul(get(item, 'price'), get(item, 'taxRate')))).toBe(
      null,
    )
    const taxed = objectOf('price', 100, 'taxRate', 0.2)
    expect(and(get(taxed, 'taxRate'), () => mul(get(taxed, 'price'), get(taxed, 'taxRate')))).toBe(
      20,
    )
  })
  it('example 3 of &&: ($myObject#Null) && ($myObject.value>10) reads nothing of Null', () => {
    const myObject = null
    let read = false
    expect(and(ne(myObject, null), () => ((read = true), get(myObject, 'value')))).toBe(false)
    expect(read).toBe(false)
  })
  it('examples of ||: $emp.phone || "n/a"; $person.maidenName || $person.name', () => {
    expect(or(get(objectOf('phone', null), 'phone'), () => 'n/a')).toBe('n/a')
    expect(or(get(objectOf('phone', '555'), 'phone'), () => 'n/a')).toBe('555')
    const person = objectOf('name', 'Smith')
    expect(or(get(person, 'maidenName'), () => get(person, 'name'))).toBe('Smith')
  })
  it('"Ternary operator": ($age>=21) ? "Beer" : "Juice" with 26 is "Beer"', () => {
    expect(truthy(26 >= 21) ? 'Beer' : 'Juice').toBe('Beer')
  })
  it('the full name example: (first && last) ? first+" "+last : (last || first) || ""', () => {
    const fullname = (p: Record<string, unknown>): unknown =>
      truthy(and(get(p, 'firstname'), () => get(p, 'lastname')))
        ? `${String(get(p, 'firstname'))} ${String(get(p, 'lastname'))}`
        : or(
            or(get(p, 'lastname'), () => get(p, 'firstname')),
            () => '',
          )
    expect(fullname(objectOf('firstname', 'Ada', 'lastname', 'Lovelace'))).toBe('Ada Lovelace')
    expect(fullname(objectOf('lastname', 'Lovelace'))).toBe('Lovelace')
    expect(fullname(newObject())).toBe('')
  })
})

describe('docs/Concepts/dt_boolean.md "Logical operators"', () => {
  it('("A"="A") & (15#3) True, ("A"="B") & (15#3) False, ("A"="B") & (15=3) False', () => {
    expect(band(eq('A', 'A'), ne(15, 3))).toBe(true)
    expect(band(eq('A', 'B'), ne(15, 3))).toBe(false)
    expect(band(eq('A', 'B'), eq(15, 3))).toBe(false)
  })
  it('("A"="A") | (15#3) True, ("A"="B") | (15#3) True, ("A"="B") | (15=3) False', () => {
    expect(bor(eq('A', 'A'), ne(15, 3))).toBe(true)
    expect(bor(eq('A', 'B'), ne(15, 3))).toBe(true)
    expect(bor(eq('A', 'B'), eq(15, 3))).toBe(false)
  })
  it('a Boolean with a number is an error', () => {
    expect(() => band(true, 1)).toThrow(FourDError)
  })
})

describe('docs/Concepts/dt_number.md "Bitwise operators" examples', () => {
  const hex = (n: unknown): string => ((n as number) >>> 0).toString(16).padStart(8, '0')
  it('0x0000FFFF & 0xFF00FF00 is 0x0000FF00; | is 0xFF00FFFF; ^| is 0xFF0000FF', () => {
    expect(hex(band(0x0000ffff, 0xff00ff00))).toBe('0000ff00')
    expect(hex(bor(0x0000ffff, 0xff00ff00))).toBe('ff00ffff')
    expect(hex(bxor(0x0000ffff, 0xff00ff00))).toBe('ff0000ff')
  })
  it('0x0000FFFF << 8 is 0x00FFFF00; >> 8 is 0x000000FF', () => {
    expect(hex(shl(0x0000ffff, 8))).toBe('00ffff00')
    expect(hex(shr(0x0000ffff, 8))).toBe('000000ff')
  })
  it('0 ?+ 16 is 0x00010000; 0x00010000 ?- 16 is 0; 0x00010000 ?? 16 is True', () => {
    expect(hex(bitSet(0, 16))).toBe('00010000')
    expect(bitClear(0x00010000, 16)).toBe(0)
    expect(bitTest(0x00010000, 16)).toBe(true)
  })
  it('shifting by 0 leaves the value, by more than 31 bits gives 0; >> brings in zeros', () => {
    expect(shl(5, 0)).toBe(5)
    expect(shl(5, 32)).toBe(0)
    expect(hex(shr(-1, 4))).toBe('0fffffff')
  })
  it('a Real is evaluated as a Long first', () => {
    expect(band(7.4, 3)).toBe(3)
  })
})

describe('conditions of If and Case of (docs/Concepts/dt_null_undefined.md)', () => {
  it('If($o.a) with $o.a undefined is False', () => {
    expect(cond(get(newObject(), 'a'))).toBe(false)
  })
  it('a Boolean is itself; a number or a text is an error', () => {
    expect(cond(true)).toBe(true)
    expect(() => cond(1)).toThrow(/A Boolean was expected, not Number/)
    expect(() => cond('yes')).toThrow(FourDError)
  })
})
