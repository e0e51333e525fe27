// `4D.File.new()` and `4D.Folder.new()` (FileClass.md, FolderClass.md: "identical to the File
// command"), `OB Instance of` with them, and Folder.delete's constants (DELETE FOLDER's table:
// Delete only if empty 0, Delete with contents 1).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import type { BlobObject } from '../values/blob-object.js'
import { errorOf, run } from '../commands/run.fixture.js'

describe('4D.File and 4D.Folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'entistore-4d-classes-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'Resources'))
  writeFileSync(join(root, 'Resources/hello.txt'), 'hello')
  const options = { runtime: { files: projectFiles(root) } }

  it('new() is the File or Folder command', () => {
    expect(
      run(
        'var $f : 4D.File:=4D.File.new("/RESOURCES/hello.txt")\n' +
          '$d:=4D.Folder.new(fk resources folder)\n' +
          'return [$f.getText(); $d.path; 4D.File.new($d.path+"hello.txt").exists; 4D.File.name]',
        options,
      ),
    ).toEqual(['hello', '/RESOURCES/', true, 'File'])
  })

  it('getContent() gives the bytes of the file (a 4D.Blob)', () => {
    const blob = run('return File("/RESOURCES/hello.txt").getContent()', options) as BlobObject
    expect(blob.bytes).toEqual(new TextEncoder().encode('hello'))
    expect(
      run(
        '$b:=File("/RESOURCES/hello.txt").getContent()\nreturn [$b.size; OB Instance of($b; 4D.Blob); BLOB to text($b; UTF8 text without length)]',
        options,
      ),
    ).toEqual([5, true, 'hello'])
  })

  it('OB Instance of knows their objects', () => {
    expect(
      run(
        '$f:=File("/RESOURCES/hello.txt")\n$d:=Folder("/RESOURCES")\n' +
          'return [OB Instance of($f; 4D.File); OB Instance of($d; 4D.Folder); ' +
          'OB Instance of($f; 4D.Folder); OB Instance of($d; 4D.Object); OB Instance of(New object; 4D.File)]',
        options,
      ),
    ).toEqual([true, true, false, true, false])
  })

  it('keeps to the project: a path above a root, or no project, is 9430', () => {
    expect(errorOf('4D.File.new("/RESOURCES/../../x.txt")', options).errCode).toBe(9430)
    expect(errorOf('4D.Folder.new("/etc")', options).errCode).toBe(9430)
    expect(errorOf('4D.File.new("/RESOURCES/hello.txt")').errCode).toBe(9430)
  })

  it('Folder.delete: Delete only if empty refuses a folder with contents, Delete with contents empties it', () => {
    expect(
      run(
        '$d:=Folder("/DATA/tree")\n$d.folder("sub").create()\n$d.folder("sub").file("x.txt").setText("x")\n' +
          'Try\n$d.delete(Delete only if empty)\nCatch\n$refused:=Last errors[0].errCode\nEnd try\n' +
          '$kept:=$d.exists\n$d.delete(Delete with contents)\n' +
          'return [Delete only if empty; Delete with contents; $refused; $kept; $d.exists]',
        options,
      ),
    ).toEqual([0, 1, 9431, true, false])
  })
})

describe('File.setText and getText: character set and break mode (FileClass.md)', () => {
  it('writes and reads the line breaks a break mode names, in the set named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'entistore-breaks-'))
    try {
      const local = { runtime: { files: projectFiles(dir) } }
      expect(
        run(
          `$f:=File("/PACKAGE/a.txt")
$f.setText("a"+Char(Carriage return)+"b"+Char(Line feed)+"c"; "UTF-8"; Document with CRLF)
$crlf:=Length($f.getText())
$f.setText("é"+Char(Carriage return)+"x"; "ISO-8859-1"; Document with LF)
return [$crlf; $f.getContent().size; $f.getText("ISO-8859-1"); \\
Length($f.getText("ISO-8859-1"; Document with CR)); $f.getText("ISO-8859-1"; Document unchanged)=$f.getText("ISO-8859-1")]`,
          local,
        ),
      ).toEqual([7, 3, 'é\nx', 3, true])
      expect(errorOf('File("/PACKAGE/a.txt").setText("x"; "UTF-8"; 9)', local).message).toMatch(
        /no break mode/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
