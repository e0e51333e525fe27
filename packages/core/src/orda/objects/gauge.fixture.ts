/**
 * @module For the tests of an entity's events (validation-status.test.ts, save-steps.test.ts): a
 * dataclass Gauge (an `ID` by autosequence, a `label`, a `level`) with the events a test gives it,
 * holding the rows it gives.
 */
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import { defineFunctions, type EntityEventDefs } from './define-functions.js'

const GAUGE_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Gauge',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'label', type: 'string' },
        { name: 'level', type: 'long' },
      ],
    },
  ],
}

/** A Gauge's row. */
export interface GaugeRow {
  readonly ID: number
  readonly label: string
  readonly level: number
}

/** A datastore whose Gauges have `events` and hold `rows`. */
export function gaugeStore(events: EntityEventDefs, rows: readonly GaugeRow[]) {
  const functions = defineFunctions({ dataClasses: { Gauge: { events } } })
  return createDatastore(GAUGE_MODEL, { functions, data: { Gauge: rows } })
}
