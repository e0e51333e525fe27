// PROCESS 4D TAGS on any text: a template with no tag in it comes out as it went in, and what
// 4DTEXT inserts never holds a `<` or a `>` (transformation-tags.md: "special HTML characters such
// as ">" are automatically escaped"), so that nothing it inserts is read as markup or as a tag.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileFormulaText } from '../../compile/formula-text.js'
import { outParameter } from '../arguments/out-parameter.js'
import { Runtime } from '../index.js'
import { COMMANDS } from './index.js'
import { escapeHtml } from './process-4d-tags.js'

const rt = new Runtime({ compileFormula: compileFormulaText })

/** The command run on `template` with `params`: what it writes to its output variable. */
function processTags(template: string, ...params: unknown[]): unknown {
  let output: unknown
  const out = outParameter(
    () => output,
    (v) => (output = v),
  )
  COMMANDS.byName('PROCESS 4D TAGS')!.impl!(rt, template, out, ...params)
  return output
}

/** Texts made of the characters tags are made of, and others, with no `<!--#` and no `$4D` in them. */
const plain = fc
  .string({
    unit: fc.constantFrom(
      '<',
      '!',
      '-',
      '#',
      '$',
      '4',
      'D',
      'T',
      '(',
      ')',
      '>',
      'a',
      ' ',
      '\n',
      'é',
      '"',
    ),
  })
  .filter((s) => !s.includes('<!--#') && !s.toUpperCase().includes('$4D'))

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), plain)

describe('PROCESS 4D TAGS', () => {
  it('gives a text without `<!--#` and `$4D` back unchanged', () => {
    fc.assert(
      fc.property(plain, (text) => {
        expect(processTags(text)).toBe(text)
      }),
      { numRuns: 1000 },
    )
  })

  it('4DTEXT of any text leaves no `<` or `>` unescaped, and the text is read back from it', () => {
    const unescape = (s: string) =>
      s.replace(
        /&(lt|gt|quot|amp);/g,
        (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[e]!,
      )
    fc.assert(
      fc.property(anyText, (text) => {
        for (const template of ['<!--#4DTEXT $1-->', '$4DTEXT($1)']) {
          const result = processTags(template, text) as string
          // An empty result gives the template back (process-4d-tags.md).
          if (text === '') continue
          expect(result).not.toMatch(/[<>]/)
          expect(unescape(result)).toBe(text)
          expect(result).toBe(escapeHtml(text))
        }
      }),
      { numRuns: 500 },
    )
  })
})
