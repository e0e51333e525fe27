import { afterEach, describe, expect, it } from 'vitest'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { newObject } from '../values/kinds.js'
import { setRealComparisonLevel } from '../values/numbers.js'
import { TimeValue } from '../values/time-value.js'
import { eq, ge, gt, le, lt, ne } from './compare.js'
import { objectOf } from './literals.js'

describe('docs/Concepts/dt_string.md "String operators" and "String comparisons"', () => {
  it('the table’s rows', () => {
    expect(eq('abc', 'abc')).toBe(true)
    expect(eq('abc', 'abd')).toBe(false)
    expect(ne('abc', 'abd')).toBe(true)
    expect(ne('abc', 'abc')).toBe(false)
    expect(gt('abd', 'abc')).toBe(true)
    expect(gt('abc', 'abc')).toBe(false)
    expect(lt('abc', 'abd')).toBe(true)
    expect(lt('abc', 'abc')).toBe(false)
    expect(ge('abd', 'abc')).toBe(true)
    expect(ge('abc', 'abd')).toBe(false)
    expect(le('abc', 'abd')).toBe(true)
    expect(le('abd', 'abc')).toBe(false)
  })

  it('case is ignored: "a"="A"', () => {
    expect(eq('a', 'A')).toBe(true)
  })

  it('diacritics are ignored: "n"="ñ", "n"="Ñ", "A"="å"', () => {
    expect(eq('n', 'ñ')).toBe(true)
    expect(eq('n', 'Ñ')).toBe(true)
    expect(eq('A', 'å')).toBe(true)
  })

  it('wildcard: "abcdefghij"="abc@" is True, "abc@"="abcdefghij" is False', () => {
    expect(eq('abcdefghij', 'abc@')).toBe(true)
    expect(eq('abc@', 'abcdefghij')).toBe(false)
  })

  it('the wildcard matches one or more characters or nothing', () => {
    for (const pattern of [
      'abcdefghij@',
      '@abcdefghij',
      'abcd@efghij',
      '@abcdefghij@',
      '@abcde@fghij@',
    ])
      expect(eq('abcdefghij', pattern)).toBe(true)
  })

  it('two consecutive wildcards are always False: "abcdefghij"="abc@@fg"', () => {
    expect(eq('abcdefghij', 'abc@@fg')).toBe(false)
    expect(ne('abcdefghij', 'abc@@fg')).toBe(true)
  })

  it('"abcd"<="abc@" is a valid comparison (a trailing wildcard)', () => {
    expect(le('abcd', 'abc@')).toBe(true)
    expect(ge('abcd', 'abc@')).toBe(true)
    expect(lt('abb', 'abc@')).toBe(true)
    expect(gt('abd', 'abc@')).toBe(true)
  })

  it('($vsValue[[Length($vsValue)]]="@") is always True for a one-character text', () => {
    expect(eq('x', '@')).toBe(true)
    expect(eq('@', '@')).toBe(true)
  })

  it('only `@` is a wildcard in the language: `*` is a character', () => {
    expect(eq('abc', 'a*')).toBe(false)
    expect(eq('a*', 'a*')).toBe(true)
  })
})

describe('docs/Concepts/dt_number.md and set-real-comparison-level.md: reals within epsilon', () => {
  afterEach(() => setRealComparisonLevel(1e-6))

  it('10=10 True, 10=11 False, 10#11 True, 11>10 True, 10>=11 False', () => {
    expect(eq(10, 10)).toBe(true)
    expect(eq(10, 11)).toBe(false)
    expect(ne(10, 11)).toBe(true)
    expect(gt(11, 10)).toBe(true)
    expect(ge(10, 11)).toBe(false)
    expect(le(10, 11)).toBe(true)
    expect(lt(11, 10)).toBe(false)
  })

  it('0.00001=0.00002 False, 0.000001=0.000002 True, 0.000001=0.000003 False', () => {
    expect(eq(0.00001, 0.00002)).toBe(false)
    expect(eq(0.000001, 0.000002)).toBe(true)
    expect(eq(0.000001, 0.000003)).toBe(false)
  })

  it('a pair equal within epsilon is neither < nor >, and is <= and >=', () => {
    expect(lt(0.000001, 0.000002)).toBe(false)
    expect(le(0.000002, 0.000001)).toBe(true)
    setRealComparisonLevel(0)
    expect(eq(0.000001, 0.000002)).toBe(false)
    expect(lt(0.000001, 0.000002)).toBe(true)
  })
})

describe('docs/Concepts/dt_date.md "Date operators"', () => {
  const d = DateValue.of
  it('the table’s rows', () => {
    expect(eq(d(2017, 1, 1), d(2017, 1, 1))).toBe(true)
    expect(eq(d(2017, 1, 20), d(2017, 1, 1))).toBe(false)
    expect(ne(d(2017, 1, 20), d(2017, 1, 1))).toBe(true)
    expect(ne(d(2017, 1, 20), d(2017, 1, 20))).toBe(false)
    expect(gt(d(2017, 1, 20), d(2017, 1, 1))).toBe(true)
    expect(gt(d(2017, 1, 20), d(2017, 1, 20))).toBe(false)
    expect(lt(d(2017, 1, 1), d(2017, 1, 20))).toBe(true)
    expect(lt(d(2017, 1, 20), d(2017, 1, 20))).toBe(false)
    expect(ge(d(2017, 1, 20), d(2017, 1, 1))).toBe(true)
    expect(ge(d(2017, 1, 1), d(2017, 1, 20))).toBe(false)
    expect(le(d(2017, 1, 1), d(2017, 1, 20))).toBe(true)
    expect(le(d(2017, 1, 20), d(2017, 1, 1))).toBe(false)
  })
})

