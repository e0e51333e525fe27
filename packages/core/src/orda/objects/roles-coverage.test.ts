// The permission entries that name nothing of the datastore (roles-coverage.ts).
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../../index.js'
import { Roles } from '../../roles/roles.js'
import { permissionsNamingNothing } from './roles-coverage.js'

const ds = createDatastore(
  {
    __NAME: 'shop',
    dataClasses: [
      {
        name: 'Ticket',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'subject', type: 'string' },
        ],
      },
    ],
  },
  {
    functions: {
      dataStore: { stats: { exposed: true, call: () => 1 } },
      dataClasses: { Ticket: { entity: { close: { exposed: true, call: () => 1 } } } },
      singletons: { Sla: { functions: { days: { exposed: true, call: () => 5 } } } },
    },
  },
)

const entry = (type: string, applyTo: string) => ({ applyTo, type, read: ['agent'] })
const roles = (...allowed: object[]) =>
  new Roles({ privileges: [{ privilege: 'agent' }], permissions: { allowed } })

describe('permissionsNamingNothing', () => {
  it('says nothing of entries that name what the datastore has (case aside)', () => {
    const r = roles(
      entry('datastore', 'ds'),
      entry('dataclass', 'ticket'),
      entry('attribute', 'Ticket.subject'),
      entry('method', 'ds.stats'),
      entry('method', 'Ticket.close'),
      entry('singleton', 'Sla'),
      entry('singletonMethod', 'Sla.days'),
    )
    expect(permissionsNamingNothing(ds as never, r)).toEqual([])
  })

  it('names each entry that protects nothing, with where it is and why', () => {
    const r = roles(
      entry('dataclass', 'Tickets'),
      entry('attribute', 'Ticket.subjet'),
      entry('method', 'TicketEntity.close'),
      entry('method', 'ds.stat'),
      entry('singletonMethod', 'Sla.weeks'),
      entry('singleton', 'Pricing'),
    )
    expect(permissionsNamingNothing(ds as never, r)).toEqual([
      'permissions.allowed[0]: "Tickets" (dataclass) protects nothing: no dataclass has that name',
      'permissions.allowed[1]: "Ticket.subjet" (attribute) protects nothing: Ticket has no attribute "subjet"',
      `permissions.allowed[2]: "TicketEntity.close" (method) protects nothing: a function of Ticket's classes is named "Ticket.close"`,
      'permissions.allowed[3]: "ds.stat" (method) protects nothing: the datastore has no function "stat"',
      'permissions.allowed[4]: "Sla.weeks" (singletonMethod) protects nothing: Sla has no function "weeks"',
      'permissions.allowed[5]: "Pricing" (singleton) protects nothing: no singleton has that name',
    ])
  })
})
