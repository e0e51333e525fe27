/**
 * House rules that a formatter cannot check, over the tracked TypeScript sources:
 * - the core never imports node:http, node:fs, node:net or any @entistore package above it;
 * - the files and subfolders of every folder import one way: no circle of run-time imports
 *   anywhere, and no circle of type imports but among the files a public API lists
 *   (PUBLIC_TYPE_CIRCLES); the core's layers look down only (tools/layers.ts);
 * - the REST adapter's core (everything but src/node) imports no node: module;
 * - the entistore package makes its datastores with its own (persist/in-memory-datastore.ts, the
 *   one place that gives them the approximate vector index), never the core's createDatastore,
 *   but in src/browser (a page's, where no native addon loads);
 * - file and folder names under packages/ are kebab-case;
 * - no source file past 500 lines, tests, fixtures, generated code and data tables aside
 *   (tools/file-size.ts);
 * - no focused tests (`.only`).
 * Prints each violation as `file:line: rule` and exits 1 if there is any.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileSizeProblems } from './file-size.ts'
import { importsOf, layerProblems, roomCycles, type SourceFile } from './layers.ts'

const root = new URL('..', import.meta.url).pathname
const problems: string[] = []
const sources: SourceFile[] = []

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (name.endsWith('.ts')) out.push(path)
  }
  return out
}

/** An import of createDatastore, as a value, from the core. */
const CORE_CREATE =
  /import\s*\{[^}]*(?<!type )\bcreateDatastore\b[^}]*\}\s*from\s*'@entistore\/core'/

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/

for (const file of walk(join(root, 'packages'))) {
  const rel = relative(root, file)
  const segments = rel.split('/').slice(2) // below packages/<name>/
  for (const seg of segments)
    if (!KEBAB.test(seg)) problems.push(`${rel}: "${seg}" is not kebab-case`)
  const text = readFileSync(file, 'utf8')
  sources.push({ path: rel, text })
  const test = rel.endsWith('.test.ts')
  problems.push(...layerProblems(rel, text))
  problems.push(...fileSizeProblems(rel, text))
  for (const { spec: imp, line } of importsOf(text)) {
    const at = `${rel}:${line}`
    if (rel.startsWith('packages/core/src/') && !test) {
      if (/^(node:)?(http|https|http2|net|fs|fs\/promises|child_process)$/.test(imp))
        problems.push(`${at}: the core must not import ${imp}`)
      if (imp.startsWith('@entistore/')) problems.push(`${at}: the core must not import ${imp}`)
    }
    if (
      rel.startsWith('packages/rest/src/') &&
      !rel.startsWith('packages/rest/src/node/') &&
      !test &&
      imp.startsWith('node:')
    )
      problems.push(
        `${at}: the fetch handler must stay runtime-neutral (no ${imp}); put Node code in src/node`,
      )
  }
  if (
    rel.startsWith('packages/entistore/src/') &&
    rel !== 'packages/entistore/src/persist/in-memory-datastore.ts' &&
    // A page's datastore (entistore/msw): no native addon loads there, HNSW's neither.
    !rel.startsWith('packages/entistore/src/browser/') &&
    !/\.(test|fixture)\.ts$/.test(rel) &&
    CORE_CREATE.test(text)
  )
    problems.push(
      `${rel}: makes a datastore with the core's createDatastore: take persist/in-memory-datastore.ts's (or create-datastore.ts's, with persist), which gives it the approximate vector index`,
    )
  text.split('\n').forEach((line, i) => {
    if (/\b(it|test|describe)\.only\(/.test(line))
      problems.push(`${rel}:${i + 1}: focused test (.only)`)
  })
}
problems.push(...roomCycles(sources))

if (problems.length > 0) {
  for (const p of problems) console.error(p)
  console.error(`lint: ${problems.length} problem(s)`)
  process.exit(1)
}
console.log('lint: ok')
