/**
 * @module Object and collection commands (docs/commands/new-object.md, new-collection.md,
 * commands-legacy/json-stringify.md): built on the literals' and JSON's rules (ops/literals.ts,
 * convert/json.ts), so `New object("a";1)` and `{a: 1}` make the same object.
 */
import { stringify } from '../convert/json.js'
import { raise } from '../errors/fourd-error.js'
import { collectionOf, objectOf } from '../ops/literals.js'
import { typeName } from '../values/kinds.js'
import { SYMBOLS, type CommandSpec } from './table.js'

export const OBJECT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1471,
    name: 'New object',
    signature: '(...propertiesAndValues: any): Object',
    impl: (_rt, ...pairs) => {
      for (let i = 0; i < pairs.length; i += 2)
        if (typeof pairs[i] !== 'string')
          raise('WrongParameterType', {
            parameter: 'property',
            command: 'New object',
            expected: 'Text',
            actual: typeName(pairs[i]),
          })
      return objectOf(...pairs)
    },
  },
  {
    number: 1472,
    name: 'New collection',
    signature: '(...values: any): Collection',
    impl: (_rt, ...items) => collectionOf(...items),
  },
  {
    number: 1217,
    name: 'JSON Stringify',
    signature: '(value: any; star?: any): Text',
    impl: (_rt, v, star) => stringify(v, star === SYMBOLS['*']),
  },
]
