/**
 * examples/helpdesk from the library (issue 63): the datastore `loadDatastoreFiles({ project })`
 * makes runs the project's 4D code for TypeScript as for REST — its computed attributes, its
 * events, its restrict (open to the application's own code, closed to a guest's session).
 */
import { fileURLToPath } from 'node:url'
import type { Entity } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { loadDatastoreFiles } from '../load/load-files.js'

const HELPDESK = fileURLToPath(new URL('../../../../examples/helpdesk', import.meta.url))

describe('examples/helpdesk through the TypeScript API', () => {
  it('reads computed attributes, runs events, and narrows a guest by the 4D restrict', async () => {
    const ds = await loadDatastoreFiles({ project: HELPDESK, data: `${HELPDESK}/csv` })
    const Ticket = ds.dataClass('Ticket')
    // The application's own code: Session is Null, the restrict answers Null (no restriction).
    expect(Ticket.all().length).toBe(48)
    const first = Ticket.get(1) as Entity
    expect(first.get('label')).toBe(`#1 ${String(first.get('subject'))}`)
    // saving: a new ticket is "new", priority 2, opened today; validateSave refuses a blank subject.
    const made = Ticket.new()
    made.set('subject', 'From TypeScript')
    made.set('company', ds.dataClass('Company').get(1))
    expect(made.save()).toMatchObject({ success: true })
    const saved = Ticket.get(made.getKey()) as Entity
    expect([saved.get('status'), saved.get('priority')]).toEqual(['new', 2])
    const blank = Ticket.new()
    blank.set('subject', '  ')
    expect(blank.save()).toMatchObject({ success: false, status: 7 })
    // A guest's session: the restrict gives it no ticket.
    const guest = ds.sessions.openGuest()
    expect(ds.actAs(guest, () => Ticket.all().length)).toBe(0)
  })
})
