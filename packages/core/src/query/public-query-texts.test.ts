/**
 * Query texts public 4D code sends, as 4D's `.query()` page reads them (DataClassClass.md): "in
 * case of type mismatch with scalar types (text, date, number...), 4D will try to convert the
 * value type to the attribute data type whenever possible", so a date attribute compared with a
 * text written as 4D's `Date` reads one (`"Date >= :1"; "2025/01/01"`); and a placeholder written
 * with a blank after its colon (`"label =: 1"`).
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'

const ds = createDatastore(
  {
    dataClasses: [
      {
        name: 'Meeting',
        key: [{ name: 'ID' }],
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'Date', type: 'date' },
          { name: 'label', type: 'string' },
        ],
      },
    ],
  },
  {
    data: {
      Meeting: [
        { ID: 1, Date: '2024-12-31', label: 'old' },
        { ID: 2, Date: '2025-01-01', label: 'new' },
        { ID: 3, Date: '2025-02-15', label: 'new' },
      ],
    },
  },
)
const keys = (q: string, ...v: unknown[]): unknown[] =>
  ds
    .dataClass('Meeting')
    .query(q, ...v)
    .toArray()
    .map((e) => e.getKey())

describe('query texts of public 4D code (DataClassClass.md, .query())', () => {
  it.each([
    ['2025/01/01', 'the year first, with slashes'],
    ['2025.1.1', 'the year first, with dots'],
    ['01/01/2025', "the system's short form (US: month, day, year)"],
    ['2025-01-01', 'ISO'],
  ])('compares a date attribute with the text %j (%s)', (text) => {
    expect(keys('Date >= :1', text)).toEqual([2, 3])
  })

  it('still refuses a text that is no date', () => {
    expect(() => keys('Date >= :1', '2025/13/01')).toThrow(/not a date/)
  })

  it('reads a placeholder with a blank after its colon', () => {
    expect(keys('label =: 1', 'new')).toEqual([2, 3])
    expect(keys('label = :  1 and ID > : 2', 'new', 2)).toEqual([3])
  })

  it('compares a to-many relation with null: whether it has related entities (4D code writes it)', () => {
    const shop = createDatastore(
      {
        dataClasses: [
          {
            name: 'Car',
            key: [{ name: 'ID' }],
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'reservations', kind: 'relatedEntities', path: 'car' },
            ],
          },
          {
            name: 'Reservation',
            key: [{ name: 'ID' }],
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'carID', type: 'long' },
              { name: 'car', kind: 'relatedEntity', path: 'Car', foreignKey: 'carID' },
            ],
          },
        ],
      },
      {
        data: {
          Car: [{ ID: 1 }, { ID: 2 }, { ID: 3 }],
          Reservation: [
            { ID: 10, carID: 1 },
            { ID: 11, carID: 1 },
            { ID: 12, carID: 3 },
          ],
        },
      },
    )
    const cars = (q: string): unknown[] =>
      shop
        .dataClass('Car')
        .query(q)
        .toArray()
        .map((e) => e.getKey())
    expect(cars('reservations # null')).toEqual([1, 3])
    expect(cars('reservations = null')).toEqual([2])
    expect(() => cars('reservations = 1')).toThrow(
      /to-many relation: compare one of its attributes/,
    )
  })
})
