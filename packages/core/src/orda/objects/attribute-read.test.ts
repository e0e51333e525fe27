/**
 * `readAttribute(entity, attr)`: `entity.get(attr.name)` with the definition in hand, which asks
 * the acting session's permission as `get` asks it.
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { readAttribute } from './attribute-read.js'
import { createDatastore } from './datastore.js'
import type { Entity } from './entity.js'
import { payrollData, payrollModel, payrollRoles } from '../calls/session-calls.fixture.js'

function setup() {
  const ds = createDatastore(payrollModel, { roles: payrollRoles, data: payrollData() })
  const Employee = ds.dataClass('Employee')
  const e = Employee.get(1) as unknown as Entity
  const def = (name: string) => Employee.def.attributesByName.get(name)!
  return { ds, e, def }
}

describe('readAttribute', () => {
  it('gives what get gives, each attribute', () => {
    const { e, def } = setup()
    for (const name of ['ID', 'name', 'salary'])
      expect(readAttribute(e, def(name))).toBe(e.get(name))
  })

  it('refuses (1607) what the acting session may not read, as get does; reads the rest', () => {
    const { ds, e, def } = setup()
    let s = ds.sessions.open()
    expect(thrown(() => ds.actAs(s, () => e.get('salary'))).errCode).toBe(1607)
    expect(thrown(() => ds.actAs(s, () => readAttribute(e, def('salary')))).errCode).toBe(1607)
    expect(ds.actAs(s, () => readAttribute(e, def('name')))).toBe('Ada')
    s = ds.sessions.renew(s.id, { user: { name: 'ann', privileges: ['payroll'] } })!
    expect(ds.actAs(s, () => readAttribute(e, def('salary')))).toBe(100)
  })
})
