/**
 * The texts ColumnWriter writes from a load's columns against EntityWriter's from the entities:
 * for any rows loaded (texts that need escaping or are not Latin-1, doubles, nulls, booleans,
 * dates, date-only values, objects, relations to one and to many, text keys a URI encodes), then
 * written, dropped and left dangling, every row still in its load's columns reads the same both
 * ways, as a single entity, as a member of `__ENTITIES` and in the `$asArray` form; a row written
 * since is not in them.
 */
import fc from 'fast-check'
import {
  createDatastore,
  loadedColumnsOf,
  rowIdOf,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { ColumnWriter } from './column-writer.js'
import { EntityWriter } from './entity.js'
import { shapeOfClass } from './entity-shape.js'
import { Uris } from './uris.js'

const model: ModelJson = {
  __NAME: 'columns',
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'label', type: 'string' },
        { name: 'items', kind: 'relatedEntities', path: 'group' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', unique: true },
        { name: 'text', type: 'string' },
        { name: 'n', type: 'number' },
        { name: 'i', type: 'long' },
        { name: 'b', type: 'bool' },
        { name: 'groupID', type: 'long' },
        { name: 'group', kind: 'relatedEntity', path: 'Group', foreignKey: 'groupID' },
        { name: 'tagCode', type: 'string' },
        { name: 'tag', kind: 'relatedEntity', path: 'Tag', foreignKey: 'tagCode' },
        { name: 'day', type: 'date', dateOnly: true },
        { name: 'at', type: 'date' },
        { name: 'extra', type: 'object' },
      ],
    },
    {
      name: 'Tag',
      attributes: [
        { name: 'code', type: 'string' },
        { name: 'label', type: 'string' },
      ],
      key: [{ name: 'code' }],
    },
    {
      name: 'Badge',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'itemID', type: 'long' },
        { name: 'item', kind: 'relatedEntity', path: 'Item', foreignKey: 'itemID' },
        { name: 'itemText', kind: 'alias', path: 'item.text' },
      ],
    },
  ],
}

// What an escape or a byte column must not get wrong: quotes, backslashes, controls, line and
// paragraph separators, Latin-1 past ASCII, astral and other non-Latin-1 characters.
const text = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\u0000', '\u2028', 'é', 'ÿ', 'Ω', '😀'),
  maxLength: 10,
})
const TAG_CODES = ['t1', 'a/b', 'é ?', '7']

const item = fc.record({
  text: fc.option(text, { nil: null }),
  n: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  i: fc.option(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), { nil: null }),
  b: fc.option(fc.boolean(), { nil: null }),
  groupID: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  tagCode: fc.option(fc.constantFrom(...TAG_CODES), { nil: null }),
  day: fc.option(fc.constantFrom('2024-03-15', '1999-12-31'), { nil: null }),
  at: fc.option(fc.constantFrom('2024-03-15T09:30:00.000Z', '2001-01-01T00:00:00.000Z'), {
    nil: null,
  }),
  extra: fc.option(
    fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 }),
    {
      nil: null,
    },
  ),
})

const scenario = fc.record({
  items: fc.array(item, { minLength: 1, maxLength: 30 }),
  // Items written after the load (by position), groups and tags dropped (their items dangle).
  written: fc.array(fc.nat(29), { maxLength: 5 }),
  droppedGroup: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  droppedTag: fc.option(fc.constantFrom(...TAG_CODES), { nil: undefined }),
})

describe('ColumnWriter', () => {
  it('writes each row still in its load’s columns as EntityWriter writes its entity', () => {
    fc.assert(
      fc.property(scenario, ({ items, written, droppedGroup, droppedTag }) => {
        const data = {
          Group: [1, 2, 3].map((ID) => ({ ID, label: `g"${ID}` })),
          Tag: TAG_CODES.map((code) => ({ code, label: code.toUpperCase() })),
          Item: items.map((row, k) => ({ ID: k + 1, code: `c${k}`, ...row })),
        } as unknown as DataFile
        const ds = createDatastore(model, { data })
        for (const k of written)
          if (k < items.length) ds.dataClass('Item').update(k + 1, { text: 'later' })
        if (droppedGroup !== undefined) ds.dataClass('Group').get(droppedGroup)!.drop()
        if (droppedTag !== undefined) ds.dataClass('Tag').get(droppedTag)!.drop()
        const uris = new Uris('/rest')
        const entities = new EntityWriter(uris)
        const columns = new ColumnWriter(uris)
        let fromColumns = 0
        for (const name of ['Group', 'Item', 'Tag']) {
          const dc = ds.dataClass(name)
          for (const entity of dc.all()) {
            const e = entity!
            const loaded = loadedColumnsOf(dc, e.rowId)
            if (name === 'Item' && written.includes((e.getKey() as number) - 1)) {
              expect(loaded).toBeUndefined()
              continue
            }
            expect(loaded).toBeDefined()
            const open = shapeOfClass(dc).singleOpen
            expect(columns.text(dc, open, loaded!, e.rowId)).toBe(entities.single(e))
            expect(columns.text(dc, '{', loaded!, e.rowId)).toBe(entities.member(e))
            expect(columns.plain(dc, loaded!, e.rowId)).toBe(entities.plain(e))
            fromColumns++
          }
        }
        expect(fromColumns).toBeGreaterThan(0)
      }),
      { numRuns: 150 },
    )
  })

  it('leaves to the entity what the columns cannot tell', () => {
    const ds = createDatastore(model, {
      data: {
        Group: [{ ID: 1, label: 'g' }],
        Item: [{ ID: 1, code: 'c', text: 't' }],
        Badge: [{ ID: 1, itemID: 1 }],
      } as unknown as DataFile,
    })
    const columns = new ColumnWriter(new Uris('/rest'))
    // An alias's value is another row's: written from the entity alone.
    const badge = ds.dataClass('Badge')
    expect(columns.text(badge, '{', loadedColumnsOf(badge, 0)!, 0)).toBeUndefined()
    // Inside a transaction the calling process reads its own writes first: only `get` knows them.
    const group = ds.dataClass('Group')
    expect(rowIdOf(group, 1)).toBe(0)
    expect(rowIdOf(group, 9)).toBe(-1)
    expect(rowIdOf(group, '1')).toBe(0)
    ds.startTransaction()
    try {
      expect(rowIdOf(group, 1)).toBeUndefined()
      expect(loadedColumnsOf(group, 0)).toBeUndefined()
    } finally {
      ds.cancelTransaction()
    }
  })
})
