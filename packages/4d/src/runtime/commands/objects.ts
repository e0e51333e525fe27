/**
 * @module The Objects (Language) and Collections themes (docs/commands/theme/Objects_Language.md,
 * Collections.md): `New object`, `New shared object`, `New collection`, `New shared collection`,
 * `OB Keys`, `OB Values`, `OB Entries`, `OB Copy`, `OB Class`, `OB Instance of`, `OB Is defined`,
 * `OB Is empty`, `OB Is shared`, `OB Get`, `OB Get type`, `OB SET`, `OB SET NULL`, `OB REMOVE`.
 * Built on the literals' rules (ops/literals.ts), so `New object("a";1)` and `{a: 1}` make the same
 * object.
 *
 * An object's properties are its own data: a plain object's, a class instance's (not its
 * computed properties), or what an object of the host writes as JSON (an entity's attributes).
 * `OB SET` and the others write through object notation (ops/members.ts). `OB SET` and
 * `OB SET NULL` on a variable that holds no object create the object in it (the compiler passes
 * the variable, arguments/out-parameter.ts); on an expression, and `OB REMOVE`, it is an error. `Storage`
 * is the running context's shared object (one a datastore, runtime.ts). `OB GET PROPERTY NAMES`
 * fills a Text array with the names of the properties `OB Keys` gives and, optionally, a Longint
 * array with their `Value type`s (a collection is Is collection, as the page notes for array
 * attributes); `OB GET ARRAY` and `OB SET ARRAY` do not run here.
 */
import { noteSharedRead } from '@entistore/core'
import { raise } from '../errors/fourd-error.js'
import { collectionOf, objectOf } from '../ops/literals.js'
import { get, set } from '../ops/members.js'
import { classOf, classOfValue, ClassObject } from '../context/class-object.js'
import { DONE, runAll, type Resumable } from '../values/resumable.js'
import { copySteps, deepCopy } from '../context/deep-copy.js'
import { isShared, markShared } from '../values/shared.js'
import { Collection } from '../values/collection.js'
import { isJsonHost, TO_JSON } from '../values/host.js'
import { isPlainObject, newObject as newPlainObject, typeName } from '../values/kinds.js'
import { isStar, objectArg, optionalInteger, textArg, wrongType } from '../arguments/arguments.js'
import { convertTo } from './json.js'
import { isOutParameter, outArg, type OutParameter } from '../arguments/out-parameter.js'
import { FourDArray, type ArrayType } from '../arrays/four-d-array.js'
import { valueType } from './language.js'
import { byWork } from './plain-forms.js'
import type { CommandSpec } from './table.js'

const SHARED = 2

/** `New object(name; value…)`: the names must be texts. */
function newObject(command: string, pairs: readonly unknown[]): Record<string, unknown> {
  for (let i = 0; i < pairs.length; i += 2)
    if (typeof pairs[i] !== 'string') wrongType(command, 'property', 'Text', pairs[i])
  return objectOf(...pairs)
}

/** The data of an object: its own properties, or an object of the host's JSON form. */
export function ownData(v: object): Record<string, unknown> {
  if (isPlainObject(v) || classOf(v) !== undefined) return v as Record<string, unknown>
  if (isJsonHost(v)) {
    const json = v[TO_JSON]()
    if (isPlainObject(json)) return json
  }
  return {}
}

/** The object parameter of an `OB` command; Undefined and Null are "no object". */
const maybeObject = (command: string, v: unknown): object | undefined =>
  v === undefined || v === null ? undefined : objectArg(command, 'object', v)

/**
 * `made(key, value)` of each property of an object (none for Undefined or Null), in the array
 * given back once the work is done: each property a pass of the budget's (context/budget.ts),
 * where the work gives way (values/resumable.ts). `Object.keys` is one native call.
 */
function entries<T>(
  command: string,
  v: unknown,
  made: (key: string, value: unknown) => T,
): [T[], Resumable] {
  const out: T[] = []
  const o = maybeObject(command, v)
  if (o === undefined) return [out, DONE]
  const data = ownData(o)
  const keys = Object.keys(data)
  const work: Resumable = (rt) => {
    for (let i = out.length; i < keys.length; i++) {
      if (--rt.ticks < 0) return false
      out.push(made(keys[i]!, data[keys[i]!]))
    }
    return true
  }
  return [out, work]
}

