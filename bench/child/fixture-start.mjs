// The test fixture's start-up, as a test file meets it (issue 79): a process that imports
// `entistore/fixture` (the built package, as `serve` runs the built CLI) and starts a fixture on a
// model and a data file, then prints its URL once ready, and holds it (as a suite would) until
// killed. Its start-up is measured as serve's, against the JSON.parse child.
import { startFixture } from 'entistore/fixture'

const fixture = await startFixture({ model: process.argv[2], data: process.argv[3] })
console.log(`fixture ready at ${fixture.url}`)
setInterval(() => {}, 1 << 30)
