/**
 * @module For tests of the node transport: a store of big documents whose replies take many chunks,
 * with a hook called for each entity rendered, and a wait for a condition (a fixture: not built).
 */
import { createDatastore, ManualClock, type DataFile, type Datastore } from '@entistore/core'

export const DOCS = 20_000
export const TEXT = 'x'.repeat(1000)

/**
 * `DOCS` documents of 1 KB each. `seen`, a calculated attribute, calls `onRender` for every entity
 * rendered (its return value is the attribute's value): tests count or fail renders with it.
 */
export function docsDatastore(onRender: () => number): Datastore {
  return createDatastore(
    {
      __NAME: 'docs',
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'text', type: 'string' },
            { name: 'seen', kind: 'calculated', type: 'long' },
          ],
        },
      ],
    },
    {
      data: {
        Doc: Array.from({ length: DOCS }, (_, i) => ({ ID: i + 1, text: TEXT })),
      } as unknown as DataFile,
      clock: new ManualClock(),
      calculated: { Doc: { seen: onRender } },
    },
  )
}

/** Waits (polling every 10 ms, at most 10 s) until `check()` holds. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
