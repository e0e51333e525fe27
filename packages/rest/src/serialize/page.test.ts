import { createDatastore } from '@entistore/core'
import { describe, expect, it, vi } from 'vitest'
import { companyDatastore as company } from './chain.fixture.js'
import { ColumnWriter } from './column-writer.js'
import { EntityWriter } from './entity.js'
import { Page } from './page.js'
import { selectionArray, selectionEnvelope } from './selection.js'
import { Uris } from './uris.js'

// Issue 47: a page held its entities from the moment its reply was made, whether or not its client
// read them: ten clients that asked for 100,000 rows and stopped reading held 190 MB. A page now
// holds row ids, and reads each entity as it is written, as it was when the reply was made.

const writer = new EntityWriter(new Uris('/rest'))

describe('a page', () => {
  it('reads no entity when it is made, and each one as its item is written', () => {
    const ds = company()
    const employees = ds.dataClass('Employee')
    const read = vi.spyOn(employees, 'entityAt')
    const chunks = selectionEnvelope(employees.all(), { skip: 0, top: 360 }, writer)
    // The rows read (a relation to a manager reads one too).
    const rows = () => new Set(read.mock.calls.map(([rowId]) => rowId)).size
    expect(rows()).toBe(0)
    chunks.take()
    // The first piece (64K characters) holds about 150 of the 360 employees.
    expect(rows()).toBeGreaterThan(0)
    expect(rows()).toBeLessThan(200)
    while (!chunks.done) chunks.take()
    expect(rows()).toBe(360)
  })

  it('shows its rows as they were when it was made, whatever is written meanwhile', () => {
    const ds = company()
    const employees = ds.dataClass('Employee')
    const page = () => selectionEnvelope(employees.all(), { skip: 0, top: 40 }, writer)
    const array = () => selectionArray(employees.all(), { skip: 0, top: 40 }, writer)
    const before = [[...page()].join(''), [...array()].join('')]
    const [envelope, plain] = [page(), array()]
    const first = envelope.take()
    employees.update(30, { lastName: 'Changed' })
    employees.drop(35)
    employees.update(30, { lastName: 'Changed again' })
    employees.drop(2)
    expect(first + [...envelope].join('')).toBe(before[0])
    expect([...plain].join('')).toBe(before[1])
    // A reply made now shows the writes.
    const after = [...page()].join('')
    expect(after).toContain('Changed again')
    expect(after).not.toContain('"__KEY":"35"')
  })

  it('stops keeping what it showed once released', () => {
    const ds = company()
    const employees = ds.dataClass('Employee')
    const page = new Page(employees.all(), 0, 10)
    employees.update(3, { lastName: 'Kept' })
    expect(page.at(2)!.get('lastName')).not.toBe('Kept')
    page.release()
    expect(page.at(2)!.get('lastName')).toBe('Kept')
    // A write after it is released is not followed.
    const other = new Page(employees.all(), 0, 10)
    other.release()
    employees.update(4, { lastName: 'Live' })
    expect(other.at(3)!.get('lastName')).toBe('Live')
  })
  it('writes the rows still in their load’s columns from them, and the rows written since as they were', () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'Item',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'label', type: 'string' },
              { name: 'qty', type: 'number' },
            ],
          },
        ],
      },
      {
        data: {
          Item: Array.from({ length: 30 }, (_, i) => ({ ID: i + 1, label: `i"${i}`, qty: i / 3 })),
        },
      },
    )
    const items = ds.dataClass('Item')
    const fromColumns = vi.spyOn(ColumnWriter.prototype, 'text')
    const page = () => selectionEnvelope(items.all(), { skip: 0, top: 30 }, writer)
    const before = [...page()].join('')
    const envelope = page()
    items.update(5, { label: 'Changed' })
    items.drop(7)
    const after = [...envelope].join('')
    // 30 rows from the columns for the first reply, 28 for the second (5 and 7 were written).
    expect(fromColumns).toHaveBeenCalledTimes(58)
    fromColumns.mockRestore()
    expect(after).toBe(before)
    expect(JSON.parse(after).__ENTITIES[4].label).toBe('i"4')
    // A reply made now shows the writes; a restricted writer writes every row from its entity.
    const now = JSON.parse([...page()].join('')).__ENTITIES
    expect(now[4].label).toBe('Changed')
    expect(now.map((e: { ID: number }) => e.ID)).not.toContain(7)
    expect(writer.restricted(() => true).columns).toBeUndefined()
  })
})
