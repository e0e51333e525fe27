/**
 * @module `getGlobalStamp` and `setGlobalStamp` as datastore functions, so that a REST client of a
 * datastore that tracks changes calls them as any function of 4D's DataStore class:
 * `GET /rest/$catalog/getGlobalStamp` (`{"result": 57}`), `POST /rest/$catalog/setGlobalStamp`
 * with `[1000]`. They go through the same permissions as any function: a roles file that gives no
 * `execute` on `setGlobalStamp` refuses it. A function of the same name the application defines
 * wins.
 */
import type { FunctionsDef } from './define-functions.js'
import type { SchemaDef } from '../schema/definitions.js'
import { DELETED_RECORDS } from '../schema/change-tracking.js'
import type { Datastore } from './datastore.js'
import { fail } from '../errors/datastore-error.js'

/** `functions` with the global stamp's functions added, when `schema` tracks changes. */
export function withGlobalStampFunctions(
  schema: SchemaDef,
  functions: FunctionsDef | undefined,
): FunctionsDef | undefined {
  if (!schema.byName.has(DELETED_RECORDS)) return functions
  return {
    ...functions,
    dataStore: {
      getGlobalStamp: {
        exposed: true,
        onHTTPGet: true,
        params: [],
        call(this: Datastore) {
          return this.getGlobalStamp()
        },
      },
      setGlobalStamp: {
        exposed: true,
        params: ['integer'],
        call(this: Datastore, stamp: number) {
          if (!Number.isSafeInteger(stamp) || stamp < 0)
            fail('InvalidParameter', ['stamp', String(stamp), 'a non-negative integer'])
          this.setGlobalStamp(stamp)
        },
      },
      ...functions?.dataStore,
    },
  }
}
