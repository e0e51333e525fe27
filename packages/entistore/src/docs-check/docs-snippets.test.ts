/**
 * The TypeScript snippets of the documentation compile against today's exports: every ```ts block
 * that imports what it uses (every block of docs/getting-started.md must; elsewhere a block without
 * imports is a fragment that continues the page's earlier ones) is written, as it is, to a module inside the repository (under node_modules/.cache, so that
 * `entistore` resolves to the workspace package as it does for a reader) and type-checked with the
 * compiler options of tsconfig.check.json. A renamed export or a changed signature fails here
 * before a newcomer copies a snippet that no longer compiles.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { codeBlocks, documentationPages, readPage, repoRoot } from './docs-pages.fixture.ts'
import { renderModelTypes } from '../outputs/model-types.ts'
import { PROJECT_DECLARATION } from '../outputs/project-bundle.ts'

/**
 * What a snippet may use without making it: the values the pages' prose and earlier fragments make
 * ("given a datastore `ds`"), declared as globals so that a snippet declaring its own shadows them.
 * Anything else it uses, it imports.
 */
const PRELUDE = `import type { AuthUser, Credentials, Datastore, DataFile, ModelJsonDocument, RestHandler } from 'entistore'
declare global {
  /** A datastore made earlier on the page. */
  var ds: Datastore
  /** A model and data, as objects. */
  var model: ModelJsonDocument
  var data: DataFile
  /** A REST handler made earlier on the page. */
  var rest: RestHandler
  /** The embedder's own login check and hook. */
  var checkPassword: (user: string, password: string) => boolean
  var authenticate: (credentials: Credentials) => AuthUser | null
}
`

/** The page whose every snippet must stand alone: a newcomer copies them as they are. */
const GETTING_STARTED = 'docs/getting-started.md'

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

describe('the TypeScript snippets of the documentation', () => {
  it(`of ${GETTING_STARTED} each import what they use`, () => {
    const blocks = codeBlocks(readPage(GETTING_STARTED)).filter((b) => b.lang === 'ts')
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    for (const block of blocks)
      expect(
        block.text,
        `${GETTING_STARTED}:${block.line}: a snippet imports what it uses`,
      ).toMatch(/^import /m)
  })

  it('compile against the packages as they are', () => {
    const snippets = documentationPages().flatMap((page) =>
      codeBlocks(readPage(page))
        .filter((b) => b.lang === 'ts' && /^import /m.test(b.text))
        .map((block) => ({ page, block })),
    )
    expect(snippets.length).toBeGreaterThanOrEqual(20)
    const cache = join(repoRoot, 'node_modules', '.cache')
    mkdirSync(cache, { recursive: true })
    const dir = mkdtempSync(join(cache, 'entistore-docs-snippets-'))
    try {
      const prelude = join(dir, 'prelude.d.ts')
      writeFileSync(prelude, PRELUDE)
      // The module `entistore types` writes for the company demo, for snippets that import it.
      const company = JSON.parse(readPage('examples/company/model.json')) as unknown
      writeFileSync(join(dir, 'model-types.ts'), renderModelTypes(company))
      // The declaration `entistore bundle` writes beside a project's module, for snippets that import it.
      writeFileSync(join(dir, 'project.d.ts'), PROJECT_DECLARATION)
      const files = snippets.map(({ page, block }) => {
        const file = join(dir, `${page.replace(/[/.]/g, '-')}-${block.line}.ts`)
        writeFileSync(file, block.text)
        return file
      })
      const placeOf = new Map(snippets.map((s, i) => [files[i]!, s]))
      const problems = diagnosticsOf([prelude, ...files]).map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, '\n')
        if (d.file === undefined || d.start === undefined) return text
        const at = d.file.getLineAndCharacterOfPosition(d.start)
        const place = placeOf.get(d.file.fileName)
        // The fence's line + the line inside the block = the line on the page.
        const line = (place?.block.line ?? 0) + at.line + 1
        return `${place?.page}:${line}:${at.character + 1}: ${text}`
      })
      expect(problems, problems.join('\n')).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
