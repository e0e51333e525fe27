/**
 * @module `getGlobalStamp` and `setGlobalStamp` as REST functions, for a project that chooses to
 * expose them. They are methods of every datastore (`ds.getGlobalStamp()`), but, as in 4D, not
 * functions a REST client may call: 4D's DataStore class built-ins run on the server only, and
 * REST reaches only the functions a project's classes mark `exposed`. A client that syncs keeps the
 * `__GlobalStamp` of each selection's reply; a reader that could call `setGlobalStamp` could set
 * the stamp back and make every sync client miss changes.
 *
 * A project that wants them over REST puts them among its datastore functions, one or both, where
 * the roles file's `execute` permissions apply to them as to any function:
 *
 * ```ts
 * defineFunctions({ dataStore: { getGlobalStamp: globalStampFunctions.getGlobalStamp } })
 * // GET /rest/$catalog/getGlobalStamp → {"result": 57}
 * ```
 */
import { fail } from '../../errors/datastore-error.js'
import type { FunctionDef } from '../../functions/define.js'

/** What the two functions need of the datastore they run on. */
interface Stamped {
  getGlobalStamp(): number
  setGlobalStamp(stamp: number): void
}

/**
 * The two functions, exposed: `GET /rest/$catalog/getGlobalStamp` (`{"result": 57}`) and
 * `POST /rest/$catalog/setGlobalStamp` with `[1000]`. Given to no datastore unless a project
 * puts them in its `dataStore` functions.
 */
export const globalStampFunctions: {
  readonly getGlobalStamp: FunctionDef<Stamped>
  readonly setGlobalStamp: FunctionDef<Stamped>
} = {
  getGlobalStamp: {
    exposed: true,
    onHTTPGet: true,
    params: [],
    call(this: Stamped) {
      return this.getGlobalStamp()
    },
  },
  setGlobalStamp: {
    exposed: true,
    params: ['integer'],
    call(this: Stamped, stamp: number) {
      // A client's mistake is a 400 naming the parameter, not the method's RangeError.
      if (!Number.isSafeInteger(stamp) || stamp < 0)
        fail('InvalidParameter', ['stamp', String(stamp), 'a non-negative integer'])
      this.setGlobalStamp(stamp)
    },
  },
}
