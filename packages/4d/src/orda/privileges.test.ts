/**
 * @module 4D code under a session's privileges (issue 61's one enforcement point): what core
 * refuses the session is refused to its 4D code, as a 4D error it may catch, never a crash and
 * never a side door; `Session` is the session of core with 4D's members (docs/API/SessionClass.md).
 */
import type { Datastore, Session } from '@entistore/core'
import { describe, expect, test } from 'vitest'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { ordaBridge } from './bridge.js'
import { runFor, store, type RunOptions } from './orda.fixture.js'

/** Runs 4D code as `session`'s, `Session` given as its first parameter. */
function asSession(ds: Datastore, session: Session, code: string, options: RunOptions = {}) {
  return ds.actAs(session, () =>
    runFor(ds, code, { ...options, args: [ordaBridge(ds).session(), ...(options.args ?? [])] }),
  )
}

describe('privileges', () => {
  test('an attribute the session may not read: 1607, caught by Try; others read', () => {
    const ds = store()
    const guest = ds.sessions.openGuest()
    const code = `
#DECLARE($session : Object) -> $result : Collection
var $e : Object:=ds.Employee.get(1)
$result:=[$e.lastName]
Try
  $result.push($e.salary)
Catch
  $result.push(Last errors[0].errCode)
End try`
    expect(asSession(ds, guest, code)).toEqual(['Lovelace', 1607])
  })

  test('refused without Try: a 4D error with core’s code, placed at its line', () => {
    const ds = store()
    const guest = ds.sessions.openGuest()
    const code = `#DECLARE($session : Object)\nreturn ds.Employee.all().sum("salary")`
    let error: unknown
    try {
      asSession(ds, guest, code)
    } catch (e) {
      error = e
    }
    expect(FourDError.is(error)).toBe(true)
    expect(error).toMatchObject({ errCode: 1607, line: 2 })
  })

  test('Session.setPrivileges gives what core checks next; hasPrivilege, isGuest, userName', () => {
    const ds = store()
    const guest = ds.sessions.openGuest()
    const code = `
#DECLARE($session : Object) -> $result : Collection
$result:=[$session.hasPrivilege("payroll"); $session.isGuest()]
$result.push($session.setPrivileges({privileges: "payroll"; userName: "ada"}))
$result.push($session.hasPrivilege("payroll"); $session.userName; $session.getPrivileges())
$result.push(ds.Employee.all().sum("salary"))`
    expect(asSession(ds, guest, code)).toEqual([false, true, true, true, 'ada', ['payroll'], 18000])
  })

  test('Session.storage: written by assignment, read back by the next request', () => {
    const ds = store()
    const session = ds.sessions.openGuest()
    asSession(
      ds,
      session,
      '#DECLARE($s : Object)\n$s.storage.cart:={items: 2}\n$s.storage.cart.step:="pay"',
    )
    const code = '#DECLARE($s : Object)\nreturn [$s.storage.cart.items; $s.storage.cart.step]'
    expect(asSession(ds, session, code)).toEqual([2, 'pay'])
  })

  test('Session.storage keeps an entity and a selection (as references), read back as ORDA objects', () => {
    const ds = store()
    const session = ds.sessions.openGuest()
    asSession(
      ds,
      session,
      `#DECLARE($s : Object)
$s.storage.mine:=ds.Employee.query("lastName # :1"; "Turing").orderBy("lastName desc").copy(ck shared)
$s.storage.me:=ds.Employee.get(2)
$s.storage.both:=New shared collection(ds.Employee.get(1); 7)`,
    )
    // What core holds is JSON, as every process of the session reads it.
    expect(JSON.parse(JSON.stringify(session.data.get('entistore.storage')))).toEqual({
      mine: { $entitySelection: 'Employee', keys: [1, 3] },
      me: { $entity: 'Employee', key: 2 },
      both: [{ $entity: 'Employee', key: 1 }, 7],
    })
    ds.dataClass('Employee').get(3)!.drop()
    const code = `#DECLARE($s : Object)
var $mine : cs.EmployeeSelection:=$s.storage.mine
return [$mine.length; $mine.first().lastName; $mine.isAlterable(); $s.storage.me.lastName; $s.storage.both[0].lastName; $s.storage.both[1]; OB Instance of($mine; 4D.EntitySelection)]`
    // The entity dropped since is not there; the order is the one stored.
    expect(asSession(ds, session, code)).toEqual([
      1,
      'Lovelace',
      false,
      'Turing',
      'Lovelace',
      7,
      true,
    ])
  })

  test('outside a session, session() is Null', () => {
    expect(ordaBridge(store()).session()).toBeNull()
  })
})
