/**
 * @module The security property (research §8.9): programs built from hostile pieces — names of
 * JavaScript globals and of the compiler's own variables, texts with quotes, backslashes, `*\/`,
 * U+2028, code — compile to functions that name nothing but their parameters (read with the
 * TypeScript parser, identifiers.fixture.ts) in every generation mode, and run with 4D's meaning:
 * each variable holds what was last assigned to it (names compared without case), each property
 * what was assigned to it, in the order properties were made.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { Collection } from '../runtime/values/collection.js'
import { generatedSources } from './generated.fixture.js'
import { problemsOf } from './identifiers.fixture.js'
import { run4d } from './run4d.js'

const HOSTILE_WORDS = [
  'constructor',
  '__proto__',
  'prototype',
  'globalThis',
  'process',
  'require',
  'eval',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'arguments',
  'rt',
  'th',
  'ag',
  'cx',
  'df',
  'ln',
  'v0',
  't0',
  'l0',
  'e0',
]

const HOSTILE_TEXTS = [
  '*/',
  '/*',
  '"',
  '\\',
  "'",
  '`',
  '${x}',
  '\u2028',
  '\u2029',
  '\ud800',
  '"); process.exit(1); ("',
  '*/ globalThis.pwned = 1 /*',
  '</script>',
  '\\u0022',
]

const name = fc.oneof(
  fc.constantFrom(...HOSTILE_WORDS),
  fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,6}$/),
)
const text = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXTS),
  fc.string({ maxLength: 8 }),
  fc.array(fc.constantFrom(...HOSTILE_TEXTS), { maxLength: 3 }).map((a) => a.join('')),
)
// A comment cannot hold a line end; a block comment cannot hold its own end nor a start (block
// comments nest: grammar/corpus/methods/public-forms.4dm); a line comment that
// ends with `\` goes on to the next line, as a statement does (grammar/corpus/methods/comments.4dm).
const comment = text.map((t) => t.replace(/[\r\n\u2028\u2029]/g, ' ').replace(/[\\\s]+$/, ''))

/** A text as a 4D literal: `\` `"` and line ends escaped as 4D reads them. */
const literal = (t: string): string =>
  `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`

type Op =
  | { kind: 'local'; name: string; value: string }
  | { kind: 'index'; key: string; value: string }
  | { kind: 'dot'; name: string; value: string }
  | { kind: 'comment'; text: string; block: boolean }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('local' as const), name, value: text }),
  fc.record({ kind: fc.constant('index' as const), key: text, value: text }),
  fc.record({ kind: fc.constant('dot' as const), name, value: text }),
  fc.record({ kind: fc.constant('comment' as const), text: comment, block: fc.boolean() }),
)

function program(ops: readonly Op[]): { source: string; expected: unknown[] } {
  // The program's own names are longer than any generated one.
  const lines = ['$the_object:={}']
  const locals = new Map<string, { name: string; value: string }>()
  const props = new Map<string, string>()
  for (const o of ops) {
    switch (o.kind) {
      case 'local':
        lines.push(`$${o.name}:=${literal(o.value)}`)
        locals.set(o.name.toLowerCase(), { name: o.name, value: o.value })
        break
      case 'index':
        lines.push(`$the_object[${literal(o.key)}]:=${literal(o.value)}`)
        props.set(o.key, o.value)
        break
      case 'dot':
        lines.push(`$the_object.${o.name}:=${literal(o.value)}`)
        props.set(o.name, o.value)
        break
      case 'comment':
        lines.push(o.block && !/\*\/|\/\*/.test(o.text) ? `/* ${o.text} */` : `// ${o.text}`)
        break
    }
  }
  const reads = [...locals.values()].map((l) => `$${l.name}`)
  lines.push(`$the_keys:=[]`, `For each ($the_key; $the_object)`, `\t$the_keys.push($the_key)`)
  lines.push(`End for each`)
  lines.push(`return [${[...reads, '$the_keys', 'JSON Stringify($the_object)'].join('; ')}]`)
  const model = Object.create(null) as Record<string, string>
  for (const [k, v] of props) model[k] = v
  return {
    source: lines.join('\n'),
    expected: [
      ...[...locals.values()].map((l) => l.value),
      Object.keys(model),
      JSON.stringify(model),
    ],
  }
}

const plain = (v: unknown): unknown => (v instanceof Collection ? v.items.map(plain) : v)

describe('hostile programs', () => {
  test('name nothing but their parameters, and keep 4D semantics', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const { source, expected } = program(ops)
        for (const js of generatedSources(source)) expect(problemsOf(js), js).toEqual([])
        expect(plain(run4d(source))).toEqual(expected)
        expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })
})
