/**
 * docs/orda.md, issue 51's table of 4D's ORDA classes: every member of the five class pages has a
 * row, and every row that says "same" or "adapted" links the test written from 4D's example,
 * and that test file exists.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from './docs-pages.fixture.js'

const page = readFileSync(join(repoRoot, 'docs/orda.md'), 'utf8')

/** The table rows of each `## Section`: [4D, Entistore, status, test]. */
function sections(): Map<string, string[][]> {
  const out = new Map<string, string[][]>()
  let current = ''
  for (const line of page.split('\n')) {
    if (line.startsWith('## ')) current = line.slice(3).trim()
    else if (line.startsWith('| `') || line.startsWith('| [')) {
      // Split on the cells' bars, not on those inside code spans.
      const cells = line
        .slice(1, -1)
        .split(/\|(?=(?:[^`]*`[^`]*`)*[^`]*$)/)
        .map((c) => c.trim())
      out.set(current, [...(out.get(current) ?? []), cells])
    }
  }
  return out
}

describe('docs/orda.md', () => {
  it('has a table for each of the five classes', () => {
    expect([...sections().keys()]).toEqual(
      expect.arrayContaining(['DataStore', 'DataClass', 'Entity', 'EntitySelection', 'Session']),
    )
    for (const [name, rows] of sections())
      if (name !== 'Property access') expect(rows.length, name).toBeGreaterThan(10)
  })

  it('links a test that exists for every row that says same or adapted', () => {
    let checked = 0
    for (const [name, rows] of sections())
      for (const [member, , status, test] of rows) {
        expect(status, `${name} ${member}`).toMatch(/^(same|adapted|not applicable|not yet)\b/)
        if (!/^(same|adapted)\b/.test(status!)) continue
        const links = [...(test ?? '').matchAll(/\]\((\.\.\/[^)]+\.test\.ts)\)/g)].map((m) => m[1]!)
        expect(links.length, `${name} ${member}: no test linked`).toBeGreaterThan(0)
        for (const link of links)
          expect(existsSync(join(repoRoot, 'docs', link)), `${name} ${member}: ${link}`).toBe(true)
        checked++
      }
    expect(checked).toBeGreaterThan(100)
  })
})
