/**
 * The documentation points only at files a reader of the repository has: every relative link of
 * README.md, docs/*.md, docs/architecture/*.md, bench/README.md, examples/*\/README.md and
 * packages/*\/README.md names a file
 * or folder inside the repository (and, with `#anchor`, a heading of that page), and every file path
 * written in code spans (`packages/rest/src/…`, `examples/auth/server.ts`) exists.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentationPages, readPage, relativeLinks, repoRoot } from './docs-pages.fixture.ts'

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  let inFence = false
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence
    const heading = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line)
    if (!heading) continue
    const base = slug(heading[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** What is wrong with one link of `page`, or undefined. */
function brokenLink(page: string, target: string): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined]
  const file = path === '' ? join(repoRoot, page) : resolve(repoRoot, dirname(page), path)
  const inside = relative(repoRoot, file)
  if (inside.startsWith('..') || resolve(repoRoot, inside) !== file)
    return `points outside the repository (${inside})`
  if (!existsSync(file)) return `names ${inside}, which does not exist`
  if (anchor !== undefined && file.endsWith('.md') && statSync(file).isFile()) {
    if (!anchorsOf(readFileSync(file, 'utf8')).has(anchor))
      return `names the heading #${anchor}, which ${inside} does not have`
  }
  return undefined
}

/** Repository paths written in code spans: `packages/…`, `examples/…`, `docs/…`, `bench/…`, `tools/…`. */
function codePaths(markdown: string): { path: string; line: number }[] {
  const found: { path: string; line: number }[] = []
  markdown.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/`((?:packages|examples|docs|bench|tools)\/[^`\s]+)`/g)) {
      const path = m[1]!.replace(/[:#].*$/, '')
      // Globs and placeholders (`packages/*/dist`, `examples/<name>/`) name no one file.
      if (/[*<>{}]/.test(path)) continue
      found.push({ path, line: i + 1 })
    }
  })
  return found
}

const pages = documentationPages()

describe('the links of the documentation', () => {
  it('reads the pages a reader meets', () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/index.md',
        'docs/architecture.md',
        'docs/architecture/indexes.md',
        'bench/README.md',
        'examples/auth/README.md',
      ]),
    )
    expect(pages.flatMap((p) => relativeLinks(readPage(p))).length).toBeGreaterThan(20)
  })

  it.each(pages)('point inside the repository, at files that exist: %s', (page) => {
    const text = readPage(page)
    const problems = [
      ...relativeLinks(text).map(({ target, line }) => {
        const wrong = brokenLink(page, target)
        return wrong && `${page}:${line}: the link ${target} ${wrong}`
      }),
      ...codePaths(text).map(({ path, line }) =>
        existsSync(join(repoRoot, path))
          ? undefined
          : `${page}:${line}: \`${path}\` does not exist`,
      ),
    ].filter((p): p is string => p !== undefined)
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('finds a broken link, one outside the repository and a missing heading', () => {
    expect(brokenLink('docs/index.md', 'rest.md#locks')).toBeUndefined()
    expect(brokenLink('docs/index.md', 'nowhere.md')).toMatch(/does not exist/)
    expect(brokenLink('bench/README.md', '../../shared/research.md')).toMatch(/outside/)
    expect(brokenLink('docs/index.md', 'rest.md#no-such-heading')).toMatch(/heading/)
    expect(slug('`$filter` and `$params`')).toBe('filter-and-params')
  })
})
