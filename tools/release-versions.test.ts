import { describe, expect, it } from 'vitest'
import {
  readReleaseFacts,
  releaseProblems,
  type PackageFacts,
  type ReleaseFacts,
} from './release-versions.ts'

const root = new URL('..', import.meta.url).pathname

const core: PackageFacts = {
  dir: 'packages/core',
  name: '@entistore/core',
  version: '0.2.0',
  changelog: '# @entistore/core\n\n## 0.2.0\n\n### Minor Changes\n\n## 0.1.0\n',
}
const rest: PackageFacts = {
  dir: 'packages/rest',
  name: '@entistore/rest',
  version: '0.2.0',
  dependencies: { '@entistore/core': '0.2.0', 'lru-cache': '^11.5.3' },
  changelog: '# @entistore/rest\n\n## 0.2.0\n',
}
const agreeing: ReleaseFacts = {
  packages: [core, rest],
  fixed: [['@entistore/core', '@entistore/rest']],
  docs: [{ file: 'README.md', text: 'npm install ./entistore-core-0.2.0.tgz ./other-1.0.0.tgz' }],
}

describe('release versions', () => {
  it('finds nothing wrong where everything agrees', () => {
    expect(releaseProblems(agreeing)).toEqual([])
  })

  it('names a changelog that is missing or opens on another version', () => {
    const problems = releaseProblems({
      ...agreeing,
      packages: [
        { ...core, changelog: null },
        { ...rest, version: '0.3.0' },
      ],
    })
    expect(problems).toContain('packages/core: no CHANGELOG.md')
    expect(problems).toContain(
      'packages/rest/CHANGELOG.md: its first release is 0.2.0, the package is 0.3.0',
    )
  })

  it('names an internal dependency not at the exact version', () => {
    const loose = { ...rest, dependencies: { '@entistore/core': '^0.2.0' } }
    expect(releaseProblems({ ...agreeing, packages: [core, loose] })).toEqual([
      'packages/rest/package.json: depends on @entistore/core ^0.2.0, not exactly its version 0.2.0',
    ])
  })

  it('names a published package left out of the fixed group, and a name of no package', () => {
    const fourD: PackageFacts = { ...core, dir: 'packages/4d', name: '@entistore/4d' }
    const problems = releaseProblems({
      ...agreeing,
      packages: [core, rest, fourD, { ...core, dir: 'bench', name: 'bench', private: true }],
      fixed: [['@entistore/core', '@entistore/rest', 'entistore']],
    })
    expect(problems).toEqual([
      '.changeset/config.json: @entistore/4d is not in the fixed group of the others',
      '.changeset/config.json: entistore in fixed is no published workspace',
    ])
  })

  it("names a doc quoting a tarball of another version than the package's", () => {
    const docs = [{ file: 'docs/x.md', text: '/path/entistore-core-0.1.0.tgz' }]
    expect(releaseProblems({ ...agreeing, docs })).toEqual([
      'docs/x.md: names entistore-core-0.1.0.tgz, but the package is 0.2.0',
    ])
  })

  it('holds in this repository', () => {
    expect(releaseProblems(readReleaseFacts(root))).toEqual([])
  })
})
