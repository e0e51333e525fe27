/**
 * Queries on collections in object attributes as 4D's query() page has them ("Not equal to in
 * collections", "Linking collection attribute query arguments"): `[]` finds a match in any
 * element, `!=` with `[]` that every element differs, a letter `[a]` that one element holds every
 * linked comparison, alone too (`info.coll[a].val != 0`: at least one element differs).
 */
import { describe, expect, test } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'

const model = {
  __NAME: 'linked',
  dataClasses: [
    {
      name: 'Thing',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'info', type: 'object' },
      ],
    },
  ],
} as const

const vals = (...v: number[]) => ({ coll: v.map((val) => ({ val })) })
const ds = () =>
  createDatastore(model, {
    data: {
      Thing: [
        { ID: 1, name: 'A', info: vals(1, 1) },
        { ID: 2, name: 'B', info: vals(1, 0) },
        { ID: 3, name: 'C', info: vals(0, 0) },
      ],
    },
  })
const names = (query: string, ...params: unknown[]) =>
  ds()
    .dataClass('Thing')
    .query(query, ...params)
    .orderBy('name')
    .toCollection('name')
    .map((o) => o.name)

describe('collections in object attributes', () => {
  test('= with []: some element matches', () => {
    expect(names('info.coll[].val = :1', 0)).toEqual(['B', 'C'])
  })

  test('!= with []: every element differs', () => {
    expect(names('info.coll[].val != :1', 0)).toEqual(['A'])
  })

  test('!= with a letter, alone: at least one element differs', () => {
    expect(names('info.coll[a].val != :1', 0)).toEqual(['A', 'B'])
  })

  test('a lettered comparison under NOT or beside OR is one element too', () => {
    expect(names('not (info.coll[a].val != :1)', 0)).toEqual(['C'])
    expect(names('info.coll[a].val != :1 or name = :2', 0, 'C')).toEqual(['A', 'B', 'C'])
  })

  test('two comparisons linked by one letter hold in one same element', () => {
    expect(names('info.coll[a].val = :1 and info.coll[a].val != :2', 0, 1)).toEqual(['B', 'C'])
  })
})
