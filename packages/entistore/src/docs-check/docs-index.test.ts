/**
 * The model and data examples of docs/index.md load together, as the page says: the JSON blocks
 * under "The model file" and "The data file", exactly as shown, into createDatastore, and the query
 * the page then runs answers what the page says it answers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatastore, type Entity, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import { codeBlocks, readPage } from './docs-pages.fixture.ts'
import type { RunningServer } from '../serve/serve.js'

const page = readPage('docs/index.md')

/** The first block of `lang` after the heading `## title`. */
function blockAfter(title: string, lang: string): string {
  const at = page.indexOf(`\n## ${title}\n`)
  expect(at, `docs/index.md has no "## ${title}" section`).toBeGreaterThan(0)
  const block = codeBlocks(page.slice(at)).find((b) => b.lang === lang)
  expect(block, `no ${lang} block after "## ${title}"`).toBeDefined()
  return block!.text
}

describe('docs/index.md', () => {
  it('shows a model and data that load together, and the query it runs on them', () => {
    const model = JSON.parse(blockAfter('The model file', 'json')) as ModelJson
    const data = JSON.parse(blockAfter('The data file', 'json')) as Record<string, object[]>
    // The snippet that loads them, after the data file's JSON: its calculated function, its query
    // and the answer written under it.
    const snippet = codeBlocks(page.slice(page.indexOf('\n## The data file\n'))).find(
      (b) => b.lang === 'ts' && b.text.includes("readFileSync('model.json'"),
    )
    expect(snippet, 'docs/index.md: the ts block that loads model.json and data.json').toBeDefined()
    const text = snippet!.text
    expect(text).toContain("fullName: (e) => `${e.get('firstName')} ${e.get('lastName')}`")
    const query = /\.query\('([^']+)', '([^']+)'\)/.exec(text)
    const answer = /^\/\/ (\[.*\])$/m.exec(text)
    expect(query, 'the snippet runs a query').not.toBeNull()
    expect(answer, 'the snippet writes the answer as a // [...] comment').not.toBeNull()

    const ds = createDatastore(model, {
      data,
      calculated: {
        Employee: { fullName: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}` },
      },
    })
    const found = ds
      .dataClass('Employee')
      .query(query![1]!, query![2]!)
      .toArray()
      .map((e: Entity) => e.get('fullName'))
    expect(found).toEqual(JSON.parse(answer![1]!.replace(/'/g, '"')))
    expect(found.length).toBeGreaterThan(0)
    // Every row of the data file is there, the picture included.
    expect(ds.dataClass('Company').get(1)?.get('logo')).toMatchObject({ type: 'image/png' })
    expect(ds.dataClass('Employee').all().length).toBe(data['Employee']?.length)
  })

  it('shows a model and data that `entistore serve` serves, as the page says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entistore-docs-index-'))
    const model = join(dir, 'model.json')
    const data = join(dir, 'data.json')
    writeFileSync(model, blockAfter('The model file', 'json'))
    writeFileSync(data, blockAfter('The data file', 'json'))
    let stop!: () => void
    let server!: RunningServer
    const errors: string[] = []
    const done = main(['serve', '--model', model, '--data', data, '--port', '0'], {
      out: () => {},
      err: (line) => errors.push(line),
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onListening: (s) => (server = s),
    })
    try {
      await expect.poll(() => server ?? errors[0], { timeout: 10_000 }).toBeDefined()
      expect(errors).toEqual([])
      const catalog = (await (await fetch(`${server.url}/rest/$catalog`)).json()) as {
        dataClasses: { name: string }[]
      }
      expect(catalog.dataClasses.map((dc) => dc.name).sort()).toEqual(['Company', 'Employee'])
      const employees = JSON.parse(blockAfter('The data file', 'json')).Employee as unknown[]
      const reply = await fetch(`${server.url}/rest/Employee?$top=1000`)
      expect(reply.status).toBe(200)
      expect(((await reply.json()) as { __COUNT: number }).__COUNT).toBe(employees.length)
    } finally {
      stop()
      expect(await done).toBe(0)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
