/**
 * @module The String theme (docs/commands/theme/String.md; each command's page in
 * docs/commands-legacy/ or docs/commands/): `Length`, `Substring`, `Position`, `Replace string`,
 * `Change string`, `Insert string`, `Delete string`, `Uppercase`, `Lowercase`, `Char`,
 * `Character code`, `Split string`, `Trim`, `Trim start`, `Trim end`, `Compare strings`,
 * `Match regex`, `Localized string`, `String`
 * (with formats: format/string-command.ts) and `Num`.
 *
 * Positions count from 1 and in UTF-16 code units, as 4D's texts do. Where a page does not say,
 * out-of-range positions are brought back within the text (compat.md): `Substring` from a first
 * character below 1 starts at 1, a negative count gives "". `Position`'s `lengthFound` and
 * `Match regex`'s `pos_found` and `length_found` are written through the compiler's
 * OutParameters (arguments/out-parameter.ts; 0 when nothing is found); a plain value there raises "cannot
 * run here", never a silent 0. Arrays for the groups of `Match regex` do not run here.
 */
import { spend, type Passes } from '../values/passes.js'
import { toNum } from '../convert/conversions.js'
import { textToNumber } from '../convert/num-text.js'
import { Collection } from '../values/collection.js'
import { limits, splitWithin, withinLimit } from '../values/limits.js'
import {
  integerArg,
  invalid,
  isStar,
  optionalInteger,
  textArg,
  withoutStar,
} from '../arguments/arguments.js'
import { stringOf } from './format/string-command.js'
import { outArg } from '../arguments/out-parameter.js'
import { regexMatch } from './regex.js'
import type { CommandSpec } from './table.js'
import { byPieces, piecesSteps } from './text-pieces.js'
import { findText, KEYS, keyOfOptions, matchesOf } from './text-search.js'

const MARKS = /\p{M}/gu
const withoutAccents = (s: string): string => s.normalize('NFD').replace(MARKS, '').normalize('NFC')
// `Uppercase` and `Lowercase` of a piece: `*` keeps the accents.
const upper =
  (star: unknown) =>
  (p: string): string =>
    (isStar(star) ? p : withoutAccents(p)).toUpperCase()
const lower =
  (star: unknown) =>
  (p: string): string =>
    (isStar(star) ? p : withoutAccents(p)).toLowerCase()

const IGNORE_EMPTY = 1
const TRIM_SPACES = 2

// The texts keyed a piece at a time, each piece counted (text-pieces.ts); ICU's comparison is one
// native call, its length counted before.
function compareStrings(rt: Passes, a: string, b: string, options: number | undefined): number {
  if (options === undefined) {
    const x = byPieces(rt, a, KEYS.folded)
    const y = byPieces(rt, b, KEYS.folded)
    return x < y ? -1 : x > y ? 1 : 0
  }
  const { key } = keyOfOptions(options)
  if ((options & 1) !== 0) {
    const keyed = (p: string): string => [...p].map(key).join('')
    const x = byPieces(rt, a, keyed)
    const y = byPieces(rt, b, keyed)
    return x < y ? -1 : x > y ? 1 : 0
  }
  const ci = (options & 2) !== 0
  const di = (options & 4) !== 0
  const sensitivity = ci && di ? 'base' : ci ? 'accent' : di ? 'case' : 'variant'
  spend(rt, a.length + b.length)
  return Math.sign(new Intl.Collator('en', { sensitivity }).compare(a, b))
}

/**
 * `text.split(separator)`, each part a pass of the budget's (millions of parts take seconds), and
 * refused (9439) past the bound of elements as `splitWithin` refuses it. An empty separator (a
 * part a character) is one native split, its length counted before.
 */
function splitCounted(rt: Passes, text: string, separator: string): string[] {
  if (separator === '') {
    spend(rt, text.length)
    return splitWithin(text, separator)
  }
  const max = limits().elements
  const parts: string[] = []
  let from = 0
  for (let at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, from)) {
    if (--rt.ticks < 0) rt.tick()
    if (parts.length + 1 >= max) withinLimit('elements', 'A collection', parts.length + 2)
    parts.push(text.slice(from, at))
    from = at + separator.length
  }
  parts.push(text.slice(from))
  return parts
}

