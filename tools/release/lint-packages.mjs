/**
 * The packages as npm would publish them, linted: `npm pack` each workspace, then for each tarball
 * publint (every message, suggestions too, is a problem) and arethetypeswrong (the types each
 * module resolution finds: node10, node16 from CJS and from ESM, bundler). It reads the built
 * packages: `npm run build` first. Exit 1 on any problem.
 *   bash tools/release/run.sh lint-packages
 *
 * One rule of attw is off: cjs-resolves-to-esm, a `require()` that reaches an ES module. The
 * packages are ESM only, and Node 20.19 and 22.12 on require() an ES module without a flag; attw
 * 0.18 (TypeScript 5.6) does not know it. What it would warn of is tried here instead: every public
 * entry is require()d by this Node (docs/compat.md, "Packages").
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

const root = fileURLToPath(new URL('../../', import.meta.url))
const attw = fileURLToPath(new URL('node_modules/.bin/attw', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'entistore-lint-packages-'))
let problems = 0

try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--workspaces', '--json', '--pack-destination', scratch], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    }).toString(),
  )
  const requireFromRoot = createRequire(join(root, 'package.json'))
  for (const { name, filename } of packed) {
    const tarball = join(scratch, filename)
    const { messages, pkg } = await publint({
      pack: { tarball: Uint8Array.from(readFileSync(tarball)).buffer },
      level: 'suggestion',
      strict: true,
    })
    for (const message of messages)
      console.log(
        `${name}: publint ${message.type}: ${formatMessage(message, pkg, { color: false })}`,
      )
    problems += messages.length

    try {
      execFileSync(
        attw,
        [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'ascii', '--no-emoji'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
    } catch (failed) {
      console.log(`${name}: attw:\n${failed.stdout}${failed.stderr}`)
      problems++
    }

    // The entries the tarball exports, required as a CommonJS module would (the workspace's link
    // in node_modules: the files npm just packed).
    const entries = Object.keys(pkg.exports).filter((entry) => !entry.endsWith('.json'))
    for (const entry of entries)
      try {
        requireFromRoot(name + entry.slice(1))
      } catch (error) {
        console.log(`${name}: require('${name + entry.slice(1)}'): ${error.message.split('\n')[0]}`)
        problems++
      }
    console.log(`${name}: publint, attw, require() of ${entries.length} entries`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
console.log(`lint packages: ${problems} problems`)
process.exitCode = problems > 0 ? 1 : 0
