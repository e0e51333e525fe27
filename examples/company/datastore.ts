/**
 * The company demo (model.json and data.json beside this file) as a datastore, for the examples
 * that embed Entistore in a server of their own.
 */
import { fileURLToPath } from 'node:url'
import { loadDatastoreFiles, type Datastore } from 'entistore'

/** A fresh datastore holding the company demo. */
export function loadCompany(): Promise<Datastore> {
  const here = (name: string): string => fileURLToPath(new URL(name, import.meta.url))
  return loadDatastoreFiles({ model: here('model.json'), data: here('data.json') })
}
