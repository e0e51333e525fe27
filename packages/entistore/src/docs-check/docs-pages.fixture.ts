/**
 * The repository's Markdown pages as the documentation tests read them: which pages there are, their
 * fenced code blocks, the shell commands in those blocks and their relative links. Test-only: the
 * docs tests (docs-*.test.ts) check that what a reader copies from these pages works.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, with a trailing slash. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url))

/**
 * Every page a reader of the repository meets: README.md, docs/*.md, the pages of
 * docs/architecture/ (one a mechanism, linked from docs/architecture.md), bench/README.md and the
 * README.md of each example and package, as paths relative to the root.
 */
export function documentationPages(): string[] {
  const inDir = (dir: string, only?: string): string[] =>
    existsSync(join(repoRoot, dir))
      ? readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
          if (only === undefined)
            return entry.isFile() && entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : []
          return entry.isDirectory() && existsSync(join(repoRoot, dir, entry.name, only))
            ? [`${dir}/${entry.name}/${only}`]
            : []
        })
      : []
  return [
    'README.md',
    ...inDir('docs'),
    ...inDir('docs/architecture'),
    'bench/README.md',
    ...inDir('examples', 'README.md'),
    ...inDir('packages', 'README.md'),
  ].sort()
}

export const readPage = (page: string): string => readFileSync(join(repoRoot, page), 'utf8')

export interface CodeBlock {
  /** The info string after the opening fence (`sh`, `json`, `ts`, or empty). */
  readonly lang: string
  readonly text: string
  /** 1-based line of the opening fence. */
  readonly line: number
}

/** The fenced code blocks of a page, indented ones (inside list items) included. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)/.exec(lines[i]!)
    if (!open) continue
    const [, indent, fence, lang] = open
    const body: string[] = []
    let j = i + 1
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence!)) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!)
      j++
    }
    blocks.push({ lang: lang!, text: body.join('\n'), line: i + 1 })
    i = j
  }
  return blocks
}

export const isShell = (block: CodeBlock): boolean => ['sh', 'bash', 'shell'].includes(block.lang)

/** The commands of a shell block: one per line, a line ending in `\` joined with the next one. */
export function shellCommands(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/**
 * Splits a shell command from its trailing comment: the first `#` that starts a word outside
 * quotes. `curl -s 'u?a=#x' # 403` → `["curl -s 'u?a=#x'", "403"]`.
 */
export function withoutComment(command: string): { command: string; comment: string } {
  let quote: string | undefined
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (quote !== undefined) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"') i++
    } else if (c === "'" || c === '"') quote = c
    else if (c === '\\') i++
    else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]!)))
      return { command: command.slice(0, i).trimEnd(), comment: command.slice(i + 1).trim() }
  }
  return { command, comment: '' }
}

export interface MarkdownLink {
  readonly target: string
  readonly line: number
}

/**
 * The links of a page that point inside the repository: `[text](target)` whose target is neither
 * a URL with a scheme nor a bare `#anchor`. Code blocks and inline code are skipped.
 */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = []
  let inFence = false
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) inFence = !inFence
    if (inFence) return
    const prose = text.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length))
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
      links.push({ target, line: i + 1 })
    }
  })
  return links
}
