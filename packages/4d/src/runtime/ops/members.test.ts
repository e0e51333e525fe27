import { describe, expect, it } from 'vitest'
import { asInteger } from '../convert/assign.js'
import { FourDError } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { GET_MEMBER, SET_MEMBER } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'
import { collectionOf, objectOf } from './literals.js'
import { get, set } from './members.js'

describe('docs/Concepts/dt_object.md "Properties"', () => {
  it('employee.name:="Smith", then employee["name"]', () => {
    const employee = newObject()
    set(employee, 'name', 'Smith')
    expect(get(employee, 'name')).toBe('Smith')
  })
  it('$Emp["city"]:="Berlin"; address1…address4 created through a computed name', () => {
    const emp = objectOf('city', 'London')
    set(emp, 'city', 'Berlin')
    for (let i = 1; i <= 4; i++) set(emp, `address${i}`, '')
    expect(Object.keys(emp)).toEqual(['city', 'address1', 'address2', 'address3', 'address4'])
  })
  it('"Assignment": $o2:=$o1 shares one object; $col.push shows through both', () => {
    const col = collectionOf(1, 2, 3)
    const o1 = objectOf('a', 2, 'b', col)
    const o2 = o1
    set(o1, 'a', 10)
    expect(get(o2, 'a')).toBe(10)
    col.items.push(4)
    expect((get(o2, 'b') as Collection).length).toBe(4)
  })
  it('property names are case sensitive', () => {
    const o = objectOf('Name', 'x')
    expect(get(o, 'name')).toBeUndefined()
  })
})

describe('docs/Concepts/dt_null_undefined.md "Undefined"', () => {
  it('$val:=$o.a with $o.a undefined clears the Integer variable to 0', () => {
    expect(asInteger(get(newObject(), 'a'))).toBe(0)
  })
  it('$o.a:=$o.b clears an existing number property to 0', () => {
    const o = objectOf('a', 2)
    set(o, 'a', get(o, 'b'))
    expect(get(o, 'a')).toBe(0)
  })
  it('Undefined clears each type: Null, False, "", 0, the null date; Null stays Null', () => {
    const o = objectOf(
      'o',
      newObject(),
      'c',
      new Collection(),
      'b',
      true,
      's',
      'x',
      'n',
      1,
      'd',
      DateValue.of(2020, 1, 1),
      'z',
      null,
    )
    for (const key of ['o', 'c', 'b', 's', 'n', 'd', 'z']) set(o, key, undefined)
    expect({ ...o }).toEqual({
      o: null,
      c: null,
      b: false,
      s: '',
      n: 0,
      d: DateValue.NULL,
      z: null,
    })
  })
  it('Undefined assigned to a property that does not exist does nothing', () => {
    const o = newObject()
    set(o, 'missing', undefined)
    expect(Object.keys(o)).toEqual([])
  })
  it('reading a property of an undefined value returns undefined', () => {
    expect(get(get(newObject(), 'a'), 'b')).toBeUndefined()
  })
  it("reading a property of Null is Undefined, as the pages' examples of `var $o : Object` read it", () => {
    expect(get(null, 'a')).toBeUndefined()
    expect(get(get(objectOf('a', null), 'a'), 'b')).toBeUndefined()
    expect(get(null, 'length')).toBe(0)
  })
  it('assigning a property of Null or Undefined is an error (objects must be instantiated)', () => {
    expect(() => set(null, 'a', 1)).toThrow(FourDError)
    expect(() => set(undefined, 'a', 1)).toThrow(FourDError)
  })
})

