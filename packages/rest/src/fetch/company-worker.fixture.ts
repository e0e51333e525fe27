/**
 * @module The conformance suite's company handler as a module Bun and Deno serve
 * (`export default { fetch }`), so that runtimes.test.ts can check the fetch adapter in the
 * runtimes it is for against the node listener. Bun runs it on the sources (`--conditions=source`),
 * Deno on the built packages: hence the packages imported by their names, and the `.ts` specifier
 * Deno needs for a local file.
 */
import { toFetchHandler } from '@entistore/rest/fetch'
import { companyRest } from '../node/company-rest.fixture.ts'

export default { fetch: toFetchHandler(companyRest()) }
