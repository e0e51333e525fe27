/**
 * @module The CLI package's tests' temporary folder: one a run, removed when the run ends (the
 * project's `globalSetup`). Its tests start servers in child processes and kill some of them; a
 * killed process leaves what it made in the temporary folder (a cluster worker's write socket),
 * and helpers that copy a project or write a model from inside a test or a hook cannot register
 * an `afterAll` there (Vitest ignores it). A day's runs left 490 sockets and 400 folders in /tmp.
 * Every test file and every child inherits `TMPDIR` (Node's `os.tmpdir()` reads it at each call),
 * so whatever they leave goes with the run's folder. Its path is short: a Unix socket's path has
 * at most 107 bytes, and a worker's is 78 past the folder.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'es-run-'))
  // Open as /tmp is (sticky, everyone's): PostgreSQL's tests run its server as its own user, in
  // folders made here.
  chmodSync(folder, 0o1777)
  process.env.TMPDIR = folder
  return () => rmSync(folder, { recursive: true, force: true })
}
