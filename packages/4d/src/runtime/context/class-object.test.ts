/**
 * @module Class objects and their instances (classes.md), made by hand here (the compiler's tests
 * make them from 4D text): functions and computed properties found up the class chain, the
 * properties with a value set parent first and before the constructor, a class without a
 * constructor running its parent's, singletons by scope, computed properties read and written.
 */
import { describe, expect, test } from 'vitest'
import { get, set } from '../ops/members.js'
import { stringify } from '../convert/json.js'
import { Runtime } from '../index.js'
import { DateValue } from '../values/date-value.js'
import { FourDError } from '../errors/fourd-error.js'
import type { ClassDefinition } from './class-object.js'
import { ClassStore } from './class-store.js'
import { FourDFunction, type FunctionImpl } from './function-object.js'

const fn = (impl: FunctionImpl): FourDFunction => new FourDFunction('f', impl)

function definition(name: string, more: Partial<ClassDefinition> = {}): ClassDefinition {
  return {
    name,
    file: `Classes/${name}.4dm`,
    superclass: null,
    shared: false,
    singleton: false,
    sessionSingleton: false,
    constructorFunction: undefined,
    functions: new Map(),
    getters: new Map(),
    setters: new Map(),
    initializers: [],
    orda: [],
    ...more,
  }
}

const record = (v: unknown): Record<string, unknown> => v as Record<string, unknown>

describe('class objects', () => {
  const store = new ClassStore()
  const order: string[] = []
  store.define(
    definition('Base', {
      constructorFunction: fn((_rt, self, args) => {
        order.push('Base constructor')
        set(self, 'label', args[0])
      }),
      functions: new Map([['hello', fn((_rt, self) => `hello ${String(get(self, 'label'))}`)]]),
      initializers: [{ name: 'kind', value: fn(() => (order.push('Base kind'), 'base')) }],
    }),
  )
  store.define(
    definition('Child', {
      superclass: ['Base'],
      initializers: [{ name: 'extra', value: fn(() => (order.push('Child extra'), 1)) }],
    }),
  )
  const rt = new Runtime({ classes: store })

  test("an instance: own data, the chain's functions, the parent's constructor", () => {
    const child = rt.run(() => store.get('Child')!.construct(rt, ['x']))
    expect(order).toEqual(['Base kind', 'Child extra', 'Base constructor'])
    expect(stringify(child)).toBe('{"kind":"base","extra":1,"label":"x"}')
    expect(rt.run(() => rt.call(child, 'hello', []))).toBe('hello x')
    expect(get(child, 'constructor')).toBeUndefined()
    expect(store.get('Base')!.isInstance(child)).toBe(true)
    expect(store.get('Child')!.isInstance({})).toBe(false)
  })

  test('the class as 4D sees it', () => {
    const child = store.get('Child')!
    expect([get(child, 'name'), get(get(child, 'superclass'), 'name')]).toEqual(['Child', 'Base'])
    expect(get(store.get('Base'), 'superclass')).toBeNull()
    expect(get(store, 'Nope')).toBeUndefined()
  })

  test('a parent the store does not hold goes to the hook, else none', () => {
    const hooked = new ClassStore({
      builtinSuperclass: (path) => (path.join('.') === 'DataClass' ? store.get('Base')! : null),
    })
    hooked.define(definition('Employees', { superclass: ['DataClass'] }))
    hooked.define(definition('Other', { superclass: ['4D', 'Object'] }))
    expect(hooked.get('Employees')!.superclass).toBe(store.get('Base'))
    expect(hooked.get('Other')!.superclass).toBeNull()
  })

  test('a chain that loops ends at the first class met again', () => {
    const looping = new ClassStore()
    looping.define(definition('A', { superclass: ['B'] }))
    looping.define(
      definition('B', { superclass: ['A'], functions: new Map([['f', fn(() => 'B.f')]]) }),
    )
    const a = looping.get('A')!
    expect([...a.chain()].map((c) => c.name)).toEqual(['A', 'B'])
    expect(a.findFunction('f')?.invoke(rt, undefined, [])).toBe('B.f')
    expect(a.findFunction('none')).toBeUndefined()
  })
})

describe('computed properties', () => {
  const store = new ClassStore()
  store.define(
    definition('Person', {
      getters: new Map([
        ['born', fn((_rt, self) => get(self, '_born'))],
        ['readOnly', fn(() => 1)],
      ]),
      setters: new Map([['born', fn((_rt, self, args) => set(self, '_born', args[0]))]]),
    }),
  )
  const rt = new Runtime({ classes: store })

  test('read through the getter, written through the setter', () => {
    rt.run(() => {
      const p = store.get('Person')!.construct(rt, [])
      set(p, 'born', DateValue.of(2000, 1, 2))
      expect(String(get(p, 'born'))).toBe('01/02/2000')
      // Undefined clears it by the type the getter gives (classes.md): the null date.
      set(p, 'born', undefined)
      expect(get(p, 'born')).toBe(DateValue.NULL)
      expect(() => set(p, 'readOnly', 2)).toThrow(FourDError)
    })
  })

  test('outside a run there is no context to run the getter in', () => {
    const p = rt.run(() => store.get('Person')!.construct(rt, []))
    expect(() => get(p, 'readOnly')).toThrow(/Runtime.run/)
  })
})

describe('singletons', () => {
  const store = new ClassStore()
  let made = 0
  const ctor = fn(() => void made++)
  store.define(definition('PerProcess', { singleton: true, constructorFunction: ctor }))
  store.define(definition('Shared', { singleton: true, shared: true, constructorFunction: ctor }))
  store.define(definition('PerSession', { sessionSingleton: true, constructorFunction: ctor }))

  test('one instance a process, one for all, one a session', () => {
    const session = {}
    const a = new Runtime({ classes: store, session })
    const b = new Runtime({ classes: store, session })
    const c = new Runtime({ classes: store, session: {} })
    const me = (rt: Runtime, name: string): unknown => rt.run(() => get(store.get(name), 'me'))
    expect(me(a, 'PerProcess')).toBe(me(a, 'PerProcess'))
    expect(me(a, 'PerProcess')).not.toBe(me(b, 'PerProcess'))
    expect(me(a, 'Shared')).toBe(me(c, 'Shared'))
    expect(me(a, 'PerSession')).toBe(me(b, 'PerSession'))
    expect(me(a, 'PerSession')).not.toBe(me(c, 'PerSession'))
    expect(made).toBe(5)
  })
})
