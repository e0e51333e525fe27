/**
 * @module An entity's attributes read at a site of the generated code (runtime/ops/member-sites.ts),
 * which keeps the reader of the last dataclass it saw: one place of the code that sees entities of
 * two dataclasses, a plain object, a collection and Null reads each as `get` would; the session's
 * permission is asked at each read (one compiled method called as two sessions); an attribute
 * the class's `Function get` computes runs it.
 */
import { createDatastore, currentSession, type Datastore, type Session } from '@entistore/core'
import { describe, expect, test } from 'vitest'
import { compileMethod } from '../../compile/compile-method.js'
import { Runtime } from '../../runtime/context/runtime.js'
import { FourDError } from '../../runtime/errors/fourd-error.js'
import { DateValue } from '../../runtime/values/date-value.js'
import { ordaBridge } from '../bridge.js'
import { runOn, store } from '../orda.fixture.js'

// `code` is a Date of a Shop, a Text of an Item: a reader of the one read from the other would
// answer the wrong type. `label` is the Shop class's `Function get`.
const shops = () =>
  createDatastore(
    {
      __NAME: 'sites',
      dataClasses: [
        {
          name: 'Shop',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'code', type: 'date' },
            { name: 'label', kind: 'calculated', type: 'string' },
          ],
        },
        {
          name: 'Item',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'code', type: 'string' },
          ],
        },
      ],
    },
    {
      data: {
        Shop: [
          { ID: 1, code: '2020-01-02' },
          { ID: 2, code: '2021-03-04' },
        ],
        Item: [{ ID: 1, code: '2020-01-02' }],
      },
    },
  ) as unknown as Datastore

describe('a member read at one site', () => {
  test('two dataclasses, a plain object, a collection and Null, alternately: each read right', () => {
    const code = `
var $o : Variant
var $r : Collection:=[]
For each ($o; [ds.Shop.get(1); ds.Item.get(1); {code: "plain"}; [1; 2]; ds.Shop.get(2); Null; ds.Item.get(1); ds.Shop.get(1)])
  $r.push($o.code)
End for each
return $r`
    const r = runOn(shops(), code) as { items: unknown[] }
    const shown = r.items.map((v) => (v instanceof DateValue ? `date ${v.toISO()}` : v))
    expect(shown).toEqual([
      'date 2020-01-02',
      '2020-01-02',
      'plain',
      null,
      'date 2021-03-04',
      null,
      '2020-01-02',
      'date 2020-01-02',
    ])
  })

  test('the class’s Function get of a computed attribute runs at a site, for each entity', () => {
    const classes = {
      ShopEntity: `Class extends Entity\nFunction get label() : Text\n  return "shop "+String(This.ID)`,
    }
    const code = `
var $s : Object
var $r : Collection:=[]
For each ($s; ds.Shop.all().orderBy("ID"))
  $r.push($s.code=Null; $s.label)
End for each
return $r`
    expect(runOn(shops(), code, { classes })).toMatchObject({
      items: [false, 'shop 1', false, 'shop 2'],
    })
  })

  test('one compiled method as two sessions: the permission is asked at each read', () => {
    const ds = store()
    const bridge = ordaBridge(ds)
    const method = compileMethod(
      '#DECLARE() -> $r : Collection\n$r:=[]\nFor each ($e; ds.Employee.all().orderBy("ID"))\n  $r.push($e.salary)\nEnd for each',
    )
    const run = (session: Session) =>
      ds.actAs(session, () => method.call(new Runtime({ ds: bridge.ds }), []))
    const payroll = ds.sessions.openGuest()
    ds.actAs(payroll, () => currentSession()!.setPrivileges({ privileges: 'payroll' }))
    const guest = ds.sessions.openGuest()
    const refusal = (session: Session): unknown => {
      try {
        run(session)
      } catch (e) {
        return e
      }
      return undefined
    }
    const employee = ds.dataClass('Employee').get(1)!
    const byGet = (() => {
      try {
        ds.actAs(guest, () => employee.get('salary'))
      } catch (e) {
        return e
      }
    })() as { errCode: number; message: string }
    expect(run(payroll)).toMatchObject({ items: [5000, 6000, 7000] })
    const refused = refusal(guest)
    expect(FourDError.is(refused)).toBe(true)
    expect(refused).toMatchObject({ errCode: byGet.errCode, message: byGet.message })
    expect(run(payroll)).toMatchObject({ items: [5000, 6000, 7000] })
  })
})
