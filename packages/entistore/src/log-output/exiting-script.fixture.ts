/**
 * A module run in a child Node from this folder (TypeScript, through tsx) that ends with
 * `process.exit`: what the request log's writers keep of their lines when a process ends at once.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { expect } from 'vitest'

/** The lines `script` wrote on stdout; its stderr must be empty. */
export function linesOfExitingScript(script: string): string[] {
  const tsx = createRequire(import.meta.url).resolve('tsx')
  const r = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
    cwd: new URL('.', import.meta.url),
    encoding: 'utf8',
  })
  expect(r.stderr).toBe('')
  return r.stdout.trimEnd().split('\n')
}