describe('docs/Concepts/dt_time.md "Time operators"', () => {
  const t = TimeValue.hms
  it('the table’s rows', () => {
    expect(eq(t(1, 2, 3), t(1, 2, 3))).toBe(true)
    expect(eq(t(1, 2, 3), t(1, 2, 4))).toBe(false)
    expect(ne(t(1, 2, 3), t(1, 2, 4))).toBe(true)
    expect(gt(t(1, 2, 4), t(1, 2, 3))).toBe(true)
    expect(lt(t(1, 2, 3), t(1, 2, 4))).toBe(true)
    expect(ge(t(1, 2, 3), t(1, 2, 3))).toBe(true)
    expect(le(t(1, 2, 4), t(1, 2, 3))).toBe(false)
  })
  it('a time compares with a number of seconds', () => {
    expect(eq(t(1, 0, 0), 3600)).toBe(true)
    expect(lt(3599, t(1, 0, 0))).toBe(true)
  })
})

describe('docs/Concepts/dt_null_undefined.md "Null operators" and "Undefined operators"', () => {
  const o = objectOf('null', null)
  const nullProp = o.null
  const undefinedProp = o.undefined
  it('Null = Null, Null = Undefined are True; Null = 42 False; # the opposite', () => {
    expect(eq(nullProp, null)).toBe(true)
    expect(eq(nullProp, undefinedProp)).toBe(true)
    expect(eq(nullProp, 42)).toBe(false)
    expect(ne(nullProp, null)).toBe(false)
    expect(ne(nullProp, undefinedProp)).toBe(false)
    expect(ne(nullProp, 42)).toBe(true)
  })
  it('Null with > < >= <= is an error', () => {
    expect(() => gt(null, 1)).toThrow()
    expect(() => lt(1, null)).toThrow()
  })
  it('Undefined = Undefined True, Undefined = 42 False, Undefined # 42 True', () => {
    expect(eq(undefined, undefined)).toBe(true)
    expect(eq(undefinedProp, 42)).toBe(false)
    expect(ne(undefinedProp, 42)).toBe(true)
  })
  it('Undefined against a text, date, time or number: every ordering is False', () => {
    for (const other of ['abc', 42, DateValue.of(2020, 1, 1), TimeValue.of(5)])
      for (const op of [gt, lt, ge, le]) {
        expect(op(undefined, other)).toBe(false)
        expect(op(other, undefined)).toBe(false)
      }
  })
  it('the examples: ($vObj.undefined>"hello") False, ($vObj.undefined>$vVar) an error, ($vVar<42) False', () => {
    expect(gt(undefinedProp, 'hello')).toBe(false)
    expect(() => gt(undefinedProp, undefined)).toThrow()
    expect(() => gt(undefinedProp, nullProp)).toThrow()
    expect(lt(undefined, 42)).toBe(false)
  })
  it('Undefined ordered against a Boolean, an object or a collection is an error', () => {
    expect(() => gt(undefined, true)).toThrow()
    expect(() => lt(undefined, newObject())).toThrow()
    expect(() => le(undefined, new Collection())).toThrow()
  })
  it('$vEmp.name=Null False, $vEmp.children=Null True, $vEmp.parent=Null True', () => {
    const emp = objectOf('name', 'Smith', 'children', null)
    expect(eq(emp.name, null)).toBe(false)
    expect(eq(emp.children, null)).toBe(true)
    expect(eq(emp.parent, null)).toBe(true)
  })
})

describe('docs/Concepts/dt_object.md and dt_collection.md "operators": references', () => {
  it('$o1 = $o3 True, $o1 = $o2 False (same properties, another instance)', () => {
    const o1 = objectOf('a', 42)
    const o2 = objectOf('a', 42)
    const o3 = o1
    expect(eq(o1, o3)).toBe(true)
    expect(eq(o1, o2)).toBe(false)
    expect(ne(o1, o3)).toBe(false)
    expect(ne(o1, o2)).toBe(true)
  })
  it('$c1 = $c3 True, $c1 = $c2 False', () => {
    const c1 = Collection.of('a', 42)
    const c2 = Collection.of('a', 42)
    expect(eq(c1, c1)).toBe(true)
    expect(eq(c1, c2)).toBe(false)
    expect(ne(c1, c2)).toBe(true)
  })
  it('objects are not ordered, and do not compare with scalars', () => {
    expect(() => lt(newObject(), newObject())).toThrow()
    expect(() => eq(newObject(), 'a')).toThrow(expect.objectContaining({ errCode: 54 }))
  })
})

describe('docs/Concepts/dt_boolean.md', () => {
  it('myBoolean:=(myButton=1) compares numbers; booleans compare with = and # only', () => {
    expect(eq(1, 1)).toBe(true)
    expect(eq(true, true)).toBe(true)
    expect(ne(true, false)).toBe(true)
    expect(() => lt(false, true)).toThrow()
  })
  it('a Boolean and a number do not compare', () => {
    expect(() => eq(true, 1)).toThrow(expect.objectContaining({ errCode: 54 }))
  })
})
