/**
 * A text key marked autosequence is a UUID made on create (generatedBy): 4D's "Auto UUID" on an
 * Alpha field, as Qodly's model editor writes its text keys. 32 upper-case hex digits, as every
 * UUID 4D makes is shown in its docs; the key stays a text, and a given key is kept.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'

const ds = () =>
  createDatastore({
    dataClasses: [
      {
        name: 'Event',
        key: [{ name: 'UUID' }],
        attributes: [
          { name: 'UUID', type: 'string', autosequence: true },
          { name: 'ref', type: 'string', autosequence: true },
          { name: 'title', type: 'string' },
        ],
      },
    ],
  })

describe('text autosequence (a UUID made as text)', () => {
  it('makes a UUID for the key and for another text attribute', () => {
    const events = ds().dataClass('Event')
    const a = events.create({ title: 'a' })
    const b = events.create({ title: 'b' })
    expect(a.getKey()).toMatch(/^[0-9A-F]{32}$/)
    expect(a.get('ref')).toMatch(/^[0-9A-F]{32}$/)
    expect(a.getKey()).not.toBe(b.getKey())
    expect(events.def.attributesByName.get('UUID')).toMatchObject({ type: 'string' })
  })

  it('keeps a key given', () => {
    expect(ds().dataClass('Event').create({ UUID: 'mine', title: 'c' }).getKey()).toBe('mine')
  })
})
