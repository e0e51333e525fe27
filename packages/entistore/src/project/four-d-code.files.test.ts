/**
 * `File` and `Folder` in a project's 4D code over REST (docs/API/FileClass.md, FolderClass.md,
 * docs/Concepts/paths.md): the project's filesystems read and written, and nothing outside them —
 * `../` above a root, an absolute host path, a symbolic link that leads out, each a 4D error
 * (9430), never a Node error, never a byte read or written outside.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DOCS, projectCopy, served, type Json } from './four-d-rest.fixture.js'

const DATASTORE = `Class extends DataStoreImplementation

exposed Function read($path : Text) : Text
\treturn File($path).getText()

exposed Function write($path : Text; $text : Text) : Boolean
\tFile($path).setText($text)
\treturn File($path).exists

exposed Function info($path : Text) : Object
\tvar $f : Object:=File($path)
\treturn {name: $f.name; extension: $f.extension; fullName: $f.fullName; path: $f.path; \\
\t\tparent: $f.parent.path; exists: $f.exists; isFile: $f.isFile; size: $f.size}

exposed Function listing() : Object
\tvar $folder : Object:=Folder(fk resources folder)
\tvar $files; $folders : Collection
\t$files:=[]
\t$folders:=[]
\tFor each ($f; $folder.files(fk recursive))
\t\t$files.push($f.path)
\tEnd for each
\tFor each ($f; $folder.folders())
\t\t$folders.push($f.name)
\tEnd for each
\treturn {files: $files; folders: $folders}

exposed Function below($folder : Text; $path : Text) : Text
\treturn Folder($folder).file($path).getText()

exposed Function copied() : Text
\tFolder("/DATA/copies").create()
\tvar $copy : Object:=File("/RESOURCES/hello.txt").copyTo(Folder("/DATA/copies"); "hi.txt")
\tvar $moved : Object:=$copy.moveTo(Folder("/DATA"))
\treturn $moved.path+" "+$moved.getText()+" "+String($copy.exists)

exposed Function platform($path : Text) : Text
\treturn File($path; fk platform path).path

exposed Function viaClass($path : Text) : Text
\tvar $f : 4D.File:=4D.File.new($path)
\treturn OB Instance of($f; 4D.File) ? $f.getText() : "not a file"

exposed Function emptied() : Boolean
\tvar $d : 4D.Folder:=4D.Folder.new("/DATA/tree")
\t$d.folder("sub").file("x.txt").setText("x")
\t$d.delete(Delete with contents)
\treturn $d.exists
`

const errCode = (json: Json): unknown => (json.__ERROR as Json[] | undefined)?.[0]?.errCode

describe('File and Folder in 4D code, confined to the project', () => {
  const outside = mkdtempSync(join(tmpdir(), 'entistore-outside-'))
  afterAll(() => rmSync(outside, { recursive: true, force: true }))
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  const dir = projectCopy(DOCS, {
    'Project/Sources/Classes/DataStore.4dm': DATASTORE,
    'Resources/hello.txt': 'hello',
    'Resources/img/logo.svg': '<svg/>',
  })
  symlinkSync(outside, join(dir, 'Resources/out'))
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'Resources/secret.txt'))
  symlinkSync(join(outside, 'nothing-yet.txt'), join(dir, 'Resources/dangling.txt'))
  symlinkSync(join(dir, 'Resources/img'), join(dir, 'Resources/inside'))

  it('reads and describes a file of a filesystem', async () => {
    const post = await served(dir)
    expect((await post('$catalog/read', ['/RESOURCES/hello.txt'])).json).toEqual({
      result: 'hello',
    })
    expect((await post('$catalog/info', ['/RESOURCES/img/logo.svg'])).json).toEqual({
      result: {
        name: 'logo',
        extension: '.svg',
        fullName: 'logo.svg',
        path: '/RESOURCES/img/logo.svg',
        parent: '/RESOURCES/img/',
        exists: true,
        isFile: true,
        size: 6,
      },
    })
    // A link that stays inside the project is followed.
    expect((await post('$catalog/below', ['/RESOURCES/inside', 'logo.svg'])).json).toEqual({
      result: '<svg/>',
    })
    // 4D.File.new() is the File command.
    expect((await post('$catalog/viaClass', ['/RESOURCES/hello.txt'])).json).toEqual({
      result: 'hello',
    })
  })

  it('writes, lists, copies and moves inside the project', async () => {
    const post = await served(dir)
    expect((await post('$catalog/write', ['/DATA/out/note.txt', 'hi'])).json).toEqual({
      result: true,
    })
    expect(readFileSync(join(dir, 'Data/out/note.txt'), 'utf8')).toBe('hi')
    const listed = await post('$catalog/listing')
    const listing = listed.json.result
    expect(listing.files).toEqual(
      expect.arrayContaining(['/RESOURCES/hello.txt', '/RESOURCES/img/logo.svg']),
    )
    expect(listing.folders).toEqual(expect.arrayContaining(['img']))
    expect((await post('$catalog/copied')).json).toEqual({ result: '/DATA/hi.txt hello False' })
    expect((await post('$catalog/emptied')).json).toEqual({ result: false })
    expect(existsSync(join(dir, 'Data/tree'))).toBe(false)
    expect(readFileSync(join(dir, 'Data/hi.txt'), 'utf8')).toBe('hello')
  })

  it('refuses ../ above a root, a path of no filesystem, a host path outside: 4D error 9430', async () => {
    const post = await served(dir)
    for (const [fn, args] of [
      ['read', ['/RESOURCES/../../../etc/passwd']],
      ['read', ['/etc/passwd']],
      ['read', ['../x.txt']],
      ['viaClass', ['/RESOURCES/../../../etc/passwd']],
      ['below', ['/RESOURCES', '../../Project/Sources/catalog.4DCatalog']],
      ['platform', [join(outside, 'secret.txt')]],
      ['write', ['/DATA/../../escape.txt', 'x']],
    ] as const) {
      const reply = await post(`$catalog/${fn}`, args)
      expect([fn, args, reply.status, errCode(reply.json)]).toEqual([fn, args, 422, 9430])
    }
    // Inside, a platform path is the filesystem's.
    expect((await post('$catalog/platform', [join(dir, 'Resources/hello.txt')])).json).toEqual({
      result: '/PACKAGE/Resources/hello.txt',
    })
  })

  it('refuses what a symbolic link takes outside, to read or to write', async () => {
    const post = await served(dir)
    for (const args of [['/RESOURCES/out/secret.txt'], ['/RESOURCES/secret.txt']]) {
      const reply = await post('$catalog/read', args)
      expect([reply.status, errCode(reply.json)]).toEqual([422, 9430])
      expect(JSON.stringify(reply.json)).not.toContain('secret"')
    }
    for (const path of ['/RESOURCES/out/new.txt', '/RESOURCES/dangling.txt']) {
      const reply = await post('$catalog/write', [path, 'x'])
      expect(reply.status).toBe(422)
      expect([9430, 9431]).toContain(errCode(reply.json))
    }
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
    expect(existsSync(join(outside, 'nothing-yet.txt'))).toBe(false)
  })

  it('answers what the disk refuses as a 4D error naming the path (9431)', async () => {
    const post = await served(dir)
    const reply = await post('$catalog/read', ['/RESOURCES/missing.txt'])
    expect(reply.status).toBe(422)
    expect((reply.json.__ERROR as Json[])[0]).toEqual({
      errCode: 9431,
      componentSignature: 'enti',
      message: 'Cannot read "/RESOURCES/missing.txt": ENOENT',
    })
  })
})
