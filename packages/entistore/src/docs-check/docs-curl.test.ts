/**
 * Every `curl` command of the documentation, run as a reader pastes it, so that no documented URL
 * fails in a shell (unquoted `$`, `[key]` without `-g`, a space in a `$filter`).
 *
 * The rules:
 * - Pages: README.md, docs/*.md, bench/README.md, examples/*\/README.md, packages/*\/README.md.
 *   Commands: each line of a ```sh, ```bash or ```shell block that starts with `curl`, lines ending
 *   in `\` joined to the next.
 * - The server: a fresh one per page, so that one page's writes never reach another. A page whose
 *   shell blocks start an example (`npx tsx … examples/<name>/<file>.ts`) talks to that example,
 *   started as its README says (a child process, PORT=0); every other page to the company demo
 *   (examples/company, with its functions.js and roles.json, as `npm start` serves it), served in-process by
 *   serve() on port 0.
 * - The demo's URL, `http://127.0.0.1:8080` (or `http://localhost:8080`), becomes the URL of a
 *   recording proxy in front of that server; on a page that starts an example, so does a local URL
 *   on any port (the port the example listens on by default). A page's commands run in order, with
 *   bash, in a temporary directory of the page's own (cookie jars, files).
 * - Each command must exit 0 (or 22, `curl -f` on an HTTP error): never 2 (usage), 3 (malformed
 *   URL), 7 (no server). It must reach the server, get no reply 400 1806 or 9035 (a malformed URL
 *   or request) unless its comment names that code, and no 500. A comment that starts with a
 *   status (`# 403, errCode 1607`) is checked too: some reply has that status (and that errCode).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runExample } from '../../../../examples/run-example.fixture.ts'
import {
  codeBlocks,
  documentationPages,
  isShell,
  readPage,
  repoRoot,
  shellCommands,
  withoutComment,
} from './docs-pages.fixture.ts'
import { loadDatastoreFiles } from '../load/load-files.ts'
import { startRecordingProxy, type Exchange } from './recording-proxy.fixture.ts'
import { serve } from '../serve/serve.ts'

const DEMO_HOST = /http:\/\/(?:127\.0\.0\.1|localhost):8080(?![0-9])/g
const ANY_LOCAL_HOST = /http:\/\/(?:127\.0\.0\.1|localhost):[0-9]+/g

interface Page {
  readonly page: string
  readonly commands: string[]
  /** The example server the page starts (`examples/auth/server.ts`), if any. */
  readonly example: string | undefined
}

function curlPage(page: string): Page {
  const shell = codeBlocks(readPage(page)).filter(isShell)
  const lines = shell.flatMap((block) => shellCommands(block.text))
  const example = lines
    .map((line) => /\b(?:tsx|node)\b.*?\b(examples\/[\w-]+\/[\w.-]+\.ts)\b/.exec(line)?.[1])
    .find((file) => file !== undefined)
  return { page, commands: lines.filter((line) => /^curl\s/.test(line)), example }
}

const pages = documentationPages()
  .map(curlPage)
  .filter((p) => p.commands.length > 0)

interface Server {
  readonly url: string
  close(): Promise<void>
}

async function startServer(example: string | undefined): Promise<Server> {
  if (example !== undefined) {
    const running = await runExample(example)
    return { url: running.url, close: running.stop }
  }
  const ds = await loadDatastoreFiles({
    model: join(repoRoot, 'examples/company/model.json'),
    data: join(repoRoot, 'examples/company/data.json'),
    functions: join(repoRoot, 'examples/company/functions.js'),
    roles: join(repoRoot, 'examples/company/roles.json'),
  })
  return serve(ds, { port: 0 })
}

function bash(command: string, cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd, timeout: 10_000 }, (error, _stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1
      resolve({ code, stderr })
    })
  })
}

const errCodes = (exchange: Exchange): number[] => {
  try {
    const body = JSON.parse(exchange.body) as { __ERROR?: { errCode?: number }[] }
    return (body.__ERROR ?? []).map((e) => e.errCode ?? 0)
  } catch {
    return []
  }
}

/** What is wrong with one command's run, or nothing. */
function problems(
  comment: string,
  run: { code: number; stderr: string },
  seen: Exchange[],
): string[] {
  const found: string[] = []
  if (run.code !== 0 && run.code !== 22)
    found.push(`curl exited ${run.code}: ${run.stderr.trim() || '(no message)'}`)
  if (seen.length === 0)
    found.push('no request reached the server (write URLs as http://127.0.0.1:8080/…)')
  for (const exchange of seen) {
    const codes = errCodes(exchange)
    const malformed = codes.filter((c) => c === 1806 || c === 9035)
    if (malformed.length > 0 && !malformed.every((c) => comment.includes(String(c))))
      found.push(
        `${exchange.method} ${exchange.url} answered a malformed-request error: ${exchange.body}`,
      )
    if (exchange.status === 500) found.push(`${exchange.method} ${exchange.url} answered 500`)
  }
  const status = /^(\d{3})\b/.exec(comment)?.[1]
  if (status !== undefined && !seen.some((e) => e.status === Number(status)))
    found.push(`the comment says ${status}; replies: ${seen.map((e) => e.status).join(', ')}`)
  const errCode = /errCode (\d+)/.exec(comment)?.[1]
  if (errCode !== undefined && !seen.some((e) => errCodes(e).includes(Number(errCode))))
    found.push(`the comment says errCode ${errCode}; replies: ${seen.map((e) => e.body).join(' ')}`)
  return found
}

describe('the curl commands of the documentation', () => {
  it('are found in the pages (the extraction sees them)', () => {
    const all = pages.flatMap((p) => p.commands)
    expect(all.length).toBeGreaterThanOrEqual(30)
    expect(pages.map((p) => p.page)).toEqual(
      expect.arrayContaining(['docs/rest.md', 'docs/writing.md', 'examples/auth/README.md']),
    )
  })

  it('reads commands as a shell does: continued lines joined, the comment apart', () => {
    const markdown = [
      '```sh',
      "curl -s 'http://127.0.0.1:8080/rest/a#b' \\",
      "  -H 'h: 1'   # 403, errCode 1607",
      '```',
      '```json',
      'curl not-a-command',
      '```',
    ].join('\n')
    const shell = codeBlocks(markdown).filter(isShell)
    expect(shell).toHaveLength(1)
    const commands = shellCommands(shell[0]!.text)
    expect(commands).toHaveLength(1)
    const { command, comment } = withoutComment(commands[0]!)
    expect(command).toMatch(/^curl -s 'http:\/\/127\.0\.0\.1:8080\/rest\/a#b' +-H 'h: 1'$/)
    expect(comment).toBe('403, errCode 1607')
  })

  it.each(pages.map((p) => [p.page, p] as const))(
    'run as pasted: %s',
    async (_name, { commands, example }) => {
      const server = await startServer(example)
      const proxy = await startRecordingProxy(server.url)
      const dir = mkdtempSync(join(tmpdir(), 'entistore-docs-curl-'))
      try {
        const report: string[] = []
        for (const line of commands) {
          const { comment } = withoutComment(line)
          const local = example === undefined ? DEMO_HOST : ANY_LOCAL_HOST
          const run = await bash(line.replace(local, proxy.url), dir)
          for (const p of problems(comment, run, proxy.take())) report.push(`${line}\n  → ${p}`)
        }
        expect(report, report.join('\n')).toEqual([])
      } finally {
        await proxy.close()
        await server.close()
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )
})
