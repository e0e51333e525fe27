// ZIP Read archive and ZIP Create archive (zip.ts) with the examples of zip-read-archive.md,
// zip-create-archive.md and ZipArchiveClass.md, on a project's folders.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import { writeZip } from '../files/zip-format.js'
import { errorOf, run } from './run.fixture.js'

const root = mkdtempSync(join(tmpdir(), 'entistore-4d-zip-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
for (const dir of ['Project', 'Resources/MyDocs/Images/icons', 'Data'])
  mkdirSync(join(root, dir), { recursive: true })
writeFileSync(join(root, 'Resources/MyDocs/text.txt'), 'line one\nline two')
writeFileSync(join(root, 'Resources/MyDocs/Images/a.png'), Uint8Array.of(137, 80, 78, 71))
writeFileSync(join(root, 'Resources/MyDocs/Images/icons/b.svg'), '<svg/>')
writeFileSync(join(root, 'Resources/MyDocs/Images/.hidden'), 'invisible')
const when = new Date(2023, 2, 14, 9, 26, 54).getTime()
const text = (s: string): Uint8Array => new TextEncoder().encode(s)
writeFileSync(
  join(root, 'Resources/Archive.zip'),
  writeZip([
    { name: 'readme.txt', bytes: text('Hello\r\nzip'), modified: when, level: 6 },
    { name: 'data.bin', bytes: Uint8Array.of(1, 2, 3), modified: when, level: 0 },
    { name: 'docs/guide.md', bytes: text('# Guide'), modified: when, level: 6 },
    { name: 'docs/deep/note.txt', bytes: text('deep'), modified: when, level: 6 },
  ]),
)
const options = { runtime: { files: projectFiles(root) } }
const read =
  'var $archive : 4D.ZipArchive\n$archive:=ZIP Read archive(File("/RESOURCES/Archive.zip"))\n'

describe('ZIP Read archive', () => {
  it('gives a 4D.ZipArchive whose root lists the files and folders (the page example)', () => {
    expect(
      run(
        `${read}$files:=$archive.root.files()
$folders:=$archive.root.folders()
return [OB Instance of($archive; 4D.ZipArchive); OB Instance of($archive.root; 4D.ZipFolder); \\
OB Instance of($files[0]; 4D.ZipFile); $files.extract("fullName"); $folders.extract("path"); \\
$archive.root.files(fk recursive).extract("path"); $archive.root.path; $archive.root.parent]`,
        options,
      ),
    ).toEqual([
      true,
      true,
      true,
      ['data.bin', 'readme.txt'],
      ['/docs/'],
      // By name, a folder's contents where the folder is (as Folder.files(fk recursive)).
      ['/data.bin', '/docs/deep/note.txt', '/docs/guide.md', '/readme.txt'],
      '/',
      null,
    ])
  })

  it('reads an entry without extracting it: getText() for a .txt, getContent() else', () => {
    expect(
      run(
        `${read}$files:=$archive.root.files()
$txt:=""
For each ($file; $files)
  If ($file.extension=".txt")
    $txt:=$file.getText()
  Else
    $blob:=$file.getContent()
  End if
End for each
$f:=$archive.root.file("readme.txt")
return [$txt; $blob.size; $blob[2]; $f.getText("UTF-8"; Document with LF); $f.name; $f.size; \\
$f.isFile; $f.exists; $f.isWritable; $f.modificationDate; $f.modificationTime; \\
$archive.root.folder("docs/deep").file("../guide.md").getText(); $f.parent.path; \\
$archive.root.file("none.txt").exists]`,
        options,
      ),
    ).toEqual([
      'Hello\r\nzip',
      3,
      3,
      'Hello\nzip',
      'readme',
      10,
      true,
      true,
      false,
      '2023-03-14',
      34014, // A time in a collection is its seconds.
      '# Guide',
      '/',
      false,
    ])
  })

  it('copyTo() extracts a file, and the root folder with all it holds', () => {
    expect(
      run(
        `${read}$dest:=Folder(fk data folder).folder("MyDocs")
$file:=$archive.root.files()[1].copyTo($dest)
$folder:=$archive.root.copyTo($dest; fk overwrite)
$docs:=$archive.root.folder("docs").copyTo($dest; "docs2")
return [OB Instance of($file; 4D.File); $file.path; $file.getText(); $folder.path; $docs.path]`,
        options,
      ),
    ).toEqual([
      true,
      '/DATA/MyDocs/readme.txt',
      'Hello\r\nzip',
      '/DATA/MyDocs/',
      '/DATA/MyDocs/docs2/',
    ])
    expect(readFileSync(join(root, 'Data/MyDocs/docs/deep/note.txt'), 'utf8')).toBe('deep')
    expect(readFileSync(join(root, 'Data/MyDocs/docs2/guide.md'), 'utf8')).toBe('# Guide')
    expect([...readFileSync(join(root, 'Data/MyDocs/data.bin'))]).toEqual([1, 2, 3])
    // Copied again without fk overwrite: the file exists.
    expect(
      errorOf(
        `${read}$archive.root.file("readme.txt").copyTo(Folder(fk data folder).folder("MyDocs"))`,
        options,
      ),
    ).toMatchObject({ errCode: 9431, message: expect.stringContaining('exists already') })
  })

  it('refuses to copy out an entry whose path leaves the destination (zip slip)', () => {
    writeFileSync(
      join(root, 'Resources/slip.zip'),
      writeZip([{ name: '../../evil.txt', bytes: text('x'), modified: when, level: 0 }]),
    )
    expect(
      errorOf(
        'ZIP Read archive(File("/RESOURCES/slip.zip")).root.copyTo(Folder(fk data folder).folder("out"))',
        options,
      ),
    ).toMatchObject({ errCode: 9431, message: expect.stringContaining('leaves its folder') })
    expect(existsSync(join(root, 'evil.txt'))).toBe(false)
    expect(existsSync(join(root, 'Data/evil.txt'))).toBe(false)
  })

  it('raises FileError for what is not an archive, and checks its parameter', () => {
    expect(errorOf('ZIP Read archive(File("/RESOURCES/MyDocs/text.txt"))', options)).toMatchObject({
      errCode: 9431,
      message: expect.stringContaining('not a ZIP archive'),
    })
    expect(errorOf('ZIP Read archive("/RESOURCES/Archive.zip")', options)).toMatchObject({
      errCode: 9406,
    })
  })
})

describe('ZIP Create archive', () => {
  const back = (path: string): string =>
    `ZIP Read archive(File("${path}")).root.files(fk recursive).extract("path")`

  it('compresses a file, and a folder with or without its enclosing folder (examples 1 and 2)', () => {
    expect(
      run(
        `$file:=Folder(fk resources folder).file("MyDocs/text.txt")
$s1:=ZIP Create archive($file; Folder(fk data folder).file("file.zip"))
$folder:=Folder(fk resources folder).folder("MyDocs/Images")
$s2:=ZIP Create archive($folder; Folder(fk data folder).file("Images.zip"))
$s3:=ZIP Create archive($folder; Folder(fk data folder).file("Bare.zip"); ZIP Without enclosing folder)
$s4:=ZIP Create archive($folder; File("/DATA/Visible.zip"); ZIP Without enclosing folder+ZIP Ignore invisible files)
return [$s1; $s2.success; $s3.success; $s4.success; ${back('/DATA/file.zip')}; \\
${back('/DATA/Images.zip')}; ${back('/DATA/Bare.zip')}; ${back('/DATA/Visible.zip')}; \\
ZIP Read archive(File("/DATA/file.zip")).root.file("text.txt").getText()]`,
        options,
      ),
    ).toEqual([
      { success: true, status: 0, statusText: '' },
      true,
      true,
      true,
      ['/text.txt'],
      ['/Images/.hidden', '/Images/a.png', '/Images/icons/b.svg'],
      ['/.hidden', '/a.png', '/icons/b.svg'],
      ['/a.png', '/icons/b.svg'],
      'line one\nline two',
    ])
  })

  it('compresses a zipStructure: files and folders, destinations, no compression (example 4)', () => {
    expect(
      run(
        `$zip:=New object
$zip.files:=New collection
$zip.files.push(New object("source"; Folder(fk resources folder).file("MyDocs/text.txt")))
$zip.files.push(New object("source"; File("/RESOURCES/MyDocs/Images/a.png"); "destination"; "pictures/logo.png"))
$zip.files.push(Folder(fk resources folder).folder("MyDocs/Images/icons"))
$zip.compression:=ZIP Compression none
$zip.callback:=Formula(1)
$status:=ZIP Create archive($zip; Folder(fk data folder).file("structure.zip"))
$archive:=ZIP Read archive(File("/DATA/structure.zip"))
return [$status.success; $archive.root.files(fk recursive).extract("path"); \\
$archive.root.folder("pictures").file("logo.png").getContent().size]`,
        options,
      ),
    ).toEqual([true, ['/icons/b.svg', '/pictures/logo.png', '/text.txt'], 4])
    // Stored: the text is in the archive as it is.
    expect(readFileSync(join(root, 'Data/structure.zip'), 'latin1')).toContain('line one\nline two')
  })

  it('says what it cannot do: a source missing, encryption, LZMA, a destination out of the archive', () => {
    expect(
      run(
        'return ZIP Create archive(File("/RESOURCES/none.txt"); File("/DATA/none.zip"))',
        options,
      ),
    ).toEqual({ success: false, status: 1, statusText: 'Cannot create ZIP archive' })
    expect(existsSync(join(root, 'Data/none.zip'))).toBe(false)
    const files = '$zip:=New object("files"; New collection(File("/RESOURCES/MyDocs/text.txt")))\n'
    expect(
      run(
        // 3: an encryption other than ZIP Encryption none (whose AES constants are not here).
        `${files}$zip.encryption:=3\nreturn ZIP Create archive($zip; File("/DATA/e.zip"))`,
        options,
      ),
    ).toEqual({ success: false, status: 2, statusText: 'Password is required for encryption' })
    expect(
      errorOf(
        `${files}$zip.password:="secret"\nZIP Create archive($zip; File("/DATA/p.zip"))`,
        options,
      ),
    ).toMatchObject({ errCode: 9414 })
    expect(existsSync(join(root, 'Data/p.zip'))).toBe(false)
    expect(
      errorOf(
        `${files}$zip.compression:=ZIP Compression LZMA\nZIP Create archive($zip; File("/DATA/l.zip"))`,
        options,
      ),
    ).toMatchObject({ errCode: 9409 })
    expect(
      errorOf(
        `${files}$zip.compression:=14\nZIP Create archive($zip; File("/DATA/l.zip"))`,
        options,
      ),
    ).toMatchObject({ errCode: 9415 })
    expect(
      errorOf(
        `$zip:=New object("files"; New collection(New object("source"; File("/RESOURCES/MyDocs/text.txt"); "destination"; "../x.txt")))
ZIP Create archive($zip; File("/DATA/d.zip"))`,
        options,
      ),
    ).toMatchObject({ errCode: 9415 })
  })
})
