// The plain-JS limit of the HTTP suite's long rows (issue 31): a hand-written node:http server
// that holds the Items of an items data file in a Map by ID and a Map of ID-ordered lists by
// groupID, and answers the suite's two Item requests with the same JSON entistore writes (same
// members, same order, each reply built and JSON.stringify-d per request, as any server of live
// data must):
//   GET /rest/Item(<ID>)
//   GET /rest/Item?$filter="groupID=<g>"&$top=50   (the group's first 50 Items by ID, its count)
// Nothing else: it is a baseline, not a server. Usage: node plain-item-server.mjs <data.json>
// Prints `plain JS at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { servePlain } from './plain-serve.mjs'

const items = JSON.parse(readFileSync(process.argv[2], 'utf8')).Item
const byId = new Map(items.map((x) => [x.ID, x]))
const byGroup = new Map()
for (const x of items.slice().sort((a, b) => a.ID - b.ID)) {
  const list = byGroup.get(x.groupID)
  if (list) list.push(x)
  else byGroup.set(x.groupID, [x])
}
const timestamp = new Date().toISOString()

// Model order: ID, name, groupID, group (the relation), price, qty, created (a date-only value,
// written between `!!`), body.
const entity = (x) => ({
  __KEY: String(x.ID),
  __TIMESTAMP: timestamp,
  __STAMP: 1,
  ID: x.ID,
  name: x.name,
  groupID: x.groupID,
  group: { __deferred: { uri: `/rest/Group[${x.groupID}]`, __KEY: String(x.groupID) } },
  price: x.price,
  qty: x.qty,
  created: x.created === null ? null : `!!${x.created}!!`,
  body: x.body,
})

const KEY = /^\/rest\/Item\((\d+)\)$/
const GROUP = /^"groupID=(\d+)"$/

function answer(url) {
  const q = url.indexOf('?')
  if (q < 0) {
    const x = byId.get(Number(KEY.exec(url)?.[1]))
    return x && JSON.stringify({ __entityModel: 'Item', __DATACLASS: 'Item', ...entity(x) })
  }
  if (url.slice(0, q) !== '/rest/Item') return undefined
  const params = new URLSearchParams(url.slice(q + 1))
  const group = GROUP.exec(params.get('$filter') ?? '')
  const top = Number(params.get('$top'))
  if (!group || !(top > 0)) return undefined
  const found = byGroup.get(Number(group[1])) ?? []
  const sent = found.slice(0, top)
  return JSON.stringify({
    __DATACLASS: 'Item',
    __entityModel: 'Item',
    __GlobalStamp: 0,
    __COUNT: found.length,
    __FIRST: 0,
    __ENTITIES: sent.map(entity),
    __SENT: sent.length,
  })
}

servePlain(answer)
