/**
 * The host of `LAUNCH EXTERNAL PROCESS` (exec-host.ts): real programs, run only when
 * `--allow-exec` names them, in the project's folder, never through a shell.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { execHost, programRefusal } from './exec-host.js'

const root = mkdtempSync(join(tmpdir(), 'entistore-exec-'))
mkdirSync(join(root, 'Resources'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const text = (b: Uint8Array): string => new TextDecoder().decode(b)
const ask = (program: string, args: string[] = [], more: object = {}) => ({
  program,
  args,
  env: {},
  input: new Uint8Array(0),
  blocking: true,
  ...more,
})

describe('the host of external programs', () => {
  it('allows nothing by default, a bare name on the PATH, or a path exactly', () => {
    expect(execHost([], root)).toBeUndefined()
    expect(programRefusal('git', [])).toMatch(/no program may run/)
    expect(programRefusal('cat', ['cat'])).toBeUndefined()
    expect(programRefusal('/bin/cat', ['cat'])).toMatch(/not one of --allow-exec/)
    expect(programRefusal('/bin/cat', ['/bin/cat'])).toBeUndefined()
    expect(programRefusal('./cat', ['cat'])).toMatch(/not one of/)
  })

  it("runs a program with its input, in the project's folder, with the variables given", () => {
    const host = execHost(['cat', 'pwd', 'printenv'], root)!
    const cat = host.run(ask('cat', [], { input: new TextEncoder().encode('été') }))
    expect('pid' in cat && [text(cat.stdout), cat.status]).toEqual(['été', 0])
    const pwd = host.run(ask('pwd', [], { cwd: 'Resources' }))
    expect('pid' in pwd && text(pwd.stdout).trim()).toBe(join(root, 'Resources'))
    const env = host.run(ask('printenv', ['GREETING'], { env: { GREETING: 'hi' } }))
    expect('pid' in env && text(env.stdout)).toBe('hi\n')
  })

  it('refuses a folder outside the project and a program not allowed; a program not found fails', () => {
    const host = execHost(['pwd', 'no-such-program-here'], root)!
    expect(host.run(ask('pwd', [], { cwd: '/' }))).toEqual({
      refused: 'its folder / is outside the project',
    })
    expect(host.run(ask('rm', ['-rf', root]))).toMatchObject({ refused: expect.any(String) })
    expect(host.run(ask('no-such-program-here'))).toEqual({
      failed: 'no-such-program-here was not found',
    })
  })

  it('starts a program alone when the code asks not to wait, answering its pid', () => {
    const host = execHost(['true'], root)!
    const r = host.run(ask('true', [], { blocking: false }))
    expect('pid' in r && r.pid > 0 && r.status).toBe(null)
  })
})
