/**
 * `entistore/msw` from the packed tarballs, with msw installed beside them (../pack-smoke.sh): a
 * front end's flows answered by `setupServer` in Node, with no server process: the catalog, a
 * login and what it opens (a filtered read, a create and its read), an entity set, the reset; and
 * the car rental bundled by the installed `entistore bundle` (project.js beside this script), its
 * class functions answered by `projectHandlers`. msw 3 runs on Node 22 and later: on an older
 * Node this says so and checks nothing.
 */
import { readFileSync } from 'node:fs'

if (Number(process.versions.node.split('.')[0]) < 22) {
  console.log(`msw smoke: msw 3 needs Node 22 or later, not ${process.version}: skipped`)
  process.exit(0)
}
// Imported once the Node version is known to be one msw runs on.
const { createDatastore } = await import('@entistore/core')
const { projectHandlers, restHandlers } = await import('entistore/msw')
const { setupServer } = await import('msw/node')

// The shop of packages/entistore/src/browser/shop.json, copied beside this script.
const { model, data } = JSON.parse(readFileSync(new URL('./shop.json', import.meta.url), 'utf8'))
const API = 'https://api.shop.test'
const handlers = restHandlers(createDatastore(model, { data }), {
  baseUrl: API,
  authenticate: ({ password }) => (password === 'secret' ? { name: 'ada' } : null),
  forceLogin: true,
})
const server = setupServer(...handlers)
server.listen()

const failures = []
const check = (what, ok) => {
  if (!ok) failures.push(what)
}
const call = async (path, init = {}) => {
  const res = await fetch(`${API}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  })
  return { status: res.status, body: await res.json() }
}
try {
  check('the catalog', (await call('/rest/$catalog')).status === 200)
  check('a read before the login is refused', (await call('/rest/Item')).status === 401)
  const login = await call('/rest/$directory/login', {
    method: 'POST',
    body: '{}',
    headers: { 'username-4d': 'ada', 'password-4d': 'secret' },
  })
  check('the login', login.status === 200)
  const cheap = await call(`/rest/Item?$filter="price<3"`)
  check('a filtered read as the session', cheap.body.__COUNT === 1)
  const made = await call('/rest/Item?$method=update', {
    method: 'POST',
    body: JSON.stringify({ name: 'nib', price: 1 }),
  })
  check(
    'a create',
    made.status === 200 && (await call(`/rest/Item(${made.body.__KEY})`)).body.name === 'nib',
  )
  const set = await call(`/rest/Item?$filter="price<9"&$method=entityset`)
  const uri = String(set.body.__ENTITYSET)
  check('an entity set', (await call(uri.slice(uri.indexOf('/rest/')))).body.__COUNT === 4)
  handlers.reset()
  check('the reset forgets the session', (await call('/rest/Item')).status === 401)
  // The car rental as `entistore bundle` wrote it, on an origin of its own.
  const project = (await import('./project.js')).default
  server.use(...(await projectHandlers(project, { baseUrl: 'https://rental.test' })))
  const hello = await fetch('https://rental.test/rest/$catalog/sayHello', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '["Ada","Lovelace"]',
  })
  check("the bundled project's class function", (await hello.text()).includes('Ada'))
} finally {
  server.close()
}
if (failures.length > 0) {
  console.log(`msw smoke: failed: ${failures.join(', ')}`)
  process.exit(1)
}
console.log(
  "msw smoke: setupServer answered the catalog, a login, reads, a create, an entity set, the reset and a bundled project's class function",
)
