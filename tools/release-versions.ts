/**
 * @module Whether the versions a release writes agree: each published package's CHANGELOG.md
 * opens on its package.json version, the packages depend on one another at exactly those
 * versions, changesets' `fixed` group holds every published package (one added without it would
 * be released on its own), and the tarball names the docs quote are today's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface PackageFacts {
  /** The workspace's folder, from the repository's root (`packages/core`). */
  readonly dir: string
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  /** Its CHANGELOG.md, or null when it has none. */
  readonly changelog: string | null
}

export interface ReleaseFacts {
  readonly packages: readonly PackageFacts[]
  /** `.changeset/config.json`'s `fixed` groups. */
  readonly fixed: readonly (readonly string[])[]
  /** The Markdown files that may quote a tarball's name, from the repository's root. */
  readonly docs: readonly { readonly file: string; readonly text: string }[]
}

/** The repository's facts, read from its files. */
export function readReleaseFacts(root: string): ReleaseFacts {
  const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'))
  const workspaces: string[] = readJson('package.json').workspaces
  const packages = workspaces.map((dir): PackageFacts => {
    const changelog = join(root, dir, 'CHANGELOG.md')
    return {
      dir,
      ...readJson(join(dir, 'package.json')),
      changelog: existsSync(changelog) ? readFileSync(changelog, 'utf8') : null,
    }
  })
  const markdown = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    ...workspaces.map((dir) => `${dir}/README.md`),
  ].filter((file) => existsSync(join(root, file)))
  return {
    packages,
    fixed: readJson('.changeset/config.json').fixed ?? [],
    docs: markdown.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') })),
  }
}

/** The first release heading of a changesets changelog (`## 0.2.0`). */
const firstRelease = (changelog: string) => /^## (\S+)\s*$/m.exec(changelog)?.[1]

/** npm pack's name for a package's tarball, without the version (`@entistore/core` → entistore-core). */
const tarballStem = (name: string) => name.replace(/^@/, '').replace('/', '-')

/** What disagrees, one line each; none when a release's versions agree. */
export function releaseProblems(facts: ReleaseFacts): string[] {
  const problems: string[] = []
  const published = facts.packages.filter((p) => !p.private)
  const versionOf = new Map(facts.packages.map((p) => [p.name, p.version]))

  for (const p of published) {
    if (p.changelog === null) problems.push(`${p.dir}: no CHANGELOG.md`)
    else if (firstRelease(p.changelog) !== p.version)
      problems.push(
        `${p.dir}/CHANGELOG.md: its first release is ${firstRelease(p.changelog) ?? 'missing'}, the package is ${p.version}`,
      )
    for (const deps of [p.dependencies, p.peerDependencies])
      for (const [dep, range] of Object.entries(deps ?? {}))
        if (versionOf.has(dep) && range !== versionOf.get(dep))
          problems.push(
            `${p.dir}/package.json: depends on ${dep} ${range}, not exactly its version ${versionOf.get(dep)}`,
          )
  }

  const group = facts.fixed.find((g) => published.some((p) => g.includes(p.name))) ?? []
  for (const p of published)
    if (!group.includes(p.name))
      problems.push(`.changeset/config.json: ${p.name} is not in the fixed group of the others`)
  for (const name of facts.fixed.flat())
    if (!published.some((p) => p.name === name))
      problems.push(`.changeset/config.json: ${name} in fixed is no published workspace`)

  const stems = new Map(published.map((p) => [tarballStem(p.name), p.version]))
  for (const { file, text } of facts.docs)
    for (const [tarball, stem, version] of text.matchAll(/\b([a-z][\w-]*?)-(\d+\.\d+\.\d+)\.tgz/g))
      if (stems.has(stem!) && stems.get(stem!) !== version)
        problems.push(`${file}: names ${tarball}, but the package is ${stems.get(stem!)}`)
  return problems
}
