/**
 * @module A member function called at one site of the generated code (runtime/ops/call-sites.ts),
 * which keeps where the last handle's function was: one site over entities of two dataclasses, a
 * selection, a plain object and a collection calls each one's own; a class defined between two
 * calls of the same compiled code is the one the next call finds; a name the kind itself owns (an
 * attribute, a selection's property) or a computed property is not kept; the walk runs once for a
 * loop's passes, in code run plain and as steps.
 */
import { createDatastore, type Datastore } from '@entistore/core'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { compileClass } from '../../compile/compile-class.js'
import { compileMethod } from '../../compile/compile-method.js'
import { ClassObject } from '../../runtime/context/class-object.js'
import { ClassStore } from '../../runtime/context/class-store.js'
import { Runtime } from '../../runtime/index.js'
import { Session } from '../../compile/session.js'
import { ordaBridge } from '../bridge.js'

const shops = () =>
  createDatastore(
    {
      __NAME: 'calls',
      dataClasses: [
        {
          name: 'Shop',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'name', type: 'string' },
          ],
        },
        { name: 'Item', attributes: [{ name: 'ID', type: 'long' }] },
      ],
    },
    {
      data: {
        Shop: [
          { ID: 1, name: 'a' },
          { ID: 2, name: 'b' },
        ],
        Item: [{ ID: 1 }],
      },
    },
  ) as unknown as Datastore

/** The project of `ds`: its class store, `define(name, text)` and `run(code)` (plain or as steps). */
function project(ds: Datastore) {
  const bridge = ordaBridge(ds)
  const classes = new ClassStore({
    builtinSuperclass: (path) => bridge.builtinSuperclass(path) as ClassObject | null,
  })
  const define = (name: string, text: string): void => {
    const file = `Project/Sources/Classes/${name}.4dm`
    compileClass(text, classes, { file, name, session: new Session(file) })
  }
  const compiled = (code: string) => {
    const method = compileMethod(code)
    expect(method.problems.filter((p) => p.severity === 'error')).toEqual([])
    return (steps = false): unknown => {
      const rt = new Runtime({ ds: bridge.ds, classes, builtinClasses: bridge.fourD })
      if (!steps) return method.call(rt, [])
      return rt.run(() => {
        const g = method.fn.steps(rt, undefined, [])!
        for (;;) {
          const r = g.next()
          if (r.done === true) return r.value
        }
      })
    }
  }
  return { define, compiled }
}

const items = (v: unknown): unknown[] => (v as { items: unknown[] }).items

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a member function called at one site', () => {
  test.each([false, true])(
    'entities of two dataclasses, a selection, an object and a collection, alternately (steps: %s)',
    (steps) => {
      const { define, compiled } = project(shops())
      define(
        'ShopEntity',
        'Class extends Entity\nFunction describe() : Text\n  return "shop "+This.name',
      )
      define(
        'ItemEntity',
        'Class extends Entity\nFunction describe() : Text\n  return "item "+String(This.ID)',
      )
      define(
        'ShopSelection',
        'Class extends EntitySelection\nFunction describe() : Text\n  return "shops "+String(This.length)',
      )
      const run = compiled(`
var $o : Variant
var $r : Collection:=[]
For each ($o; [ds.Shop.get(1); ds.Item.get(1); ds.Shop.all(); {describe: Formula("plain")}; ds.Shop.get(2); ds.Item.get(1)])
  $r.push($o.describe())
End for each
$r.push([3; 1; 2].join(","))
return $r`)
      expect(items(run(steps))).toEqual([
        'shop a',
        'item 1',
        'shops 2',
        'plain',
        'shop b',
        'item 1',
        '3,1,2',
      ])
    },
  )

  test.each([false, true])(
    'a class defined between two calls of the same code: the second finds it (steps: %s)',
    (steps) => {
      const { define, compiled } = project(shops())
      define('ShopEntity', 'Class extends Entity\nFunction describe() : Text\n  return "first"')
      const run = compiled(`
var $r : Collection:=[]
For each ($e; ds.Shop.all().orderBy("ID"))
  $r.push($e.describe())
End for each
return $r`)
      expect(items(run(steps))).toEqual(['first', 'first'])
      define('ShopEntity', 'Class extends Entity\nFunction describe() : Text\n  return "second"')
      expect(items(run(steps))).toEqual(['second', 'second'])
    },
  )

  test('a computed property named as a function, and a name the kind owns, are not kept', () => {
    const { define, compiled } = project(shops())
    define(
      'ShopEntity',
      'Class extends Entity\nFunction get describe() : Object\n  return Formula("computed "+This.name)',
    )
    const run = compiled(`
var $r : Collection:=[]
var $s : Object:=ds.Shop.all().orderBy("ID")
For each ($e; $s)
  $r.push($e.describe.call($e))
End for each
Try
  $s.length()
Catch
  $r.push(Last errors.last().message)
End try
Try
  $s.first().name()
Catch
  $r.push(Last errors.last().message)
End try
return $r`)
    const r = items(run())
    expect(r.slice(0, 2)).toEqual(['computed a', 'computed b'])
    expect(r).toHaveLength(4)
  })

  test.each([false, true])(
    'a loop calls an entity’s class function: the class walked once, not at each pass (steps: %s)',
    (steps) => {
      const { define, compiled } = project(shops())
      define('ShopEntity', 'Class extends Entity\nFunction describe() : Text\n  return This.name')
      const run = compiled(`
var $r : Collection:=[]
var $i : Integer
For ($i; 1; 5)
  For each ($e; ds.Shop.all().orderBy("ID"))
    $r.push($e.describe())
  End for each
End for
return $r`)
      const walks = vi.spyOn(ClassObject.prototype, 'findFunction')
      expect(items(run(steps))).toHaveLength(10)
      // `orderBy` and `all` and `describe`: once each, at the first pass (push is a collection's).
      expect(walks.mock.calls.map((c) => c[0]).filter((n) => n === 'describe')).toEqual([
        'describe',
      ])
    },
  )
})
