import { describe, expect, it } from 'vitest'
import { FourDError } from '../errors/fourd-error.js'
import { collectionOf, objectOf } from '../ops/literals.js'
import { set } from '../ops/members.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { TO_JSON } from '../values/host.js'
import { TimeValue } from '../values/time-value.js'
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