/** A command that gives a collection of what `made` makes of each property. */
const ofProperties = (command: string, made: (key: string, value: unknown) => unknown) =>
  byWork((_rt, v) => {
    const [out, work] = entries(command, v, made)
    return { work, done: () => new Collection(out) }
  })

/** `OB Copy`'s `shared`: whether the option asks `ck shared`. */
function copyShared(v: unknown, option: unknown): boolean {
  objectArg('OB Copy', 'object', v)
  // `OB Copy(object; *)` resolves pointers (there are none here); an option may ask `ck shared`.
  return !isStar(option) && (optionalInteger('OB Copy', 'option', option, 0) & SHARED) !== 0
}

const pair = (k: string, x: unknown): [string, unknown] => [k, x]

/**
 * The object `OB SET` writes: the one given, or, for a variable the compiler passes as an
 * OutParameter that holds none, a new object put in it (ob-is-defined.md's example 1).
 */
function written(command: string, v: unknown): object {
  if (isOutParameter(v)) {
    const held = v.get()
    if (held !== undefined && held !== null) return objectArg(command, 'object', held)
    const made = newPlainObject()
    v.set(made)
    return made
  }
  if (v === undefined || v === null)
    return raise('AssignToNothing', { property: command, value: typeName(v) })
  return objectArg(command, 'object', v)
}

/**
 * The array of `type` in the variable, made to hold one element a property
 * (ob-get-property-names.md: "If the array does not exist, the command creates and sizes it
 * automatically"): the one it holds, or a new one when it holds none of that type.
 */
function filled(
  out: OutParameter,
  type: ArrayType,
  found: [string, unknown][],
  element: (entry: [string, unknown]) => unknown,
): void {
  const held = out.get()
  const array =
    held instanceof FourDArray && held.type === type && held.columns === undefined
      ? held
      : new FourDArray(type, undefined, 0)
  array.resize(0)
  for (const entry of found) array.items.push(array.convert(element(entry)))
  if (array !== held) out.set(array)
}

