/**
 * @module `npm run corpus`: Entistore run over the public 4D and Qodly projects of the manifest
 * that are reconstructed here (docs/4d-projects.md says how), a table of the results printed.
 *
 *   npm run corpus                       every project present in the corpus folder
 *   npm run corpus -- --reconstruct      first write each project (and component) out of its
 *                                        fetched snapshot
 *   npm run corpus -- --only bweb        the projects whose name holds "bweb"
 *   npm run corpus -- --write            the table written into docs/4d-projects.md
 *   npm run corpus -- --json out.json    every result, as JSON
 *
 * A project that is absent is named and skipped: the corpus is third-party code, never in git.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  componentFolder,
  corpusDir,
  digest,
  label,
  projectFolder,
  readComponents,
  readManifest,
} from './manifest.ts'
import { probeProject, type ProjectResult } from './probe.ts'
import { reconstruct, reconstructComponent } from './reconstruct.ts'
import { reportMarkdown, writeSection } from './report.ts'

const { values } = parseArgs({
  options: {
    reconstruct: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    write: { type: 'boolean', default: false },
    json: { type: 'string' },
    // The report of a run saved with --json, without running again.
    from: { type: 'string' },
  },
})

if (values.from !== undefined) {
  const saved = JSON.parse(readFileSync(values.from, 'utf8')) as ProjectResult[]
  const markdown = reportMarkdown(saved, new Date().toISOString().slice(0, 10))
  console.log(markdown)
  if (values.write)
    writeSection(fileURLToPath(new URL('../../docs/4d-projects.md', import.meta.url)), markdown)
  process.exit(0)
}

const entries = readManifest().filter(
  (e) => values.only === undefined || values.only.some((o) => label(e).includes(o)),
)
// The components first: the projects' dependencies.json find them (`--components`).
for (const c of readComponents()) {
  if (values.reconstruct) {
    const r = reconstructComponent(c)
    if (r === undefined) console.error(`component ${c.repo}: no snapshot to reconstruct it from`)
    else if (!r.matches) console.error(`component ${c.repo}: its files differ from the manifest's`)
  }
  if (!existsSync(componentFolder(c)))
    console.error(`component ${c.repo} is not in ${corpusDir()}: the code naming it cannot run`)
  else if (digest(componentFolder(c)).sha256 !== c.sha256)
    console.error(`component ${c.repo}: its files differ from the manifest's (a newer commit?)`)
}
const results: ProjectResult[] = []
const absent: string[] = []
for (const e of entries) {
  if (values.reconstruct) {
    const r = reconstruct(e)
    if (r === undefined) console.error(`${label(e)}: no snapshot to reconstruct it from`)
    else if (!r.matches)
      console.error(`${label(e)}: reconstructed, but its files differ from the manifest's`)
  }
  if (!existsSync(projectFolder(e))) {
    absent.push(label(e))
    continue
  }
  if (digest(projectFolder(e)).sha256 !== e.sha256)
    console.error(`${label(e)}: its files differ from the manifest's (a newer commit?)`)
  const started = performance.now()
  const r = await probeProject(e)
  results.push(r)
  const left =
    r.startError ??
    `${r.unchecked.length} unchecked, creates ${r.creates.tried - r.creates.failed.length}/${r.creates.tried}`
  console.error(
    `${label(e)}: ${r.started ? 'starts' : 'does not start'}; ${left} (${Math.round(performance.now() - started)} ms)`,
  )
}
if (absent.length > 0)
  console.error(
    `${absent.length} projects are not in ${corpusDir()}: ${absent.join(', ')} (--reconstruct writes them from their snapshots)`,
  )
const markdown = reportMarkdown(results, new Date().toISOString().slice(0, 10))
console.log(markdown)
if (values.json !== undefined) writeFileSync(values.json, JSON.stringify(results, null, 2))
if (values.write)
  writeSection(fileURLToPath(new URL('../../docs/4d-projects.md', import.meta.url)), markdown)
