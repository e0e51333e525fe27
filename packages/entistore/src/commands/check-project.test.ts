/**
 * `entistore check --project`: one line a problem and a summary, exit 1 when some code would fail
 * when it runs, `--json` in the shape the issue gives; on a project, and on a bare folder of class
 * files whose structure does not exist yet.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from './cli-serve.fixture.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))

describe('entistore check --project', () => {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-check-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const bare = join(dir, 'classes')
  mkdirSync(bare)
  writeFileSync(
    join(bare, 'Thing.4dm'),
    [
      'Class constructor()',
      'Function f()',
      '\tSET WINDOW TITLE("x")',
      'Function g()',
      '\t$x:=(',
      'Function h() : Integer',
      '\treturn Length:C16("abc")',
      '',
    ].join('\n'),
  )
  writeFileSync(join(bare, 'Clean.4dm'), 'Function ok() : Text\n\treturn "ok"\n')

  it('passes the car-rental example: exit 0 and a summary', async () => {
    // The example holds what Entistore does not serve as 4D does (a keyword index, a trashed
    // table, triggers…): warnings at their lines, as serve says them, which do not fail.
    const run = await runCli(['check', '--project', `${root}examples/car-rental`])
    expect(run.code).toBe(0)
    expect(run.out).toContain(
      `${root}examples/car-rental/Project/Sources/catalog.4DCatalog:65:2: warning: triggers are not run (on save and delete, no code of the structure runs): Rental (insert, update)`,
    )
    expect(run.out.at(-1)).toBe(
      '14 warnings of what is not served as 4D serves it; 12 files of 4D code: no problem',
    )
  })

  it('prints one line a problem, file:line:column, and exits 1 on a folder of class files', async () => {
    const run = await runCli(['check', '--project', bare])
    expect(run.code).toBe(1)
    const thing = join(bare, 'Thing.4dm')
    expect(run.out.slice(0, 2)).toEqual([
      // Files by name: Clean.4dm has no problem.
      expect.stringMatching(
        new RegExp(`^${thing}:3:2: The command "SET WINDOW TITLE" cannot run here`),
      ),
      `${thing}:5:7: Expected expression but end of line found`,
    ])
    expect(run.out.at(-1)).toBe(
      '2 files of 4D code: 1 syntax error, 1 use of what cannot run here (SET WINDOW TITLE), in 1 file: that code fails when it is reached',
    )
  })

  it('prints JSON with --json', async () => {
    const run = await runCli(['check', '--project', bare, '--json'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.out.join('\n'))).toEqual({
      files: [
        { file: join(bare, 'Clean.4dm'), syntaxErrors: [], notRunnable: [] },
        {
          file: join(bare, 'Thing.4dm'),
          syntaxErrors: [
            { line: 5, column: 7, message: 'Expected expression but end of line found' },
          ],
          notRunnable: [
            {
              line: 3,
              column: 2,
              name: 'SET WINDOW TITLE',
              message: 'The command "SET WINDOW TITLE" cannot run here (it needs a user interface)',
            },
          ],
        },
      ],
    })
  })

  it('writes a GitHub annotation a problem with --format github, at its file, line and column', async () => {
    const run = await runCli(['check', '--project', bare, '--format', 'github'])
    expect(run.code).toBe(1)
    const thing = relative(process.cwd(), join(bare, 'Thing.4dm'))
    expect(run.out).toEqual([
      `::error file=${thing},line=3,col=2,title=entistore check (not-runnable)::The command "SET WINDOW TITLE" cannot run here (it needs a user interface)`,
      `::error file=${thing},line=5,col=7,title=entistore check (syntax)::Expected expression but end of line found`,
    ])
    // A start-up's warnings are warnings, at their lines of the structure file.
    const project = await runCli([
      'check',
      '--project',
      `${root}examples/car-rental`,
      '--format',
      'github',
    ])
    expect(project.code).toBe(0)
    expect(project.out).toContain(
      `::warning file=${relative(process.cwd(), `${root}examples/car-rental/Project/Sources/catalog.4DCatalog`)},line=65,col=2,title=entistore check (startup)::triggers are not run (on save and delete, no code of the structure runs): Rental (insert, update)`,
    )
  })

  it('writes a SARIF 2.1.0 log with --format sarif, for code scanning', async () => {
    const run = await runCli(['check', '--project', bare, '--format', 'sarif'])
    expect(run.code).toBe(1)
    const log = JSON.parse(run.out.join('\n'))
    expect(log.version).toBe('2.1.0')
    const [only] = log.runs
    expect(only.tool.driver.name).toBe('entistore check')
    expect(only.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      'not-runnable',
      'syntax',
    ])
    expect(only.results[1]).toEqual({
      ruleId: 'syntax',
      ruleIndex: 1,
      level: 'error',
      message: { text: 'Expected expression but end of line found' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: {
              uri: relative(process.cwd(), join(bare, 'Thing.4dm')).split(sep).join('/'),
            },
            region: { startLine: 5, startColumn: 7 },
          },
        },
      ],
    })
    const both = await runCli(['check', '--project', bare, '--json', '--format', 'sarif'])
    expect(both.code).toBe(2)
    expect(both.err[0]).toBe('entistore: --json and --format sarif cannot go together')
    const unknown = await runCli(['check', '--project', bare, '--format', 'xml'])
    expect(unknown.err[0]).toBe(
      'entistore: --format must be one of text, json, github, sarif, got "xml"',
    )
  })

  it('refuses a folder that does not exist (1) and a missing --project (2)', async () => {
    const missing = await runCli(['check', '--project', join(dir, 'nope')])
    expect(missing.code).toBe(1)
    expect(missing.err).toEqual([`entistore: ${join(dir, 'nope')}: the folder does not exist`])
    expect((await runCli(['check'])).code).toBe(2)
  })

  it('names the code files it does not check: forms, database methods, triggers, components', async () => {
    const project = join(dir, 'with-forms')
    cpSync(`${root}packages/entistore/src/project/test-projects/docs-company`, project, {
      recursive: true,
    })
    const sources = join(project, 'Project/Sources')
    mkdirSync(join(sources, 'Forms/Login'), { recursive: true })
    writeFileSync(join(sources, 'Forms/Login/method.4dm'), 'ALERT("hi")\n')
    mkdirSync(join(sources, 'DatabaseMethods'))
    writeFileSync(join(sources, 'DatabaseMethods/onStartup.4dm'), '\n')
    writeFileSync(
      join(sources, 'dependencies.json'),
      JSON.stringify({ dependencies: { '4D NetKit': { github: '4d/4D-NetKit' } } }),
    )
    mkdirSync(join(project, 'Components/Tools.4dbase/Project/Sources/Classes'), { recursive: true })
    writeFileSync(
      join(project, 'Components/Tools.4dbase/Project/Sources/Classes/Tool.4dm'),
      'Function f() : Integer\n\treturn 1\n',
    )
    mkdirSync(join(project, 'Components/Closed.4dbase/Contents'), { recursive: true })
    writeFileSync(join(project, 'Components/Closed.4dbase/Contents/Closed.4DZ'), 'PK')
    const run = await runCli(['check', '--project', project])
    expect(run.code).toBe(0)
    const missing =
      'components not found (their classes cannot run; serve --components names a folder of downloaded ones)'
    expect(run.out).toEqual(
      expect.arrayContaining([
        `${project}/Project/Sources/dependencies.json:1:18: warning: ${missing}: 4D NetKit`,
        `${project}: warning: compiled components (.4DZ), whose code cannot run here: Closed`,
        `${project}/Components/Tools.4dbase: not checked: 1 class files of the component Tools (a component's code is its authors' to check; it runs as 4D runs it)`,
        `${project}/Project/Sources/Forms: not checked: 1 form and object methods (no forms here)`,
        `${project}/Project/Sources/DatabaseMethods: not checked: 1 database methods (4D's start-up and connection events are not run here)`,
      ]),
    )
  })
})
