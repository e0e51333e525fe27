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

  test('outside a session, session() is Null', () => {
    expect(ordaBridge(store()).session()).toBeNull()
  })
})
