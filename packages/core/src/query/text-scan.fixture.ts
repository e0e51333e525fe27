/**
 * @module The model of the text-scan tests: one dataclass, `Doc`, whose `body` text has no index
 * (scanned, through its folded column). Types only from the core, so that a test counting the
 * core's work can still import the core after counting starts (tools/work-meter.ts).
 */
import type { ModelJson } from '../schema/model-json.js'

export const DOC_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'body', type: 'string' },
      ],
    },
  ],
}
