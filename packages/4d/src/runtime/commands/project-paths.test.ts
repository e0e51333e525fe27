// Get 4D folder (get-4d-folder.md), Structure file (structure-file.md), Temporary folder
// (temporary-folder.md) and the Folder separator constant on a project's folders
// (project-paths.ts): paths of the project's filesystems that File and Folder take back.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectFiles } from '../../project/project-files.js'
import { errorOf, run } from './run.fixture.js'

const root = mkdtempSync(join(tmpdir(), 'entistore-4d-paths-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
mkdirSync(join(root, 'Project'))
writeFileSync(join(root, 'Project/demo.4DProject'), '{}')
const options = { runtime: { files: projectFiles(root) } }

describe('Get 4D folder', () => {
  it("get-4d-folder.md's constants, and the project's folders they name, each ending with the separator", () => {
    expect(
      run(
        `return [Active 4D Folder; Licenses folder; 4D Client database folder; Database folder; Database folder Unix syntax; Current resources folder; Logs folder; HTML Root folder; Data folder; MobileApps folder]`,
      ),
    ).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(
      run(
        `return [Get 4D folder(Database folder); Get 4D folder(Database folder Unix syntax); Get 4D folder(Data folder); Get 4D folder(HTML Root folder); Get 4D folder(MobileApps folder; *); OK]`,
        options,
      ),
    ).toEqual(['/PACKAGE/', '/PACKAGE/', '/DATA/', '/PACKAGE/WebFolder/', '/DATA/MobileApps/', 1])
  })

  it('get-4d-folder.md: the Current resources folder and the Logs folder are made when they do not exist', () => {
    expect(existsSync(join(root, 'Resources'))).toBe(false)
    expect(
      run(`return [Get 4D folder(Current resources folder); Get 4D folder(Logs folder)]`, options),
    ).toEqual(['/RESOURCES/', '/LOGS/'])
    expect([existsSync(join(root, 'Resources')), existsSync(join(root, 'Data/Logs'))]).toEqual([
      true,
      true,
    ])
  })

  it('a path File and Folder take back, POSIX or with fk platform path (its example 1 builds one with +)', () => {
    writeFileSync(join(root, 'Resources/hello.txt'), 'hello')
    expect(
      run(
        `$path:=Get 4D folder(Current resources folder)+"hello.txt"
return [File($path).getText(); File($path; fk platform path).getText(); Folder(Get 4D folder(Data folder); fk platform path).path]`,
        options,
      ),
    ).toEqual(['hello', 'hello', '/DATA/'])
  })

  it('folder.md: fk web root folder (8) and fk mobileApps folder (10) are the same folders', () => {
    expect(
      run(
        `return [fk web root folder; fk mobileApps folder; Folder(fk web root folder).path; Folder(fk mobileApps folder).path]`,
        options,
      ),
    ).toEqual([8, 10, '/PACKAGE/WebFolder/', '/DATA/MobileApps/'])
  })

  it('a folder that is not the project\'s is 9430, as File\'s; a number of no folder gives "" and OK 0', () => {
    expect(errorOf(`$p:=Get 4D folder`, options).errCode).toBe(9430)
    expect(errorOf(`$p:=Get 4D folder(Licenses folder)`, options)).toEqual({
      errCode: 9430,
      message: 'The path "Licenses folder" is outside the project\'s folders',
    })
    expect(run(`$p:=Get 4D folder(42)\nreturn [$p; OK]`, options)).toEqual(['', 0])
  })
})

describe('Structure file', () => {
  it("structure-file.md: the project's .4DProject file, with or without *; its path is a File's", () => {
    expect(
      run(
        `return [Structure file; Structure file(*); Structure file=Structure file(*); File(Structure file; fk platform path).exists]`,
        options,
      ),
    ).toEqual(['/PROJECT/demo.4DProject', '/PROJECT/demo.4DProject', true, true])
  })

  it('a Project folder without a .4DProject file is 9431', () => {
    const bare = mkdtempSync(join(tmpdir(), 'entistore-4d-bare-'))
    try {
      mkdirSync(join(bare, 'Project'))
      expect(errorOf(`$p:=Structure file`, { runtime: { files: projectFiles(bare) } })).toEqual({
        errCode: 9431,
        message: 'Cannot find the structure file in "/PROJECT/": it holds no .4DProject file',
      })
    } finally {
      rmSync(bare, { recursive: true, force: true })
    }
  })
})

describe('Temporary folder, Folder separator', () => {
  it('a "temporary files" folder beside the data (settings/database.md\'s default), there to write in', () => {
    expect(
      run(
        `$tmp:=Temporary folder
Folder($tmp; fk platform path).file("run/job.txt").setText("x")
return [$tmp; Folder($tmp; fk platform path).exists; File($tmp+"run"+Folder separator+"job.txt").getText()]`,
        options,
      ),
    ).toEqual(['/DATA/temporary files/', true, 'x'])
    expect(existsSync(join(root, 'Data/temporary files/run/job.txt'))).toBe(true)
  })

  it('Folder separator is "/": the paths given are POSIX (also tokenized, K24:12)', () => {
    expect(run(`return [Folder separator; Folder separator:K24:12]`)).toEqual(['/', '/'])
  })

  it('without a project, each is 9430, as File is', () => {
    for (const code of [
      `$p:=Temporary folder`,
      `$p:=Structure file`,
      `$p:=Get 4D folder(Database folder)`,
    ])
      expect(errorOf(code).errCode).toBe(9430)
  })
})

describe('File and Folder with fk platform path', () => {
  it('still take a host path inside the project, and refuse one outside', () => {
    expect(
      run(
        `return File("${join(root, 'Resources/hello.txt')}"; fk platform path).getText()`,
        options,
      ),
    ).toBe('hello')
    expect(errorOf(`$f:=File("/etc/passwd"; fk platform path)`, options).errCode).toBe(9430)
  })
})
