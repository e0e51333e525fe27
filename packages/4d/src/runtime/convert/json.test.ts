import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FourDError } from '../errors/fourd-error.js'
import { collectionOf, objectOf } from '../ops/literals.js'
import { set } from '../ops/members.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { TO_JSON } from '../values/host.js'
import { TimeValue } from '../values/time-value.js'
import { UNCOUNTED } from '../values/passes.js'
import { fromJSON, stringify } from './json.js'

describe('docs/commands-legacy/json-stringify.md', () => {
  it('example 1: "Eureka!", 120, ?20:00:00? as 72000 seconds', () => {
    expect(stringify('Eureka!')).toBe('"Eureka!"')
    expect(stringify(120)).toBe('120')
    expect(stringify(TimeValue.hms(20, 0, 0))).toBe('72000')
  })
  it('example 2: a text holding quotes', () => {
    expect(stringify('{"name":"john"}')).toBe('"{\\"name\\":\\"john\\"}"')
  })
  it('example 3: an object, and with * tabs and ": "', () => {
    const contact = objectOf('lastname', 'Monroe', 'firstname', 'Alan')
    set(contact, 'children', objectOf('firstname', 'John', 'age', '12'))
    expect(stringify(contact)).toBe(
      '{"lastname":"Monroe","firstname":"Alan","children":{"firstname":"John","age":"12"}}',
    )
    expect(stringify(contact, true)).toBe(
      '{\n\t"lastname": "Monroe",\n\t"firstname": "Alan",\n\t"children": {\n\t\t"firstname": "John",\n\t\t"age": "12"\n\t}\n}',
    )
  })
  it('example 6 with the date type setting: "birthday":"1975-10-22"', () => {
    const contact = objectOf('name', 'Smith', 'birthday', DateValue.of(1975, 10, 22))
    expect(stringify(contact)).toBe('{"name":"Smith","birthday":"1975-10-22"}')
  })
  it('example 7 with the date type setting: [33,"mike","2017-08-28",false]', () => {
    const myCol = collectionOf(33, 'mike', DateValue.of(2017, 8, 28), false)
    expect(stringify(myCol)).toBe('[33,"mike","2017-08-28",false]')
  })
})

describe('docs/Concepts/dt_object.md "Text streaming"', () => {
  it('circular references are not supported and return an error', () => {
    const o = objectOf('a', 1)
    set(o, 'self', o)
    expect(() => stringify(o)).toThrow(FourDError)
    const c = new Collection()
    c.items.push(c)
    expect(() => stringify(c)).toThrow(FourDError)
  })
  it('the same object twice (not inside itself) is written twice', () => {
    const shared = objectOf('x', 1)
    expect(stringify(collectionOf(shared, shared))).toBe('[{"x":1},{"x":1}]')
  })
  it('a class object loses its class; a native object writes what it answers', () => {
    class Car {
      brand = 'Renault'
    }
    expect(stringify(new Car())).toBe('{"brand":"Renault"}')
    const entity = { [TO_JSON]: () => '[object Entity]' }
    expect(stringify(objectOf('e', entity))).toBe('{"e":"[object Entity]"}')
  })
})

describe('what JSON cannot say', () => {
  it('Undefined alone gives ""; an undefined element null; the null date null; INF null', () => {
    expect(stringify(undefined)).toBe('')
    expect(stringify(new Collection([1, undefined]))).toBe('[1,null]')
    expect(stringify(objectOf('d', DateValue.NULL))).toBe('{"d":null}')
    expect(stringify(collectionOf(1 / 0))).toBe('[null]')
  })
  it('__proto__ is written as a property name', () => {
    const o = objectOf('__proto__', 1)
    expect(stringify(o)).toBe('{"__proto__":1}')
  })
})

describe('JSON values as 4D values', () => {
  it('arrays become collections and objects 4D objects', () => {
    const v = fromJSON(JSON.parse('{"a":[1,{"b":2}],"__proto__":3}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(v)).toBe(null)
    expect(v.a).toBeInstanceOf(Collection)
    expect(Object.getPrototypeOf((v.a as Collection).items[1])).toBe(null)
    expect(v.__proto__).toBe(3)
  })
})

describe('stringify a piece at a time', () => {
  // Large values are written a group of members at a time and long texts a piece at a time
  // (budget.ts): what is written is JSON.stringify's all the same. Small pieces here, so that
  // small values take every path.
  const pieces = (weight: number, text: number) => ({ weight, text })
  it('writes what JSON.stringify writes, plain and indented, in pieces of any size', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2, max: 12 }),
        (v, weight, text) => {
          const json = JSON.parse(JSON.stringify(v)) as unknown
          const value = fromJSON(json)
          const p = pieces(weight, text)
          expect(stringify(value, false, UNCOUNTED, p)).toBe(JSON.stringify(json))
          expect(stringify(value, true, UNCOUNTED, p)).toBe(JSON.stringify(json, null, '\t'))
        },
      ),
      { numRuns: 2000 },
    )
  })
  it('large objects in large arrays: groups of members, keys in their order, __proto__', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `t${i}` : i))
    const json = JSON.parse(
      JSON.stringify({ b: members(300), 2: members(10), a: { x: members(500) }, 1: 'one' }).replace(
        '{',
        '{"__proto__":[1,2],',
      ),
    ) as unknown
    const value = [json, members(900), [json, json], 'end']
    const v = fromJSON(value)
    for (const p of [pieces(16, 4), pieces(100, 3), pieces(1 << 16, 1 << 16)]) {
      expect(stringify(v, false, UNCOUNTED, p)).toBe(JSON.stringify(value))
      expect(stringify(v, true, UNCOUNTED, p)).toBe(JSON.stringify(value, null, '\t'))
    }
  })
  it('a long text, a surrogate pair across a piece and lone halves', () => {
    const text = `${'a"\\\n'.repeat(16_383)}é😀${'\ud800x'.repeat(40_000)}😀\udc00`
    const v = collectionOf(text, objectOf('t', text))
    for (const p of [pieces(4, 5), pieces(1 << 16, 1 << 16)]) {
      expect(stringify(text, false, UNCOUNTED, p)).toBe(JSON.stringify(text))
      expect(stringify(v, false, UNCOUNTED, p)).toBe(JSON.stringify([text, { t: text }]))
      expect(stringify(v, true, UNCOUNTED, p)).toBe(JSON.stringify([text, { t: text }], null, '\t'))
    }
  })
})
