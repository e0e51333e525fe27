/**
 * @module The model of the pool's index-build tests and bench: Item with a key, a number `score`
 * and more attributes, each indexed (`name: type`).
 */
import type { ModelJson } from '../schema/model-json.js'
import type { ValueType } from '../values/value-types.js'

export const scoredItems = (more: Readonly<Record<string, string>> = {}): ModelJson => ({
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'score', type: 'number', indexed: true },
        ...Object.entries(more).map(([name, type]) => ({
          name,
          type: type as ValueType,
          indexed: true,
        })),
      ],
    },
  ],
})