export const OBJECT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1471,
    name: 'New object',
    signature: '(...propertiesAndValues: any): Object',
    impl: (_rt, ...pairs) => newObject('New object', pairs),
  },
  {
    number: 1526,
    name: 'New shared object',
    signature: '(...propertiesAndValues: any): Object',
    impl: (_rt, ...pairs) => markShared(newObject('New shared object', pairs)),
  },
  {
    number: 1472,
    name: 'New collection',
    signature: '(...values: any): Collection',
    impl: (_rt, ...items) => collectionOf(...items),
  },
  {
    number: 1527,
    name: 'New shared collection',
    signature: '(...values: any): Collection',
    impl: (_rt, ...items) => markShared(collectionOf(...items)),
  },
  {
    number: 1719,
    name: 'OB Keys',
    signature: '(object: Object): Collection',
    ...ofProperties('OB Keys', (k) => k),
  },
  {
    number: 1718,
    name: 'OB Values',
    signature: '(object: Object): Collection',
    ...ofProperties('OB Values', (_, x) => x),
  },
  {
    number: 1720,
    name: 'OB Entries',
    signature: '(object: Object): Collection',
    ...ofProperties('OB Entries', (k, x) => objectOf('key', k, 'value', x)),
  },
  {
    number: 1225,
    name: 'OB Copy',
    signature: '(object: Object; option?: any; groupWith?: any): Object',
    impl: (rt, v, option) =>
      v === undefined || v === null ? null : deepCopy(v, copyShared(v, option), rt),
    steps: function* (rt, v, option) {
      if (v === undefined || v === null) return null
      return yield* copySteps(v, copyShared(v, option), rt)
    },
  },
  {
    number: 1730,
    name: 'OB Class',
    signature: '(object: Object): Object',
    impl: (_rt, v) => (v === null || v === undefined ? null : (classOfValue(v) ?? null)),
  },
  {
    number: 1731,
    name: 'OB Instance of',
    signature: '(object: any; class: Object): Boolean',
    impl: (_rt, v, cls) => {
      if (cls instanceof ClassObject) return cls.isInstance(v)
      // A built-in class of the host (`4D.Entity`…) answers with its own `isInstance`.
      const check = (cls as { isInstance?: unknown } | null)?.isInstance
      if (typeof check === 'function')
        return (check as (x: unknown) => unknown).call(cls, v) === true
      return raise('NotAClass')
    },
  },
  {
    number: 1231,
    name: 'OB Is defined',
    signature: '(object: Object; property?: Text): Boolean',
    impl: (_rt, v, property) => {
      const o = maybeObject('OB Is defined', v)
      if (o === undefined) return false
      if (property === undefined) return true
      return get(o, textArg('OB Is defined', 'property', property)) !== undefined
    },
  },
  {
    number: 1297,
    name: 'OB Is empty',
    signature: '(object: Object): Boolean',
    impl: (rt, v) => {
      const [found, work] = entries('OB Is empty', v, pair)
      runAll(work, rt)
      return found.length === 0
    },
  },
  {
    number: 1759,
    name: 'OB Is shared',
    signature: '(toCheck: any): Boolean',
    impl: (_rt, v) => isShared(v),
  },
  {
    number: 1224,
    name: 'OB Get',
    signature: '(object: Object; property: Text; type?: Integer): any',
    impl: (_rt, v, property, type) => {
      const o = maybeObject('OB Get', v)
      const value = o === undefined ? undefined : get(o, textArg('OB Get', 'property', property))
      return type === undefined ? value : convertTo('OB Get', value, type)
    },
  },
  {
    number: 1230,
    name: 'OB Get type',
    signature: '(object: Object; property: Text): Integer',
    impl: (_rt, v, property) => {
      const o = maybeObject('OB Get type', v)
      return valueType(
        o === undefined ? undefined : get(o, textArg('OB Get type', 'property', property)),
      )
    },
  },
  {
    number: 1220,
    name: 'OB SET',
    signature: '(object: Object; ...propertiesAndValues: any)',
    writes: [0],
    impl: (_rt, v, ...pairs) => {
      const o = written('OB SET', v)
      for (let i = 0; i + 1 < pairs.length; i += 2)
        set(o, textArg('OB SET', 'property', pairs[i]), pairs[i + 1])
    },
  },
  {
    number: 1233,
    name: 'OB SET NULL',
    signature: '(object: Object; property: Text)',
    writes: [0],
    impl: (_rt, v, property) =>
      set(written('OB SET NULL', v), textArg('OB SET NULL', 'property', property), null),
  },
  {
    number: 1226,
    name: 'OB REMOVE',
    signature: '(object: Object; property: Text)',
    impl: (_rt, v, property) => {
      const o = written('OB REMOVE', v)
      const key = textArg('OB REMOVE', 'property', property)
      if (isPlainObject(o) || classOf(o) !== undefined) delete (o as Record<string, unknown>)[key]
    },
  },
  {
    number: 1525,
    name: 'Storage',
    signature: '(): Object',
    // Shared state, written inside `Use` (context/outside-state.ts).
    impl: (rt) => {
      noteSharedRead()
      return rt.storage
    },
  },
  {
    number: 1232,
    name: 'OB GET PROPERTY NAMES',
    signature: '(object: Object; arrProperties: any; arrTypes?: any)',
    writes: [1, 2],
    // The arrays are filled at the last step: a call the budget ends leaves them as they were.
    ...byWork((_rt, v, names, types) => {
      const [found, work] = entries('OB GET PROPERTY NAMES', v, pair)
      const done = (): void => {
        filled(outArg('OB GET PROPERTY NAMES', 'arrProperties', names), 'Text', found, ([k]) => k)
        if (types !== undefined)
          filled(outArg('OB GET PROPERTY NAMES', 'arrTypes', types), 'Longint', found, ([, x]) =>
            valueType(x),
          )
      }
      return { work, done }
    }),
  },
  { number: 1229, name: 'OB GET ARRAY', notRunnable: 'arrays' },
  { number: 1227, name: 'OB SET ARRAY', notRunnable: 'arrays' },
]
