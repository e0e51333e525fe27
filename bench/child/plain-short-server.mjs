// The plain-JS limit of issue 19's short-row requests: a hand-written node:http server that holds
// the Persons of a short-row data file in a Map by ID, a Map by code and an array sorted by code,
// and answers the HTTP suite's four requests with the same JSON entistore writes (same members,
// same order, each reply built and JSON.stringify-d per request, as any server of live data must):
//   GET /rest/Person(<ID>)
//   GET /rest/Person?$filter="code='<code>'"
//   GET /rest/Person?$filter="code>='<from>' AND code<'<to>'"   (the rows in between, by ID)
//   GET /rest/Person?$filter="salary=<s>"                        (every row compared, by ID)
// Nothing else: it is a baseline, not a server. Usage: node plain-short-server.mjs <data.json>
// Prints `plain JS at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { servePlain } from './plain-serve.mjs'

const people = JSON.parse(readFileSync(process.argv[2], 'utf8')).Person
const byId = new Map(people.map((p) => [p.ID, p]))
const byCode = new Map(people.map((p) => [p.code, p]))
const sorted = people.slice().sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
const timestamp = new Date().toISOString()

const entity = (p) => ({
  __KEY: String(p.ID),
  __TIMESTAMP: timestamp,
  __STAMP: 1,
  ...p,
  group: { __deferred: { uri: `/rest/Group[${p.groupID}]`, __KEY: String(p.groupID) } },
})
const list = (found) =>
  JSON.stringify({
    __DATACLASS: 'Person',
    __entityModel: 'Person',
    __GlobalStamp: 0,
    __COUNT: found.length,
    __FIRST: 0,
    __ENTITIES: found.map(entity),
    __SENT: found.length,
  })

/** The first row of `sorted` whose code is not below `code`. */
function lowerBound(code) {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid].code < code) lo = mid + 1
    else hi = mid
  }
  return lo
}

const KEY = /^\/rest\/Person\((\d+)\)$/
const EQUAL = /^"code='([^']*)'"$/
const RANGE = /^"code>='([^']*)' AND code<'([^']*)'"$/
const SCAN = /^"salary=([0-9.]+)"$/

function answer(url) {
  const q = url.indexOf('?')
  if (q < 0) {
    const p = byId.get(Number(KEY.exec(url)?.[1]))
    return p && JSON.stringify({ __entityModel: 'Person', __DATACLASS: 'Person', ...entity(p) })
  }
  const filter = new URLSearchParams(url.slice(q + 1)).get('$filter') ?? ''
  const equal = EQUAL.exec(filter)
  if (equal) {
    const p = byCode.get(equal[1])
    return list(p ? [p] : [])
  }
  const scan = SCAN.exec(filter)
  if (scan) {
    const salary = Number(scan[1])
    return list(people.filter((p) => p.salary === salary))
  }
  const range = RANGE.exec(filter)
  if (!range) return undefined
  const found = sorted.slice(lowerBound(range[1]), lowerBound(range[2]))
  return list(found.sort((a, b) => a.ID - b.ID))
}

servePlain(answer)
