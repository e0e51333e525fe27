import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../../errors/datastore-error.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'
import { restriction } from './restrict.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Farm',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'trees', kind: 'relatedEntities', path: 'farm' },
      ],
    },
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string', indexed: true },
        { name: 'public', type: 'bool' },
        { name: 'age', type: 'long' },
        { name: 'farmID', type: 'long' },
        { name: 'farm', kind: 'relatedEntity', path: 'Farm', foreignKey: 'farmID' },
      ],
    },
  ],
}

function orchard() {
  let calls = 0
  const ds = createDatastore(model, {
    data: {
      Farm: [
        { ID: 1, name: 'Acme' },
        { ID: 2, name: 'Zeta' },
      ],
      Tree: [
        { ID: 1, species: 'Oak', public: true, age: 120, farmID: 1 },
        { ID: 2, species: 'Elm', public: false, age: 8, farmID: 1 },
        { ID: 3, species: 'Ash', public: true, age: 60, farmID: 2 },
      ],
    },
    functions: {
      dataClasses: {
        Tree: {
          restrict() {
            calls++
            // Its own reads are not narrowed: this is every tree.
            expect(this.all().length).toBe(this.length)
            return this.query('public = true')
          },
        },
      },
    },
  })
  return { ds, trees: ds.dataClass('Tree'), calls: () => calls }
}

const code = (fn: () => unknown): number | undefined => {
  try {
    fn()
  } catch (e) {
    if (DatastoreError.is(e)) return e.errCode
    throw e
  }
  return undefined
}

describe('restrict', () => {
  it('narrows all(), queries, get(), relations and what is made from them', () => {
    const { ds, trees } = orchard()
    expect(
      trees
        .all()
        .toArray()
        .map((t) => t.getKey()),
    ).toEqual([1, 3])
    expect(trees.query('age > 1').length).toBe(2)
    expect(trees.query("species = 'Elm'").length).toBe(0)
    expect(trees.get(2)).toBeNull()
    expect(trees.get('2')).toBeNull()
    expect(trees.get(1)?.get('species')).toBe('Oak')
    const acme = ds.dataClass('Farm').get(1)!
    expect((acme.get('trees') as { length: number }).length).toBe(1)
    expect(trees.all().sum('age')).toBe(180)
    expect(
      trees
        .all()
        .orderBy('age desc')
        .toArray()
        .map((t) => t.getKey()),
    ).toEqual([1, 3])
  })

  it('refuses an update or a drop outside it as a missing entity; creates are not', () => {
    const { trees } = orchard()
    expect(code(() => trees.update(2, { age: 9 }))).toBe(1542)
    expect(code(() => trees.drop(2))).toBe(1542)
    expect(trees.create({ species: 'Fir', public: false, farmID: 2 }).getKey()).toBe(4)
    // A new entity outside it is not read after its creation.
    expect(trees.get(4)).toBeNull()
    expect(trees.update(1, { age: 121 }).get('age')).toBe(121)
  })

  it('runs again when the data changes, not for every read', () => {
    const { ds, trees, calls } = orchard()
    trees.all()
    trees.get(1)
    const before = calls()
    trees.query('age > 1')
    expect(calls()).toBe(before)
    ds.dataClass('Farm').create({ name: 'Nova' })
    trees.all()
    expect(calls()).toBe(before + 1)
  })

  it('restricts nothing when it returns null or something that is not its selection', () => {
    for (const answer of [null, undefined, 'all', 42]) {
      const ds = createDatastore(model, {
        data: { Tree: [{ ID: 1, species: 'Oak' }] },
        functions: { dataClasses: { Tree: { restrict: () => answer as never } } },
      })
      expect(ds.dataClass('Tree').all().length).toBe(1)
    }
  })

  it('closes the dataclass when it answers a Promise (an async function answers too late)', () => {
    const ds = createDatastore(model, {
      data: { Tree: [{ ID: 1, species: 'Oak' }] },
      functions: {
        dataClasses: {
          // As a JavaScript functions module may give it (TypeScript refuses it).
          Tree: { restrict: (async () => null) as never },
        },
      },
    })
    expect(ds.dataClass('Tree').all().length).toBe(0)
    expect(ds.dataClass('Tree').get(1)).toBeNull()
  })

  it('answers every entity without a bitmap of them when it returns all() of its dataclass', () => {
    const ds = createDatastore(model, {
      data: {
        Tree: [
          { ID: 1, species: 'Oak' },
          { ID: 2, species: 'Elm' },
        ],
      },
      functions: {
        dataClasses: {
          Tree: {
            restrict: function (this: any) {
              return this.all()
            },
          },
        },
      },
    })
    const trees = ds.dataClass('Tree')
    const session = ds.sessions.open()
    expect(ds.actAs(session, () => restriction(trees))).toBeUndefined()
    expect(ds.actAs(session, () => trees.all().length)).toBe(2)
    trees.create({ species: 'Ash' })
    expect(ds.actAs(session, () => trees.all().length)).toBe(3)
  })

  it('closes its dataclass to a view its own code is refused for, instead of refusing the request', () => {
    const ds = createDatastore(model, {
      data: {
        Farm: [{ ID: 1, name: 'Acme' }],
        Tree: [{ ID: 1, species: 'Oak', age: 120, farmID: 1 }],
      },
      roles: {
        privileges: [{ privilege: 'botanist', includes: [] }],
        roles: [],
        permissions: { allowed: [{ applyTo: 'Tree.age', type: 'attribute', read: ['botanist'] }] },
      },
      // Old trees only: a rule that reads the age, which a guest may not read.
      functions: {
        dataClasses: {
          Tree: {
            restrict: function (this: any) {
              return this.query('age > 100')
            },
          },
        },
      },
    })
    const guest = ds.sessions.open()
    expect(ds.actAs(guest, () => ds.dataClass('Tree').all().length)).toBe(0)
    // A farm's trees are there for a view that may run the rule; for the guest, none.
    expect(
      ds.actAs(
        guest,
        () => (ds.dataClass('Farm').get(1)!.get('trees') as { length: number }).length,
      ),
    ).toBe(0)
    const botanist = ds.sessions.open()
    ds.sessions.renew(botanist.id, { user: { name: 'b', privileges: ['botanist'] } })
    expect(ds.actAs(botanist, () => ds.dataClass('Tree').all().length)).toBe(1)
  })
})

describe('restrict inside a transaction', () => {
  it("narrows what the process's own transaction created and saved, as the committed entities", async () => {
    const { ds, trees } = orchard()
    const seen = await ds.actAs(ds.sessions.open(), () => {
      ds.startTransaction()
      trees.create({ species: 'Yew', public: true, age: 900, farmID: 2 })
      trees.create({ species: 'Fir', public: false, age: 30, farmID: 2 })
      trees.update(1, { public: false })
      const found = {
        aged: trees
          .query('age > 0')
          .toCollection('species')
          .map((t) => t.species),
        all: trees.all().length,
        zeta: (ds.dataClass('Farm').get(2)!.get('trees') as { length: number }).length,
      }
      ds.cancelTransaction()
      return { ...found, after: trees.all().length }
    })
    expect(seen).toEqual({ aged: ['Ash', 'Yew'], all: 2, zeta: 2, after: 2 })
  })
})
