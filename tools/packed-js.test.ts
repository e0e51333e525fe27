import { describe, expect, it } from 'vitest'
import { packedJs } from './packed-js.ts'

const packed = (lines: readonly string[]): string[] =>
  packedJs(lines.join('\n'), 'x.js').trimEnd().split('\n')

describe('packedJs', () => {
  it('leaves out comments, line and block, doc comments and the source map line', () => {
    expect(
      packed([
        '/**',
        ' * A doc comment, as tsc keeps it.',
        ' */',
        'export function f(a) {',
        '    // why',
        '    return a + /* inline */ 1; // trailing',
        '}',
        '//# sourceMappingURL=x.js.map',
      ]),
    ).toEqual(['export function f(a) {', '\treturn a + 1;', '}'])
  })

  it("keeps what only looks like a comment: strings', templates' and regular expressions' text", () => {
    const code = [
      'const url = "http://example.com/*";',
      'const t = `/* not a comment */ ${url} // nor this`;',
      'const r = /[//]\\/*/g;',
    ]
    expect(packed(code)).toEqual(code)
  })

  it('keeps a shebang and a licence comment (/*!)', () => {
    expect(packed(['#!/usr/bin/env node', '/*! MIT licence */', '// gone', 'run();'])).toEqual([
      '#!/usr/bin/env node',
      '/*! MIT licence */',
      'run();',
    ])
  })

  it('indents by a tab a level, but inside a literal that spans lines', () => {
    expect(
      packed([
        'function f() {',
        '    if (a) {',
        '        return `first',
        '    kept as written ${a}',
        '        too`;',
        '    }',
        "    return 'a\\",
        "    continued';",
        '}',
      ]),
    ).toEqual([
      'function f() {',
      '\tif (a) {',
      '\t\treturn `first',
      '    kept as written ${a}',
      '        too`;',
      '\t}',
      "\treturn 'a\\",
      "    continued';",
      '}',
    ])
  })

  it('gives the same text when run again (a second pack changes nothing)', () => {
    const once = packedJs(
      'class A {\n    m() {\n        return `x\n    y`; // c\n    }\n}\n',
      'x.js',
    )
    expect(packedJs(once, 'x.js')).toBe(once)
  })

  it('refuses text that does not parse, rather than print a guess', () => {
    expect(() => packedJs('function (', 'broken.js')).toThrow(/broken\.js: not JavaScript/)
  })
})
