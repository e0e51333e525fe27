// DOCUMENT TO BLOB and BLOB TO DOCUMENT (documents.ts) on a project's folders.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import { errorOf, run } from './run.fixture.js'

const root = mkdtempSync(join(tmpdir(), 'entistore-4d-documents-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
mkdirSync(join(root, 'Project'))
mkdirSync(join(root, 'Resources'))
const options = { runtime: { files: projectFiles(root) } }

it('write a BLOB to a file of the project by its system path, and read it back byte for byte', () => {
  expect(
    run(
      `var $b; $back : Blob
TEXT TO BLOB("été"; $b; UTF8 text without length)
$path:=Get 4D folder(Current resources folder)+"notes.bin"
BLOB TO DOCUMENT($path; $b)
DOCUMENT TO BLOB($path; $back)
return [OK; BLOB size($back); BLOB to text($back; UTF8 text without length)]`,
      options,
    ),
  ).toEqual([1, 5, 'été'])
  expect(readFileSync(join(root, 'Resources', 'notes.bin'), 'utf8')).toBe('été')
  expect(errorOf('var $b : Blob\nBLOB TO DOCUMENT(""; $b)', options)).toMatchObject({
    errCode: 9409,
  })
})
