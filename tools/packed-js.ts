/**
 * @module The JavaScript a tarball carries (issue 79): a module tsc emitted, printed again by
 * TypeScript's own printer without its comments, and indented by a tab a level instead of four
 * spaces. The house style's long doc comments and the indentation were 1.7 of the 4.4 MB of
 * JavaScript an install of the four packages wrote; the comments stay where a reader meets them,
 * in the .d.ts files beside (editors' hovers, the API reports) and in the sources.
 *
 * A parser, not a pattern: `//` in a string or a regular expression, `/*` in a template, are the
 * code's own, and only the parse knows. The printer keeps the shebang and `/*!` comments (a
 * licence's), and literals as they were written but for numeric separators (`65_536` is printed
 * `65536`, the same number). The `//# sourceMappingURL` line goes with the other comments: the
 * tarballs carry no source map for it to name.
 *
 * Used by tools/pack-dist.ts, the packages' prepack.
 */
import ts from 'typescript'

const printer = ts.createPrinter({ removeComments: true })

/** The printer's indentation, four spaces a level. */
const LEVEL = '    '

/** A source file's syntax errors (TypeScript keeps them on the file, off its public type). */
const syntaxErrors = (file: ts.SourceFile): readonly ts.Diagnostic[] =>
  (file as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics

function parse(text: string, fileName: string): ts.SourceFile {
  // Parents set: the printer then writes literals from the file's own text, not rebuilt from their
  // values (which would change quotes and escapes, and mangle a lone surrogate).
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const errors = syntaxErrors(file)
  if (errors.length > 0) {
    const message = ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n')
    throw new Error(`${fileName}: not JavaScript the printer can be trusted with: ${message}`)
  }
  return file
}

/** `text` (a JavaScript module) without comments, indented by tabs; `fileName` names it in errors. */
export function packedJs(text: string, fileName: string): string {
  const source = parse(text, fileName)
  const printed = printer.printFile(source)
  // The printed text is parsed again, to find where its literals' lines are, only when it has such
  // lines: the printer keeps literals as written, so the source has them too.
  const multiline = literalSpans(source).some(([start, end]) =>
    text.slice(start, end).includes('\n'),
  )
  return tabIndented(printed, multiline ? literalSpans(parse(printed, fileName)) : [])
}

/**
 * The [start, end) of every literal that may hold a line break, in source order: a template's
 * pieces, and a string with a line continuation. A line that starts inside one is the literal's
 * text, not indentation.
 */
function literalSpans(file: ts.SourceFile): [number, number][] {
  const spans: [number, number][] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      spans.push([node.getStart(file), node.end])
    ts.forEachChild(node, visit)
  }
  visit(file)
  return spans
}

/** `printed` with each line's leading levels of four spaces made tabs, but inside `literals`. */
function tabIndented(printed: string, literals: readonly [number, number][]): string {
  // The spans come in source order; one pointer walks them as the lines do.
  let next = 0
  let out = ''
  let at = 0
  while (at < printed.length) {
    const eol = printed.indexOf('\n', at)
    const end = eol === -1 ? printed.length : eol + 1
    while (next < literals.length && literals[next]![1] <= at) next++
    const inLiteral = next < literals.length && literals[next]![0] < at
    let body = at
    let tabs = ''
    if (!inLiteral)
      while (printed.startsWith(LEVEL, body)) {
        body += LEVEL.length
        tabs += '\t'
      }
    out += tabs + printed.slice(body, end)
    at = end
  }
  return out
}
