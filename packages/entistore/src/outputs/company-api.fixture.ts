/**
 * @module The company demo's files and its OpenAPI description, as `serve` with the demo's model
 * and functions serves it. The TypeScript types openapi-typescript makes of that description are
 * checked in as generated/company-api.d.ts, so that the client test's calls are checked by the
 * compiler against it; tools/release/openapi-check.mjs compares them with a fresh generation
 * (`npm run openapi:check`) and writes them again (`npm run gen -w entistore`): openapi-typescript
 * is one of the release tools, kept out of the repository's own install.
 */
import { fileURLToPath } from 'node:url'
import { openApiDocument } from '@entistore/rest'
import { loadDatastoreFiles } from '../load/load-files.js'

const root = new URL('../../../../', import.meta.url)
export const COMPANY_MODEL = fileURLToPath(new URL('examples/company/model.json', root))
export const COMPANY_DATA = fileURLToPath(new URL('examples/company/data.json', root))
export const COMPANY_FUNCTIONS = fileURLToPath(new URL('examples/company/functions.js', root))

/** The demo's description, as `serve` with the demo's model and functions serves it. */
export async function companyDescription(): Promise<object> {
  const ds = await loadDatastoreFiles({ model: COMPANY_MODEL, functions: COMPANY_FUNCTIONS })
  return openApiDocument(ds)
}
