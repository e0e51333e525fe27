import { createDatastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { Runtime } from '../runtime/index.js'
import { checkReport, checkSummary, problemLines, wouldFail } from './check-report.js'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'
import type { ProjectSource } from './sources.js'

const UTILS = `Class constructor()

Function ok($a : Integer) : Integer
\treturn $a*2

Function broken()
\t$x:=(1+

Function window()
\tSET WINDOW TITLE("x")
`
const sources: ProjectSource[] = [
  { path: 'Sources/Classes/Utils.4dm', kind: 'class', text: UTILS },
  { path: 'Sources/Classes/Clean.4dm', kind: 'class', text: 'Function f() : Text\n\treturn "f"\n' },
  {
    path: 'Sources/Methods/twice.4dm',
    kind: 'method',
    text: '#DECLARE($n : Integer) : Integer\nreturn $n*2\n',
  },
]

describe('compileProject', () => {
  const project = compileProject(sources)

  it('lists each file with its syntax errors and what cannot run here, by name', () => {
    const report = checkReport(project.files)
    expect(report.files.map((f) => f.file)).toEqual([
      'Sources/Classes/Utils.4dm',
      'Sources/Classes/Clean.4dm',
      'Sources/Methods/twice.4dm',
    ])
    const utils = report.files[0]!
    expect(utils.syntaxErrors.map((e) => e.line)).toEqual([7])
    expect(utils.notRunnable).toEqual([
      {
        line: 10,
        column: 2,
        name: 'SET WINDOW TITLE',
        message: 'The command "SET WINDOW TITLE" cannot run here (it needs a user interface)',
      },
    ])
    expect(report.files[1]).toEqual({
      file: 'Sources/Classes/Clean.4dm',
      syntaxErrors: [],
      notRunnable: [],
    })
    expect(wouldFail(report)).toBe(true)
    expect(wouldFail(checkReport(project.files.slice(1)))).toBe(false)
  })

  it('prints one line a problem, file:line:column, and a summary', () => {
    const lines = problemLines(project.files, (f) => `P/${f}`)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^P\/Sources\/Classes\/Utils\.4dm:7:\d+: /)
    // The command table says why (another helper's): the line starts the same.
    expect(lines[1]).toMatch(
      /^P\/Sources\/Classes\/Utils\.4dm:10:2: The command "SET WINDOW TITLE" cannot run here/,
    )
    expect(checkSummary(checkReport(project.files))).toBe(
      '3 files of 4D code: 1 syntax error, 1 use of what cannot run here (SET WINDOW TITLE), in 1 file: that code fails when it is reached',
    )
    expect(checkSummary(checkReport([]))).toBe('0 files of 4D code: no problem')
  })

  it('reports embedded SQL as what cannot run, not a syntax error, and raises that when reached', () => {
    const sql = compileProject([
      {
        path: 'Sources/Classes/Sql.4dm',
        kind: 'class',
        text: 'Function names()\n\tBegin SQL\n\t\tSELECT name FROM people INTO :$n\n\tEnd SQL\n\treturn $n\n',
      },
    ])
    expect(checkReport(sql.files).files[0]).toEqual({
      file: 'Sources/Classes/Sql.4dm',
      syntaxErrors: [],
      notRunnable: [
        { line: 2, column: 2, name: 'Begin SQL', message: 'Begin SQL cannot run here' },
      ],
    })
    const { classes } = sql.instantiate()
    const rt = new Runtime({ classes })
    expect(() => rt.invoke(classes.get('Sql')!.findFunction('names')!, {}, [])).toThrow(/Begin SQL/)
  })

  it('reports cs.X the project lacks and 4D.X not here as not runnable, by name, line and column', () => {
    const text = [
      'Class extends cs.Missing',
      'Function f()',
      '\t$a:=cs.Utils.new()',
      '\t$b:=cs.Nope.new()',
      '\t$c:=cs.CarEntity',
      '\t$d:=4D.WebServer',
      '\t$e:=4D.File.new("/DATA/x.txt")+4D.Folder.new("/DATA")+4D.Function+4D.Object',
      '\t$f:=[4D.Entity; 4D.EntitySelection; 4D.DataClass; 4D.DataStoreImplementation; 4D.DataStore]',
      '',
    ].join('\n')
    const files = [...sources, { path: 'Sources/Classes/Uses.4dm', kind: 'class' as const, text }]
    const uses = (dataClasses?: string[]) =>
      checkReport(compileProject(files, dataClasses ? { dataClasses } : {}).files).files.find((f) =>
        f.file.endsWith('Uses.4dm'),
      )!
    expect(uses(['Car']).notRunnable).toEqual([
      {
        line: 1,
        column: 15,
        name: 'cs.Missing',
        message: 'The class "cs.Missing" is not a class of the project',
      },
      {
        line: 4,
        column: 6,
        name: 'cs.Nope',
        message: 'The class "cs.Nope" is not a class of the project',
      },
      {
        line: 6,
        column: 6,
        name: '4D.WebServer',
        message: 'The class "4D.WebServer" cannot run here',
      },
    ])
    // Without the structure, cs.CarEntity is not known either.
    expect(uses().notRunnable.map((p) => p.name)).toContain('cs.CarEntity')
  })

  it('names a component whose class is read (cs.AIKit.OpenAI), and raises that when reached', () => {
    const text = [
      'Class extends DataStoreImplementation',
      'Function f() : Object',
      '\tTry',
      '\t\tvar $ai : Object:=cs.AIKit.OpenAI.new()',
      '\tCatch',
      '\t\treturn Last errors[0]',
      '\tEnd try',
      'Function g() : Object',
      '\treturn {none: cs.Nope=Null}',
      'Function h()',
      '\tcs.Nope.new()',
      '',
    ].join('\n')
    const project = compileProject([{ path: 'Sources/Classes/DataStore.4dm', kind: 'class', text }])
    expect(problemLines(project.files)).toEqual([
      'Sources/Classes/DataStore.4dm:4:21: The component "AIKit" is not here: cs.AIKit.OpenAI cannot run',
      'Sources/Classes/DataStore.4dm:9:16: The class "cs.Nope" is not a class of the project',
      'Sources/Classes/DataStore.4dm:11:2: The class "cs.Nope" is not a class of the project',
    ])
    const ds = createDatastore(
      { dataClasses: [] },
      { functions: projectFunctions(project, { dataClasses: new Set() }) },
    )
    expect(ds.call('f')).toEqual({
      errCode: 9424,
      componentSignature: 'enti',
      message: 'The component "AIKit" is not here: cs.AIKit.OpenAI cannot run',
    })
    // cs.Nope alone reads Undefined, as in 4D; a member of it raises, naming the class.
    expect(ds.call('g')).toEqual({ none: true })
    expect(() => ds.call('h')).toThrow('The class "cs.Nope" is not a class of the project')
  })

  it('calls a project method whose name has spaces, and names an unknown spaced name', () => {
    const text = [
      'Function total($net : Real) : Real',
      '\treturn $net+Tax for($net)',
      'Function rate() : Real',
      '\treturn tax FOR',
      'Function export()',
      '\treturn wk pdf',
      '',
    ].join('\n')
    const spaced = compileProject([
      { path: 'Sources/Classes/Bill.4dm', kind: 'class', text },
      {
        path: 'Sources/Methods/Tax for.4dm',
        kind: 'method',
        text: '#DECLARE($net : Real) : Real\nreturn Count parameters=0 ? 0.2 : $net*0.2\n',
      },
    ])
    expect(checkReport(spaced.files).files[0]).toEqual({
      file: 'Sources/Classes/Bill.4dm',
      syntaxErrors: [],
      notRunnable: [
        { line: 6, column: 9, name: 'wk pdf', message: 'The constant "wk pdf" is not implemented' },
      ],
    })
    const { classes, methods } = spaced.instantiate()
    const rt = new Runtime({ classes, methods })
    const bill = classes.get('Bill')!
    expect(rt.invoke(bill.findFunction('total')!, {}, [100])).toBe(120)
    expect(rt.invoke(bill.findFunction('rate')!, {}, [])).toBe(0.2)
    expect(() => rt.invoke(bill.findFunction('export')!, {}, [])).toThrow(/wk pdf/)
  })

  it("runs a class's clean functions, and fails its others only when they are reached", () => {
    const { classes, methods } = project.instantiate()
    const rt = new Runtime({ classes, methods })
    const utils = classes.get('Utils')!
    expect(rt.invoke(utils.findFunction('ok')!, {}, [21])).toBe(42)
    expect(() => rt.invoke(utils.findFunction('window')!, {}, [])).toThrow(/SET WINDOW TITLE/)
    expect(() => rt.invoke(utils.findFunction('broken')!, {}, [])).toThrow()
    expect(rt.method('twice', [4])).toBe(8)
  })
})
