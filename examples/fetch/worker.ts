/**
 * The REST interface as a module in the shape Bun, Deno and service-worker runtimes serve:
 * `export default { fetch }`. On Node, server.ts serves this same module.
 *
 *   bun run examples/fetch/worker.ts
 *   deno serve --allow-read --allow-env examples/fetch/worker.ts
 */
import { createRestHandler } from 'entistore'
import { toFetchHandler } from '@entistore/rest/fetch'
import { loadCompany } from '../company/datastore.ts'

const rest = createRestHandler(await loadCompany()) // basePath: '/rest'

export default { fetch: toFetchHandler(rest) }