export const STRING_COMMANDS: readonly CommandSpec[] = [
  {
    number: 16,
    name: 'Length',
    signature: '(text: Text): Integer',
    impl: (_rt, v) => textArg('Length', 'text', v).length,
  },
  {
    number: 12,
    name: 'Substring',
    signature: '(source: Text; firstChar: Integer; numChars?: Integer): Text',
    impl: (_rt, source, first, count) => {
      const s = textArg('Substring', 'source', source)
      const from = Math.max(1, integerArg('Substring', 'firstChar', first)) - 1
      const n = optionalInteger('Substring', 'numChars', count, s.length)
      return n <= 0 ? '' : s.substr(from, n)
    },
  },
  {
    number: 15,
    name: 'Position',
    signature:
      '(find: Text; aString: Text; start?: Integer; lengthFound?: any; optionsOrStar?: any): Integer',
    writes: [3],
    impl: (rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [find, text, start, given, options] = args
      const lengthFound = args.length > 3 ? outArg('Position', 'lengthFound', given) : undefined
      const f = textArg('Position', 'find', find)
      const s = textArg('Position', 'aString', text)
      const from = Math.max(1, optionalInteger('Position', 'start', start, 1)) - 1
      const mode =
        options === undefined
          ? { key: star ? KEYS.exact : KEYS.folded, wholeWord: false }
          : keyOfOptions(integerArg('Position', 'options', options))
      const match = findText(f, s, from, mode.key, mode.wholeWord, rt)
      lengthFound?.set(match?.length ?? 0)
      return match === undefined ? 0 : match.index + 1
    },
  },
  {
    number: 233,
    name: 'Replace string',
    signature: '(source: Text; oldString: Text; newString: Text; howMany?: any; star?: any): Text',
    impl: (rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [source, oldString, newString, howMany] = args
      const s = textArg('Replace string', 'source', source)
      const old = textArg('Replace string', 'oldString', oldString)
      const replacement = textArg('Replace string', 'newString', newString)
      let left = howMany === undefined ? Infinity : integerArg('Replace string', 'howMany', howMany)
      if (left <= 0) return s
      const key = star ? KEYS.exact : KEYS.folded
      let out = ''
      let from = 0
      for (const m of matchesOf(old, s, 0, key, false, rt)) {
        out += s.slice(from, m.index) + replacement
        from = m.index + Math.max(1, m.length)
        // Each match is a pass of the budget's (context/budget.ts): a long text ends at it.
        if (--rt.ticks < 0) rt.tick()
        if (--left <= 0) break
      }
      return out + s.slice(from)
    },
  },
  {
    number: 234,
    name: 'Change string',
    signature: '(source: Text; newChars: Text; where: Integer): Text',
    impl: (_rt, source, newChars, where) => {
      const s = textArg('Change string', 'source', source)
      const chars = textArg('Change string', 'newChars', newChars)
      const at = integerArg('Change string', 'where', where)
      if (chars === '' || at < 1 || at > s.length) return s
      return (s.slice(0, at - 1) + chars + s.slice(at - 1 + chars.length)).slice(0, s.length)
    },
  },
  {
    number: 231,
    name: 'Insert string',
    signature: '(source: Text; what: Text; where: Integer): Text',
    impl: (_rt, source, what, where) => {
      const s = textArg('Insert string', 'source', source)
      const w = textArg('Insert string', 'what', what)
      const at = Math.min(Math.max(1, integerArg('Insert string', 'where', where)), s.length + 1)
      return s.slice(0, at - 1) + w + s.slice(at - 1)
    },
  },
  {
    number: 232,
    name: 'Delete string',
    signature: '(source: Text; where: Integer; numChars: Integer): Text',
    impl: (_rt, source, where, numChars) => {
      const s = textArg('Delete string', 'source', source)
      let at = integerArg('Delete string', 'where', where)
      let n = integerArg('Delete string', 'numChars', numChars)
      if (s === '' || at > s.length || n <= 0) return s
      if (at < 1) {
        n += at - 1
        at = 1
      }
      return n <= 0 ? s : s.slice(0, at - 1) + s.slice(at - 1 + n)
    },
  },
  // 4D 21 (docs/commands/trim.md, trim-start.md, trim-end.md): ECMAScript's TrimString.
  {
    number: 1853,
    name: 'Trim',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim', 'aString', v).trim(),
  },
  {
    number: 1854,
    name: 'Trim start',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim start', 'aString', v).trimStart(),
  },
  {
    number: 1855,
    name: 'Trim end',
    signature: '(aString: Text): Text',
    impl: (_rt, v) => textArg('Trim end', 'aString', v).trimEnd(),
  },
  {
    number: 13,
    name: 'Uppercase',
    signature: '(aString: Text; star?: any): Text',
    impl: (rt, v, star) => byPieces(rt, textArg('Uppercase', 'aString', v), upper(star)),
    steps: (rt, v, star) => piecesSteps(rt, textArg('Uppercase', 'aString', v), upper(star)),
  },
  {
    number: 14,
    name: 'Lowercase',
    signature: '(aString: Text; star?: any): Text',
    impl: (rt, v, star) => byPieces(rt, textArg('Lowercase', 'aString', v), lower(star)),
    steps: (rt, v, star) => piecesSteps(rt, textArg('Lowercase', 'aString', v), lower(star)),
  },
  {
    number: 90,
    name: 'Char',
    signature: '(charCode: Integer): Text',
    impl: (_rt, v) => {
      const code = integerArg('Char', 'charCode', v)
      if (code < 0 || code > 0xffff)
        return invalid('Char', 'charCode', `${code} is not a UTF-16 code`)
      return String.fromCharCode(code)
    },
  },
  {
    number: 91,
    name: 'Character code',
    signature: '(character: Text): Integer',
    impl: (_rt, v) => {
      const s = textArg('Character code', 'character', v)
      return s === '' ? 0 : s.charCodeAt(0)
    },
  },
  {
    number: 1554,
    name: 'Split string',
    signature: '(stringToSplit: Text; separator: Text; options?: Integer): Collection',
    impl: (rt, text, separator, options) => {
      const s = textArg('Split string', 'stringToSplit', text)
      const sep = textArg('Split string', 'separator', separator)
      const o = optionalInteger('Split string', 'options', options, 0)
      // An empty text gives no substring: CollectionClass.md's flatMap() example maps "" to [].
      let parts = s === '' ? [] : splitCounted(rt, s, sep)
      if ((o & TRIM_SPACES) !== 0)
        parts = parts.map((p) => {
          if (--rt.ticks < 0) rt.tick()
          return p.trim()
        })
      if ((o & IGNORE_EMPTY) !== 0) parts = parts.filter((p) => p !== '')
      return new Collection(parts)
    },
  },
  {
    number: 1756,
    name: 'Compare strings',
    signature: '(aString: Text; bString: Text; options?: Integer): Integer',
    impl: (rt, a, b, options) =>
      compareStrings(
        rt,
        textArg('Compare strings', 'aString', a),
        textArg('Compare strings', 'bString', b),
        options === undefined ? undefined : integerArg('Compare strings', 'options', options),
      ),
  },
  {
    number: 1019,
    name: 'Match regex',
    signature: '(pattern: Text; aString: Text; start?: Integer; ...posLengthStar: any): Boolean',
    writes: [3, 4],
    impl: (_rt, ...all) => {
      const { args, star } = withoutStar(all)
      const [pattern, text, start, posGiven, lengthGiven] = args
      const pos = args.length > 3 ? outArg('Match regex', 'pos_found', posGiven) : undefined
      const length =
        args.length > 3 ? outArg('Match regex', 'length_found', lengthGiven) : undefined
      const found = regexMatch(
        textArg('Match regex', 'pattern', pattern),
        textArg('Match regex', 'aString', text),
        start === undefined ? undefined : integerArg('Match regex', 'start', start),
        star,
      )
      pos?.set(found === undefined ? 0 : found.index + 1)
      length?.set(found === undefined ? 0 : found.length)
      return found !== undefined
    },
  },
  {
    number: 991,
    name: 'Localized string',
    aliases: ['Get localized string'],
    signature: '(resName: Text): Text',
    // No XLIFF file is read yet: the name stands for its text, so messages stay readable.
    impl: (_rt, v) => textArg('Localized string', 'resName', v),
  },
  {
    number: 10,
    name: 'String',
    signature: '(expression: any; format?: any; addTime?: any): Text',
    impl: (_rt, v, format, addTime) => stringOf(v, format, addTime),
  },
  {
    number: 11,
    name: 'Num',
    signature: '(expression: any; separatorOrBase?: any): Real',
    impl: (rt, v, separator) => {
      if (typeof separator === 'number' && typeof v === 'string') {
        const base = integerArg('Num', 'base', separator)
        const n = Number.parseInt(v, base === 0 ? undefined : base)
        return Number.isNaN(n) ? 0 : n
      }
      const sep = separator === undefined ? undefined : textArg('Num', 'separator', separator)
      // A text is read a character at a time, each a pass of the budget's.
      return typeof v === 'string' ? textToNumber(v, sep, rt) : toNum(v, sep)
    },
  },
]
