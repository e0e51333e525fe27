/**
 * @module Golden tests of the grammar: every file of corpus/ (written for this package, covering
 * each construct of the language, tokenized forms, classic syntax and errors) is parsed and its
 * tree and problems compared with the `.ast.json` beside it. `UPDATE_GOLDEN=1` rewrites them.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { goldenJson } from './golden.js'
import { parse4d, projectMethodNames } from './parse.js'

const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url))
const UPDATE = process.env.UPDATE_GOLDEN === '1'

const FOLDERS = { classes: 'class', methods: 'method' } as const

/** The project methods the corpus is parsed with: names with spaces parse only when known. */
const METHODS = projectMethodNames(['SEND REPORT', 'Tax for', 'plain'])

for (const [folder, kind] of Object.entries(FOLDERS)) {
  describe(`corpus/${folder}`, () => {
    const files = readdirSync(CORPUS + folder).filter((f) => f.endsWith('.4dm'))
    test.each(files)('%s', (name) => {
      const path = `${CORPUS}${folder}/${name}`
      const { file, problems } = parse4d(readFileSync(path, 'utf8'), {
        file: `corpus/${folder}/${name}`,
        kind,
        methods: METHODS,
      })
      const actual = goldenJson({ problems, file })
      const goldenPath = path.replace(/\.4dm$/, '.ast.json')
      if (UPDATE || !existsSync(goldenPath)) writeFileSync(goldenPath, actual)
      expect(
        actual === readFileSync(goldenPath, 'utf8'),
        `${name} differs from its golden file`,
      ).toBe(true)
    })
  })
}

test('only the error files have problems', () => {
  for (const folder of Object.keys(FOLDERS)) {
    for (const name of readdirSync(CORPUS + folder).filter((f) => f.endsWith('.ast.json'))) {
      const golden = JSON.parse(readFileSync(`${CORPUS}${folder}/${name}`, 'utf8')) as {
        problems: unknown[]
      }
      expect(golden.problems.length > 0, `${folder}/${name}`).toBe(name.startsWith('errors'))
    }
  }
})
