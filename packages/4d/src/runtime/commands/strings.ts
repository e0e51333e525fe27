/**
 * @module Text commands (docs/commands/length.md, uppercase.md, lowercase.md) and the casts
 * `String`, `Num` and `Bool` without a format (their rules are convert/conversions.ts's).
 */
import { toBool, toNum, toText } from '../convert/conversions.js'
import { raise } from '../errors/fourd-error.js'
import { textArg } from './arguments.js'
import type { CommandSpec } from './table.js'

export const STRING_COMMANDS: readonly CommandSpec[] = [
  {
    number: 16,
    name: 'Length',
    signature: '(text: Text): Integer',
    impl: (_rt, v) => textArg('Length', 'text', v).length,
  },
  {
    number: 13,
    name: 'Uppercase',
    signature: '(text: Text; star?: any): Text',
    impl: (_rt, v) => textArg('Uppercase', 'text', v).toUpperCase(),
  },
  {
    number: 14,
    name: 'Lowercase',
    signature: '(text: Text; star?: any): Text',
    impl: (_rt, v) => textArg('Lowercase', 'text', v).toLowerCase(),
  },
  {
    number: 10,
    name: 'String',
    signature: '(expression: any; format?: any; addTime?: any): Text',
    impl: (_rt, v, ...format) =>
      format.length === 0 ? toText(v) : raise('NotImplemented', { name: 'String with a format' }),
  },
  {
    number: 11,
    name: 'Num',
    signature: '(expression: any; separator?: Text): Real',
    impl: (_rt, v, separator) =>
      toNum(v, separator === undefined ? undefined : textArg('Num', 'separator', separator)),
  },
  {
    number: 1537,
    name: 'Bool',
    signature: '(expression: any): Boolean',
    impl: (_rt, v) => toBool(v),
  },
]
