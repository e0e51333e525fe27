/**
 * The docs give one figure for `npm run bench -- --quick` (issue 52: they gave 2–3 min, 6 min and
 * 361 s), the one in quick-figure.ts, which a plain `--quick` run compares with its own time.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { QUICK_RUN, quickMinutes, quickVerdict } from './quick-figure.ts'

const root = new URL('..', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

// A duration written in prose or a comment: `6 min`, `2–3 min`, `361 s`, `≈1½ min`.
const DURATION = /(?:≈\s*)?\d[\d,.½–-]*\s*(?:min(?:utes?)?|s)\b/g

describe('the figure for npm run bench -- --quick', () => {
  it('is the only duration the docs give for the plain command', () => {
    const pages = ['bench/README.md', 'docs/getting-started.md', 'docs/benchmarks.md', 'README.md']
    let quoted = 0
    for (const page of pages)
      for (const line of read(page).split('\n')) {
        // The plain command's own line: `--quick` alone, not with a suite or other options.
        if (!/npm run bench -- --quick\s+#/.test(line)) continue
        quoted++
        const comment = line.slice(line.indexOf('#'))
        const first = comment.match(DURATION)?.[0]
        expect(first, `${page}: ${line}`).toBe(quickMinutes())
      }
    expect(quoted).toBeGreaterThanOrEqual(2)
    expect(read('bench/README.md')).toContain(`${QUICK_RUN.seconds} s on ${QUICK_RUN.date}`)
  })

  it('is what the help text says', () => {
    expect(read('bench/run.ts')).toContain('shorter HTTP rounds (${quickMinutes()})')
  })

  it('is compared with a run when it ends, and asks for an update when far off', () => {
    expect(quickVerdict(QUICK_RUN.seconds * 1.1)).toMatch(/within 25 %$/)
    expect(quickVerdict(QUICK_RUN.seconds * 2)).toMatch(/100 % slower; .* update QUICK_RUN/)
    expect(quickVerdict(QUICK_RUN.seconds / 2)).toMatch(/50 % faster/)
  })
})
