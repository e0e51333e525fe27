/**
 * @module For tests: a datastore whose one calculated attribute runs the test's own function, to
 * make a read fail where the test wants (a fixture: not part of the built package).
 */
import { createDatastore, type CalculatedFn, type DataFile, type Datastore } from '@entistore/core'

/** Dataclass `T`: entities with IDs 1 to `rows`, and a calculated `c` of `type` that runs `compute`. */
export function withCalculated(
  compute: CalculatedFn,
  options: { readonly rows?: number; readonly type?: 'long' | 'string' } = {},
): Datastore {
  const rows = Array.from({ length: options.rows ?? 1 }, (_, i) => ({ ID: i + 1 }))
  return createDatastore(
    {
      __NAME: 'x',
      dataClasses: [
        {
          name: 'T',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'c', kind: 'calculated', type: options.type ?? 'long' },
          ],
        },
      ],
    },
    { data: { T: rows } as DataFile, calculated: { T: { c: compute } } },
  )
}