describe('docs/Concepts/dt_collection.md', () => {
  it('myCol[5]:="Z" on two elements leaves 2 to 4 null', () => {
    const myCol = collectionOf('A', 'B')
    set(myCol, 5, 'Z')
    expect(myCol.items).toEqual(['A', 'B', null, null, null, 'Z'])
  })
  it('elements are numbered from 0: myCol[10]:="My new element"; $myVar:=myCol[0]', () => {
    const myCol = collectionOf('first')
    set(myCol, 10, 'My new element')
    expect(get(myCol, 0)).toBe('first')
    expect(get(myCol, 10)).toBe('My new element')
  })
  it('"Undefined": the length of a collection variable never assigned is 0', () => {
    expect(get(null, 'length')).toBe(0)
    expect(get(undefined, 'length')).toBe(0)
  })
  it('$col2[0]:=10 shows through every reference', () => {
    const col1 = collectionOf(1, 2, 3)
    const o = objectOf('list', col1)
    set(get(o, 'list'), 0, 10)
    expect(col1.items[0]).toBe(10)
  })
  it('an element past the end reads Undefined; a negative index cannot be assigned', () => {
    const c = collectionOf(1)
    expect(get(c, 3)).toBeUndefined()
    expect(get(c, -1)).toBeUndefined()
    expect(() => set(c, -1, 0)).toThrow(FourDError)
  })
  it('"[] operator": an undefined element appears as Null', () => {
    expect(collectionOf(1, undefined).items).toEqual([1, null])
  })
})

describe('what a 4D object holds', () => {
  it('a Time is stored as its seconds', () => {
    const o = objectOf('t', TimeValue.hms(20, 0, 0))
    expect(get(o, 't')).toBe(72000)
    expect(collectionOf(TimeValue.of(5)).items).toEqual([5])
  })
  it('a Date is stored as a date', () => {
    expect(get(objectOf('d', DateValue.of(2020, 1, 2)), 'd')).toEqual(DateValue.of(2020, 1, 2))
  })
  it('reads never reach what JavaScript inherits, and __proto__ is a property like another', () => {
    const o = newObject()
    expect(get(o, 'constructor')).toBeUndefined()
    expect(get(o, '__proto__')).toBeUndefined()
    expect(get({ a: 1 }, 'toString')).toBeUndefined()
    set(o, '__proto__', 5)
    expect(get(o, '__proto__')).toBe(5)
    const plain: Record<string, unknown> = {}
    set(plain, '__proto__', { polluted: true })
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype)
    expect(get(plain, '__proto__')).toEqual({ polluted: true })
  })
  it('a scalar has no property', () => {
    expect(() => get('abc', 'length')).toThrow(/A Text value has no "length" property/)
    expect(() => get(DateValue.of(2020, 1, 1), 'year')).toThrow(FourDError)
    expect(() => get(TimeValue.of(5), 'seconds')).toThrow(FourDError)
  })
  it('a collection read by a name has its length only; an object of the host by a number its GET_INDEX', () => {
    const c = collectionOf(1, 2)
    expect(get(c, 'length')).toBe(2)
    expect(get(c, 'push')).toBeUndefined()
    expect(get(c, 'items')).toBeUndefined()
    expect(() => get({ [GET_MEMBER]: () => 1 }, 0)).toThrow(FourDError)
    expect(() => get(newObject(), 0)).toThrow(FourDError)
  })
  it('an object of the host answers through GET_MEMBER and SET_MEMBER', () => {
    const seen: unknown[] = []
    const host = {
      [GET_MEMBER]: (name: string) => (name === 'fullName' ? 'Ada Lovelace' : undefined),
      [SET_MEMBER]: (name: string, value: unknown) => seen.push(name, value),
    }
    expect(get(host, 'fullName')).toBe('Ada Lovelace')
    set(host, 'age', TimeValue.of(3))
    expect(seen).toEqual(['age', 3])
  })
})

describe('functions of the host', () => {
  it('show their members through GET_MEMBER only, never a JavaScript function’s own', () => {
    const formula = Object.assign(() => 1, {
      [GET_MEMBER]: (name: string) => (name === 'source' ? 'return 1' : undefined),
    })
    expect(get(formula, 'source')).toBe('return 1')
    expect(get(formula, 'name')).toBeUndefined()
    expect(get(() => 1, 'length')).toBeUndefined()
    expect(() => set(() => 1, 'a', 1)).toThrow(/cannot be assigned/)
  })
  it('an object of the host without SET_MEMBER refuses assignments', () => {
    const host = { [GET_MEMBER]: () => undefined }
    expect(() => set(host, 'a', 1)).toThrow(expect.objectContaining({ errCode: 9411 }))
  })
})
