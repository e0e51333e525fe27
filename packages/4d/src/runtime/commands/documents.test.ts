// DOCUMENT TO BLOB and BLOB TO DOCUMENT (documents.ts) on a project's folders.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

it('Is picture file tells a picture by its extension, or with * by its header', () => {
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a5f00000000049454e44ae426082',
    'hex',
  )
  writeFileSync(join(root, 'Resources', 'dot.png'), png)
  writeFileSync(join(root, 'Resources', 'dot'), png)
  writeFileSync(join(root, 'Resources', 'fake.png'), 'not a picture')
  writeFileSync(join(root, 'Resources', 'logo.svg'), '<?xml version="1.0"?>\n<svg xmlns="x"/>')
  expect(
    run(
      `$r:=Get 4D folder(Current resources folder)
return [Is picture file($r+"dot.png"); Is picture file($r+"dot"); Is picture file($r+"dot"; *); \\
Is picture file($r+"fake.png"); Is picture file($r+"fake.png"; *); Is picture file($r+"logo.svg"; *); \\
Is picture file($r+"none.png"); Is picture file("")]`,
      options,
    ),
  ).toEqual([true, false, true, true, false, true, false, false])
})
