import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderErrorDocs } from '../../../../tools/error-docs.ts'

const root = new URL('../../../../', import.meta.url).pathname

describe('the documentation', () => {
  it('lists the error table as it is in the code (docs/errors.md)', () => {
    const page = readFileSync(join(root, 'docs/errors.md'), 'utf8')
    expect(
      page,
      'docs/errors.md is out of date: run npx tsx --conditions=source tools/error-docs.ts > docs/errors.md',
    ).toBe(renderErrorDocs())
  })

  it('starts the README with the commands to start and to test', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const firstBlock = /```[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(firstBlock).toBeDefined()
    expect(firstBlock).toContain('npm install && npm start')
    expect(firstBlock).toMatch(/^npm test\b/m)
  })
})
