/**
 * The TypeScript snippets of docs/getting-started.md compile against today's exports: each ```ts
 * block is written, as it is, to a module inside the repository (under node_modules/.cache, so that
 * `entistore` resolves to the workspace package as it does for a reader) and type-checked with the
 * compiler options of tsconfig.check.json. A renamed export or a changed signature fails here
 * before a newcomer copies a snippet that no longer compiles.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { codeBlocks, readPage, repoRoot } from './docs-pages.fixture.ts'

const PAGE = 'docs/getting-started.md'

/** Compiler diagnostics of `files` only (the rest of the program is checked by `npm run typecheck`). */
function diagnosticsOf(files: readonly string[]): ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.check.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )!
  const program = ts.createProgram(files, config.options)
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file)
      if (source === undefined) throw new Error(`the compiler did not read ${file}`)
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    }),
  ]
}

describe(`the TypeScript snippets of ${PAGE}`, () => {
  it('compile against the packages as they are', () => {
    const blocks = codeBlocks(readPage(PAGE)).filter((b) => b.lang === 'ts')
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    for (const block of blocks)
      expect(block.text, `${PAGE}:${block.line}: a snippet imports what it uses`).toMatch(
        /^import /m,
      )
    const cache = join(repoRoot, 'node_modules', '.cache')
    mkdirSync(cache, { recursive: true })
    const dir = mkdtempSync(join(cache, 'entistore-docs-snippets-'))
    try {
      const files = blocks.map((block) => {
        const file = join(dir, `line-${block.line}.ts`)
        writeFileSync(file, block.text)
        return file
      })
      const lineOf = new Map(blocks.map((b, i) => [files[i]!, b.line]))
      const problems = diagnosticsOf(files).map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n')
        if (d.file === undefined || d.start === undefined) return text
        const at = d.file.getLineAndCharacterOfPosition(d.start)
        // The fence's line + the line inside the block = the line on the page.
        const line = (lineOf.get(d.file.fileName) ?? 0) + at.line + 1
        return `${PAGE}:${line}:${at.character + 1}: ${text}`
      })
      expect(problems, problems.join('\n')).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
