/**
 * @module `JSON Validate(vJson; vSchema)` (docs/commands-legacy/json-validate.md): checks a value
 * against a JSON Schema of draft 4, the draft 4D's implementation follows. The two values are
 * made plain JSON as `JSON Stringify` writes them (convert/json.ts: a date is its `YYYY-MM-DD`
 * text, a time its seconds), so that the schema sees what a JSON document would hold; the
 * keywords are json-schema.ts's.
 *
 * The answer is `{success: True}`, or `{success: False; errors: [{code; jsonPath; message;
 * schemaPaths}]}` with the page's codes and messages. `line` and `offset` are left out: they come
 * from `JSON Parse(…; *)`, whose positions this runtime does not keep. A schema that is not valid
 * (not an object, an unknown type name, a `$ref` that names nothing, a pattern that is not a
 * regex) raises an error, as "4D returns a Null object and throws an error that can be caught by
 * an on error call method" (with ON ERR CALL the assignment is skipped, so the variable stays
 * Null).
 */
import { invalid } from '../arguments/arguments.js'
import { fromJSON, stringify } from '../convert/json.js'
import { InvalidSchemaError, validateJson, type Json } from './json-schema.js'
import type { CommandSpec } from './table.js'

const NAME = 'JSON Validate'

/** A 4D value as plain JSON; Undefined (nothing to write) is null. */
function plain(v: unknown): Json {
  const text = stringify(v)
  return text === '' ? null : (JSON.parse(text) as Json)
}

export const JSON_VALIDATE_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1456,
    name: NAME,
    signature: '(vJson: Object; vSchema: Object): Object',
    impl: (_rt, json, schema) => {
      let errors
      try {
        errors = validateJson(plain(json), plain(schema))
      } catch (e) {
        if (!(e instanceof InvalidSchemaError)) throw e
        return invalid(NAME, 'vSchema', `the JSON schema is not valid: ${e.message}`)
      }
      return fromJSON(errors.length === 0 ? { success: true } : { success: false, errors })
    },
  },
]
