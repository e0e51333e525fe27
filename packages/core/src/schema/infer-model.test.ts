import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { createDatastore, type DataFile, type Entity, type EntitySelection } from '../index.js'
import { inferModel, type InferModelOptions } from './infer-model.js'
import type { AttributeJson } from './model-json.js'

/** The attributes of dataclass `name`, as `name:type` (relations `name:kind→type`). */
function shape(data: unknown, options?: InferModelOptions): Record<string, string[]> {
  const { model } = inferModel(data, options)
  return Object.fromEntries(
    model.dataClasses.map((dc) => [
      dc.name,
      dc.attributes.map((a: AttributeJson) =>
        a.kind === 'storage' ? `${a.name}:${a.type}` : `${a.name}:${a.kind}→${a.type}`,
      ),
    ]),
  )
}

function inferError(data: unknown, options?: InferModelOptions): DatastoreError {
  try {
    inferModel(data, options)
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error('expected inferModel to throw')
}

/** The entities of a 1→N relation's value (a model inferred at run time is not typed). */
const selection = (v: unknown): Entity[] => (v as EntitySelection).toArray()

const serve = (data: unknown) => {
  const inferred = inferModel(data)
  return createDatastore(inferred.model, { data: inferred.data as DataFile })
}

// json-server's own example (its README's db.json), a top-level object included.
const JSON_SERVER_DB = {
  posts: [
    { id: '1', title: 'a title', views: 100 },
    { id: '2', title: 'another title', views: 200 },
  ],
  comments: [
    { id: '1', text: 'a comment about post 1', postId: '1' },
    { id: '2', text: 'another comment about post 1', postId: '1' },
  ],
  profile: { name: 'typicode' },
}

describe("inferModel on json-server's db.json", () => {
  it('makes a dataclass per collection, the key from id, the relation from postId and its inverse', () => {
    const inferred = inferModel(JSON_SERVER_DB, { name: 'db' })
    expect(inferred.model).toEqual({
      __NAME: 'db',
      dataClasses: [
        {
          name: 'posts',
          attributes: [
            { name: 'id', kind: 'storage', type: 'string' },
            { name: 'title', kind: 'storage', type: 'string' },
            { name: 'views', kind: 'storage', type: 'long' },
            {
              name: 'comments',
              kind: 'relatedEntities',
              type: 'commentsSelection',
              path: 'post',
              reversePath: true,
            },
          ],
          key: [{ name: 'id' }],
        },
        {
          name: 'comments',
          attributes: [
            { name: 'id', kind: 'storage', type: 'string' },
            { name: 'text', kind: 'storage', type: 'string' },
            { name: 'postId', kind: 'storage', type: 'string' },
            {
              name: 'post',
              kind: 'relatedEntity',
              type: 'posts',
              path: 'posts',
              foreignKey: 'postId',
            },
          ],
          key: [{ name: 'id' }],
        },
        {
          name: 'profile',
          attributes: [
            { name: 'id', kind: 'storage', type: 'long', autosequence: true },
            { name: 'name', kind: 'storage', type: 'string' },
          ],
          key: [{ name: 'id' }],
        },
      ],
    })
    expect(inferred.notes).toEqual([
      'profile: one object, not an array of rows: served as a dataclass of one entity',
      'profile: no key in the data (no attribute named id): a key id is added, with the value 1',
    ])
    expect(inferred.generatedKeys).toEqual({ profile: 'id' })
    // The top-level object is a collection of its one row; the arrays are the data's own.
    expect(inferred.data.profile).toEqual([{ name: 'typicode' }])
    expect(inferred.data.posts).toBe(JSON_SERVER_DB.posts)
  })

  it('serves it: the relation and its inverse follow the keys, the profile is entity 1', () => {
    const ds = serve(JSON_SERVER_DB)
    const post = ds.dataClass('posts').get('1')!
    expect(selection(post.get('comments')).map((c) => c.get('text'))).toEqual([
      'a comment about post 1',
      'another comment about post 1',
    ])
    expect((ds.dataClass('comments').get('2')!.get('post') as Entity).get('title')).toBe('a title')
    expect(ds.dataClass('profile').get(1)!.get('name')).toBe('typicode')
    // A new post gets no key of its own (a string key is the client's to give); a new profile does.
    expect(ds.dataClass('profile').new().saveOrFail().getKey()).toBe(2)
  })
})

describe('attribute types', () => {
  it('takes each type from the values, the widest number, and strings that look like dates as strings', () => {
    const rows = [
      {
        flag: true,
        small: 1,
        big: 2 ** 40,
        huge: 2 ** 60,
        price: 9.5,
        mixedNumbers: 1,
        day: '2024-01-05',
        stamp: '2024-01-05T10:00:00Z',
        uuid: '0b9a7b1c-5c43-4c1e-9df6-2a4c2a0e1b7f',
        tags: ['a'],
        meta: { a: 1 },
        json: { a: 1 },
        empty: null,
      },
      { mixedNumbers: 2.5, small: -2147483648, json: [1, 2] },
    ]
    expect(shape({ things: rows })).toEqual({
      things: [
        'id:long',
        'flag:bool',
        'small:long',
        'big:long64',
        'huge:number',
        'price:number',
        'mixedNumbers:number',
        'day:string',
        'stamp:string',
        'uuid:string',
        'tags:object',
        'meta:object',
        'json:object',
        'empty:string',
      ],
    })
    expect(inferModel({ things: rows }).notes).toContain(
      'things.empty: only null values: typed string',
    )
  })

  it('keeps the order of the attributes when later rows bring fields the first left out', () => {
    const rows = [
      { ID: 1, a: 1, c: 3 },
      { ID: 2, a: 1, b: 2, c: 3 },
      { z: 0, ID: 3 },
    ]
    expect(shape({ t: rows }).t).toEqual(['z:long', 'ID:long', 'a:long', 'b:long', 'c:long'])
  })

  it("reads the members of Entistore's own data files as the loader does, not as attributes", () => {
    const rows = [{ __KEY: '1', __STAMP: 3, __TIMESTAMP: '2024-01-01T00:00:00.000Z', ID: 1 }]
    expect(shape({ t: rows })).toEqual({ t: ['ID:long'] })
    expect(serve({ t: rows }).dataClass('t').get(1)!.getStamp()).toBe(3)
  })
})

describe('keys', () => {
  it('takes id in any case, then _id, then an attribute named after the collection', () => {
    expect(inferModel({ a: [{ x: 1, Id: 5 }] }).model.dataClasses[0]!.key).toEqual([{ name: 'Id' }])
    expect(inferModel({ a: [{ _id: 'k1' }] }).model.dataClasses[0]!.key).toEqual([{ name: '_id' }])
    const employees = { Employee: [{ EmployeeID: 7, name: 'Ada' }], posts: [{ post_id: 1 }] }
    expect(inferModel(employees).model.dataClasses.map((dc) => dc.key)).toEqual([
      [{ name: 'EmployeeID' }],
      [{ name: 'post_id' }],
    ])
  })

  it("numbers integer keys on from the largest (autosequence); a string key is the caller's", () => {
    const ds = serve({ n: [{ id: 10 }, { id: 3 }], s: [{ id: 'b' }] })
    expect(ds.dataClass('n').new().saveOrFail().getKey()).toBe(11)
    const model = inferModel({ n: [{ id: 10 }], s: [{ id: 'b' }] }).model
    expect(model.dataClasses.map((dc) => dc.attributes[0])).toEqual([
      { name: 'id', kind: 'storage', type: 'long', autosequence: true },
      { name: 'id', kind: 'storage', type: 'string' },
    ])
  })

  it('adds a key, and says why, where the data has none that is whole and unique', () => {
    // A postId that happens to be unique in comments is a reference, never the key.
    const cases: [unknown[], string, string][] = [
      [[{ title: 'x' }], 'id', 'no attribute named id'],
      [[{ id: 1 }, { id: 1 }], 'ID', 'id holds 1 in both t[0] and t[1]'],
      [[{ id: 1 }, { x: 2 }], 'ID', 'id is missing from t[1]'],
      [
        [{ id: 1.5 }],
        'ID',
        'id holds numbers that are not 32 or 53-bit integers, and a key is an integer or a string',
      ],
      [[{ id: true }], 'ID', 'id holds bool values, and a key is an integer or a string'],
      [[{ postId: 1 }, { postId: 2 }], 'id', 'no attribute named id'],
    ]
    for (const [rows, key, why] of cases) {
      const inferred = inferModel({ t: rows })
      expect(inferred.generatedKeys).toEqual({ t: key })
      expect(inferred.notes).toContain(
        `t: no key in the data (${why}): a key ${key} is added, numbered 1, 2, … in the order of the rows`,
      )
      expect(inferred.model.dataClasses[0]!.attributes[0]).toEqual({
        name: key,
        kind: 'storage',
        type: 'long',
        autosequence: true,
      })
    }
    const ds = serve({ t: [{ title: 'first' }, { title: 'second' }] })
    expect(ds.dataClass('t').get(2)!.get('title')).toBe('second')
  })
})

describe('relations', () => {
  it('follows employerID, employer_id, categoryId and personId to Employer, employers, categories and people', () => {
    const data = {
      Employer: [{ ID: 1 }],
      employers: [{ id: 1 }],
      categories: [{ id: 'c' }],
      people: [{ id: 9 }],
      items: [{ id: 1, EmployerID: 1, employers_id: null, categoryId: 'c', personId: 9 }],
    }
    expect(shape(data).items).toEqual([
      'id:long',
      'EmployerID:long',
      'Employer:relatedEntity→Employer',
      'employers_id:string',
      'categoryId:string',
      'category:relatedEntity→categories',
      'personId:long',
      'person:relatedEntity→people',
    ])
    // employers_id holds no value: nothing says it is a reference (and its type is a guess).
    expect(shape(data).people).toEqual(['id:long', 'items:relatedEntities→itemsSelection'])
  })

  it('makes no relation where a value does not resolve, the key types differ or the name is taken, and says why', () => {
    const data = {
      users: [{ id: 1 }, { id: 2 }],
      posts: [
        { id: 1, userId: 1, user_id: '1', authorId: 3 },
        { id: 2, userId: null, authorId: 4 },
      ],
      notes: [{ id: 1, userId: 2, user: 'ada' }],
      authors: [{ id: 3 }],
      tags: [{ name: 'x' }],
      labels: [{ id: 1, tagId: 1 }],
    }
    const inferred = inferModel(data)
    expect(inferred.notes).toEqual([
      'tags: no key in the data (no attribute named id): a key id is added, numbered 1, 2, … in the order of the rows',
      'posts.user_id: not a relation to users: it holds string values and the key of users long values',
      'posts.authorId: not a relation to authors: posts[1] holds 4, which is no key of authors',
      'notes.userId: its values are keys of users, but notes has an attribute user already: no relation made',
    ])
    const kinds = shape(data)
    // posts.userId resolves (its null aside): the one relation made.
    expect(kinds.posts).toEqual([
      'id:long',
      'userId:long',
      'user:relatedEntity→users',
      'user_id:string',
      'authorId:long',
    ])
    // labels.tagId names tags, whose key is added, not the data's: no relation.
    expect(kinds.labels).toEqual(['id:long', 'tagId:long'])
    expect(kinds.users).toEqual(['id:long', 'posts:relatedEntities→postsSelection'])
  })

  it('names an inverse <source>By<Relation> when the source name is taken, and relates a collection to itself', () => {
    const data = {
      users: [{ id: 1, posts: 2 }],
      posts: [{ id: 1, authorId: 1, editorId: 1, userId: 1 }],
      authors: [{ id: 1 }],
      editors: [{ id: 1 }],
      comments: [
        { id: 1, commentId: null },
        { id: 2, commentId: 1 },
      ],
    }
    const kinds = shape(data)
    expect(kinds.users).toEqual([
      'id:long',
      'posts:long',
      'postsByUser:relatedEntities→postsSelection',
    ])
    expect(kinds.comments).toEqual([
      'id:long',
      'commentId:long',
      'comment:relatedEntity→comments',
      'comments:relatedEntities→commentsSelection',
    ])
    const ds = serve(data)
    expect(selection(ds.dataClass('users').get(1)!.get('postsByUser'))).toHaveLength(1)
    expect(selection(ds.dataClass('comments').get(1)!.get('comments'))[0]!.getKey()).toBe(2)
  })

  it('gives the N→1 relations their names before the inverses take theirs', () => {
    // Employee.boxId's inverse on boxes would be named Employee, the name boxes.Employee_id gives
    // its own relation: the relation keeps it, the inverse takes EmployeeByBox.
    const data = {
      Employee: [{ id: 1, boxId: 5 }],
      boxes: [{ boxID: 5, Employee_id: 1 }],
    }
    expect(shape(data)).toEqual({
      Employee: [
        'id:long',
        'boxId:long',
        'box:relatedEntity→boxes',
        'boxes:relatedEntities→boxesSelection',
      ],
      boxes: [
        'boxID:long',
        'Employee_id:long',
        'Employee:relatedEntity→Employee',
        'EmployeeByBox:relatedEntities→EmployeeSelection',
      ],
    })
    const ds = serve(data)
    expect(selection(ds.dataClass('boxes').get(5)!.get('EmployeeByBox'))[0]!.getKey()).toBe(1)
  })

  it('prefers the collection named most closely, and guesses none between two named alike', () => {
    expect(shape({ Post: [{ id: 1 }], posts: [{ id: 1 }], c: [{ id: 1, postId: 1 }] }).c).toContain(
      'post:relatedEntity→Post',
    )
    expect(shape({ Posts: [{ id: 1 }], posts: [{ id: 1 }], c: [{ id: 1, postId: 1 }] }).c).toEqual([
      'id:long',
      'postId:long',
    ])
  })
})

describe('what cannot be inferred: one message naming the collection and attribute (9022)', () => {
  const PREFIX = 'Cannot infer a model from the data: '
  it.each<[string, unknown, string]>([
    [
      'an array',
      [1],
      'data: expected an object of collections, { "posts": [ {...}, ... ], ... }, not an array',
    ],
    [
      'null',
      null,
      'data: expected an object of collections, { "posts": [ {...}, ... ], ... }, not null',
    ],
    ['no collection', {}, 'data: no collection to make a dataclass of'],
    [
      'a collection without rows',
      { posts: [] },
      'posts: no rows, so its attributes cannot be inferred: add one, or give a model',
    ],
    [
      'a value that is no collection',
      { count: 3 },
      'count: expected an array of rows (or one object), not an integer',
    ],
    [
      'a row that is no object',
      { tags: [{ id: 1 }, 'b'] },
      'tags[1]: expected an object (a row), not a string',
    ],
    [
      'a name no dataclass may have',
      { 'blog-posts': [{ id: 1 }] },
      '"blog-posts": cannot name a dataclass (letters, digits and _, not starting with a digit or __)',
    ],
    [
      'a name no attribute may have',
      { posts: [{ id: 1 }, { 'first name': 'x' }] },
      'posts[1].first name: "first name" cannot name an attribute (letters, digits and _, not starting with a digit or __)',
    ],
    [
      'two types in one attribute',
      { posts: [{ id: 1, views: 3 }, { id: 2 }, { id: 3, views: '4' }] },
      'posts.views: a string in posts[2] where posts[0] holds an integer: an attribute holds values of one type (make them one type, or give a model that says which)',
    ],
    [
      'an object beside a scalar',
      { profile: { tags: true, x: 1 }, p: [{ tags: ['a'] }, { tags: 1 }] },
      'p.tags: an integer in p[1] where p[0] holds an array: an attribute holds values of one type (make them one type, or give a model that says which)',
    ],
    [
      'what JSON cannot hold',
      { posts: [{ at: new Date(0) }] },
      'posts[0].at: a Date object is not a JSON value',
    ],
  ])('%s', (_, data, message) => {
    const e = inferError(data)
    expect(e.name).toBe('CannotInferModel')
    expect(e.errCode).toBe(9022)
    expect(e.message).toBe(PREFIX + message)
  })
})

describe('a draft (what entistore model --from writes out to edit)', () => {
  it('guesses what it cannot infer exactly, and says so', () => {
    const inferred = inferModel(
      {
        posts: [
          { id: 1, views: 3, tags: ['a'] },
          { id: 2, views: '4', tags: 'a' },
        ],
        comments: [],
        count: 3,
        tags: ['a', 'b'],
      },
      { draft: true },
    )
    expect(
      inferred.model.dataClasses.map((dc) => [
        dc.name,
        dc.attributes.map((a) => `${a.name}:${a.type}`),
      ]),
    ).toEqual([
      ['posts', ['id:long', 'views:string', 'tags:object']],
      ['comments', ['id:long']],
    ])
    expect(inferred.notes).toEqual([
      'posts.views: a string in posts[1] where posts[0] holds an integer: typed string (the other values load as text)',
      'posts.tags: a string in posts[1] where posts[0] holds an array: typed object (the values that are not objects or arrays will not load: edit them or the type)',
      'comments: no rows, so its attributes cannot be inferred: only its key is written; add its attributes',
      'comments: no key in the data (no attribute named id): a key id is added, numbered 1, 2, … in the order of the rows',
      'count: expected an array of rows (or one object), not an integer: left out',
      'tags[0]: expected an object (a row), not a string: tags is left out',
    ])
  })
})
