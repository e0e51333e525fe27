/**
 * Issue 61 across processes: a deletion made in one process is witnessed in every other, among its
 * own readers, each decided as itself (its own session in the restrict, never the deleter's). Two
 * datastores joined on a real PostgreSQL, each served over HTTP; the restrict reads who the session
 * says it is from its storage, so each process's sessions are its own.
 */
import { currentSession, defineFunctions, type ModelJson, use } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { ClusterNodes, type ClusterNode } from './cluster-nodes.fixture.js'
import { postgresPerFile, postgresSkip } from './postgres-server.fixture.js'

const MODEL: ModelJson = {
  __NAME: 'notes',
  dataClasses: [
    {
      name: 'Note',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'owner', type: 'string' },
        { name: '__GlobalStamp', type: 'long64', indexed: true },
      ],
    },
  ],
}

const DATA = {
  Note: [1, 2, 3, 4].map((ID) => ({ ID, owner: ID <= 2 ? 'ann' : 'bob' })),
}

const FUNCTIONS = defineFunctions({
  dataStore: {
    // Who the session is, for this test: kept in its storage.
    actAs: {
      exposed: true,
      params: ['string'],
      call(name: string) {
        use(currentSession()!.storage, (s) => (s.user = name))
      },
    },
  },
  dataClasses: {
    Note: {
      restrict() {
        const user = currentSession()?.storage.user as string | undefined
        if (user === 'admin') return null
        return this.query('owner = :1', user ?? '')
      },
    },
  },
})

const pgFile = postgresPerFile()
const nodes = new ClusterNodes()
afterEach(() => nodes.closeAll())

/** A client of `node` keeping its cookie, acting as `user`. */
async function client(node: ClusterNode, user: string) {
  let cookie = ''
  const send = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${node.url}/rest/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    cookie = reply.headers.get('set-cookie')?.split(';')[0] ?? cookie
    return { status: reply.status, body: (await reply.json()) as any }
  }
  expect((await send('POST', '$catalog/actAs', [user])).status).toBe(200)
  return send
}

describe.skipIf(postgresSkip !== undefined)('deletions witnessed in every process', () => {
  it('a reader in another process learns of the deletions it could see, decided as itself', async () => {
    const options = { postgres: pgFile.url, schema: 'witnesses', data: DATA }
    const [a, b] = [
      await nodes.start(MODEL, options, { functions: FUNCTIONS }),
      await nodes.start(MODEL, options, { functions: FUNCTIONS }),
    ]
    const ann = await client(b, 'ann')
    expect((await ann('GET', 'Note')).body.__COUNT).toBe(2)
    const admin = await client(a, 'admin')
    for (const id of [3, 1])
      expect((await admin('POST', `Note(${id})?$method=delete`)).status).toBe(200)
    // Replayed in b: ann witnessed her note's deletion there, not bob's.
    let keys: string[] = []
    for (let i = 0; i < 200 && keys.length === 0; i++) {
      const seen = await ann('GET', '__DeletedRecords?$attributes=__PrimaryKey')
      keys = seen.body.__ENTITIES.map((e: { __PrimaryKey: string }) => e.__PrimaryKey)
      if (keys.length === 0) await new Promise((r) => setTimeout(r, 25))
    }
    expect(keys).toEqual(['1'])
    expect((await ann('GET', 'Note')).body.__COUNT).toBe(1)
  })
})
