/** @module What a computed read (`$compute`, `$distinct`) receives from the router. */
import type { DataClass, EntitySelection } from '@entistore/core'
import type { Window } from '../serialize/selection.js'
import type { RestParams } from '../url/params.js'

export interface ComputedRead {
  readonly dc: DataClass
  /** The entities the request names, `$filter` applied (in no particular order). */
  readonly selection: EntitySelection
  /**
   * The attribute paths the request names: in the path (`/rest/Employee/salary?$compute=sum`) or in
   * `$attributes` (Qodly's form). The first step of each was checked to be a visible attribute.
   */
  readonly paths: readonly string[] | undefined
  /** `$skip` and `$top` (the dataclass's default page size when `$top` is absent). */
  readonly window: Window
  readonly params: RestParams
}
