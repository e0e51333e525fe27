import { describe, expect, it } from 'vitest'
import { FourDError } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { newObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'
import {
  asBoolean,
  asCollection,
  asDate,
  asInteger,
  asObject,
  asReal,
  asText,
  asTime,
  assignTo,
  defaultValue,
} from './assign.js'

describe('docs/Concepts/data-types.md "Default values"', () => {
  it('0, "", False, !00-00-00!, ?00:00:00?, Null for objects and collections, Undefined for a Variant', () => {
    expect(defaultValue('Integer')).toBe(0)
    expect(defaultValue('Real')).toBe(0)
    expect(defaultValue('Text')).toBe('')
    expect(defaultValue('Boolean')).toBe(false)
    expect(defaultValue('Date')).toBe(DateValue.NULL)
    expect(defaultValue('Time')).toBe(TimeValue.ZERO)
    expect(defaultValue('Object')).toBe(null)
    expect(defaultValue('Collection')).toBe(null)
    expect(defaultValue('Variant')).toBe(undefined)
  })
})

describe('docs/Concepts/dt_null_undefined.md: Undefined assigned clears the variable', () => {
  it('to its type’s default', () => {
    for (const type of [
      'Integer',
      'Real',
      'Text',
      'Boolean',
      'Date',
      'Time',
      'Object',
      'Collection',
    ] as const)
      expect(assignTo(type, undefined)).toEqual(defaultValue(type))
  })
})

describe('assignment to a typed variable', () => {
  it('an Integer takes a number rounded to a long, a Real any number, both a Time’s seconds', () => {
    expect(asInteger(2.5)).toBe(2)
    expect(asInteger(2 ** 32 + 5)).toBe(5)
    expect(asReal(2.5)).toBe(2.5)
    expect(asInteger(TimeValue.of(60))).toBe(60)
    expect(asReal(TimeValue.of(60))).toBe(60)
  })
  it('operators.md: you cannot assign NULL to a Text variable', () => {
    expect(() => asText(null)).toThrow(FourDError)
    expect(() => asText(1)).toThrow(/Text := Number/)
  })
  it('a Time takes a number of seconds, a Date an ISO date text (as objects store them)', () => {
    expect(asTime(72000)).toEqual(TimeValue.hms(20, 0, 0))
    expect(asDate('2020-05-17')).toEqual(DateValue.of(2020, 5, 17))
    expect(() => asDate('not a date')).toThrow(FourDError)
  })
  it('an Object takes objects and Null, a Collection collections and Null', () => {
    const o = newObject()
    expect(asObject(o)).toBe(o)
    expect(asObject(null)).toBe(null)
    expect(() => asObject(new Collection())).toThrow(FourDError)
    expect(asCollection(Collection.of(1))).toBeInstanceOf(Collection)
    expect(() => asCollection(o)).toThrow(FourDError)
  })
  it('a Boolean takes Booleans only; a Variant anything', () => {
    expect(asBoolean(true)).toBe(true)
    expect(() => asBoolean(1)).toThrow(FourDError)
    expect(assignTo('Variant', 'x')).toBe('x')
  })
})
