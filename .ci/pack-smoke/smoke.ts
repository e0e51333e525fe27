/**
 * The packed packages, installed from their tarballs into a scratch project with nothing else of the
 * repository (see ../pack-smoke.sh): compiled against their published .d.ts files (no `source`
 * condition, no workspace links), then run. Exits non-zero on the first failed check.
 */
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import express from 'express'
import {
  createDatastore,
  ManualClock,
  type DataFile,
  type ModelJsonDocument,
} from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
import { expressRest } from '@entistore/rest/express'
import { toNodeListener } from '@entistore/rest/node'
import {
  connectRedis,
  joinCluster,
  loadDatastoreFiles,
  MissingPackageError,
  serve,
  type ClusterOptions,
  type RedisParticipantOptions,
} from 'entistore'
import { startFixture } from 'entistore/fixture'
// Written by the installed CLI (`entistore types`) just before this file is compiled.
import type { Model } from './model-types.js'

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`pack smoke: ${what}`)
  console.log(`ok - ${what}`)
}

// The library: a datastore, writes and a query, with an injected clock. The model is written
// inline, so that the attribute kinds and types are checked against the model type's literal unions.
const ds = createDatastore(
  {
    dataClasses: [
      {
        name: 'Employee',
        attributes: [
          { name: 'ID', kind: 'storage', type: 'long', identifying: true, autosequence: true },
          { name: 'lastName', kind: 'storage', type: 'string', indexed: true },
          { name: 'salary', kind: 'storage', type: 'number' },
        ],
      },
    ],
  },
  { clock: new ManualClock(Date.UTC(2026, 0, 1)) },
)
ds.dataClass('Employee').create({ lastName: 'Smith', salary: 52000 })
ds.dataClass('Employee').create({ lastName: 'Jones', salary: 41000 })
const rich = ds.dataClass('Employee').query('salary > :1', 50000)
check(rich.length === 1 && rich.at(0)?.get('lastName') === 'Smith', 'core: create and query')

// One adapter: @entistore/rest/node on a real socket.
const rest = createRestHandler(ds)
const server: Server = createServer(toNodeListener(rest)).listen(0, '127.0.0.1')
await once(server, 'listening')
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const res = await fetch(`${base}/rest/Employee?$filter="salary>50000"`)
const body = (await res.json()) as { __COUNT: number; __ENTITIES: { lastName: string }[] }
check(res.status === 200 && body.__COUNT === 1, 'rest/node: $filter over HTTP')
server.close()

const [modelFile, dataFile] = process.argv.slice(2)
if (modelFile === undefined || dataFile === undefined)
  throw new Error('usage: smoke <model> <data>')

// Typed models: the generated types compile against the published .d.ts files.
const typed = createDatastore<Model>(
  JSON.parse(readFileSync(modelFile, 'utf8')) as ModelJsonDocument,
  { data: JSON.parse(readFileSync(dataFile, 'utf8')) as DataFile },
)
const salary: number | null | undefined = typed.dataClass('Employee').get(1)?.get('salary')
check(typeof salary === 'number', 'typed models: Employee(1).salary is a number')

// An optional peer: Express 5, installed by the scratch project as an app would.
const app = express()
app.use('/rest', expressRest(createRestHandler(typed)))
const expressServer = app.listen(0, '127.0.0.1')
await once(expressServer, 'listening')
const expressBase = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`
const one = await fetch(`${expressBase}/rest/Employee(1)`)
check(
  one.status === 200 && ((await one.json()) as { __KEY: string }).__KEY === '1',
  'rest/express: Employee(1) under app.use("/rest")',
)
expressServer.close()

// The fixture: a write over HTTP, then reset() puts the initial data back.
const fixture = await startFixture({ model: modelFile, data: dataFile })
const before = fixture.ds.dataClass('Employee').length
await fetch(`${fixture.url}/rest/Employee(1)?$method=delete`, { method: 'POST' })
const afterDelete = fixture.ds.dataClass('Employee').length
fixture.reset()
check(
  afterDelete === before - 1 && fixture.ds.dataClass('Employee').length === before,
  'fixture: reset() after a delete',
)
await fixture.close()

// The entistore package: files loaded and served the way the CLI does it.
const demo = await loadDatastoreFiles({ model: modelFile, data: dataFile })
const running = await serve(demo, { port: 0 })
const catalog = (await (await fetch(`${running.url}/rest/$catalog`)).json()) as {
  dataClasses: unknown[]
}
check(catalog.dataClasses.length > 0, 'entistore: serve() answers $catalog')
await running.close()

// pg and ioredis are optional peers, not installed here: the cluster's options still compile
// (entistore declares them, naming neither package's types), and the entry points say what to install.
const cluster: ClusterOptions = { postgres: { host: '127.0.0.1', port: 1, max: 2, ssl: false } }
const shared: RedisParticipantOptions = { url: 'redis://127.0.0.1:1', redis: { db: 1 } }
const missing = await Promise.all([
  joinCluster(createDatastore({ dataClasses: [] }), cluster).catch((e: unknown) => e),
  connectRedis(createDatastore({ dataClasses: [] }), shared).catch((e: unknown) => e),
])
check(
  missing.every((e) => e instanceof MissingPackageError) &&
    missing.map((e) => (e as Error).message).join('; ') ===
      'joinCluster needs the package pg: npm install pg; ' +
        'connectRedis needs the package ioredis: npm install ioredis',
  'entistore: joinCluster and connectRedis name the package to install',
)
