/** @module For tests of a table's key order: a dataclass keyed by a number, with one value. */
import type { ModelJson } from '../schema/model-json.js'

export const KEY_ORDER_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'T',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'long' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}
