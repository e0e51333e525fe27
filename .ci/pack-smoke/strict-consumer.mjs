/**
 * Writes, on stdout, a program that imports every public entry of the installed packages (each
 * subpath of their `exports`), for the strict consumer of ../pack-smoke.sh. Run in the scratch
 * project before anything but the tarballs is installed: it fails when an optional peer dependency
 * of a package is there, since the point is that the types compile without them.
 *
 * Left out: the entries named after an optional peer (`@entistore/rest/express`, `/fastify`,
 * `/hono`), which are that framework's adapter and need it; smoke.ts compiles the Express one with
 * Express installed.
 */
import { existsSync, readFileSync } from 'node:fs'

const names = ['entistore', '@entistore/core', '@entistore/rest', '@entistore/4d']
const lines = []
for (const name of names) {
  const manifest = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8'))
  const optional = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
    (peer) => manifest.peerDependenciesMeta[peer].optional,
  )
  // pg's types are a package of their own: their absence is what a user without pg has.
  for (const peer of [...optional, ...optional.map((p) => `@types/${p}`)]) {
    if (existsSync(`node_modules/${peer}`)) {
      console.error(`strict consumer: ${peer}, optional for ${name}, is installed`)
      process.exit(1)
    }
  }
  for (const subpath of Object.keys(manifest.exports)) {
    if (subpath === './package.json' || optional.includes(subpath.slice(2))) continue
    lines.push(`export * as entry${lines.length} from '${name}${subpath.slice(1)}'`)
  }
}
console.log(lines.join('\n'))
