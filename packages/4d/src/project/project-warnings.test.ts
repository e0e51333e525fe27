/**
 * What 4D's compiler would warn of in public projects' code, which `entistore check` says as
 * warnings (the code runs as written): `ds.` names that name nothing, a `$` forgotten before a
 * local's name, and QodlyScript in a 4D file. Each case is written as code found in public
 * Qodly applications writes it.
 */
import { describe, expect, it } from 'vitest'
// The runtime assembled, as the package's entry does before a project is compiled.
import '../runtime/index.js'
import { compileProject } from './compile-project.js'
import type { ProjectSource } from './sources.js'

const warningsOf = (sources: ProjectSource[], dataClasses?: string[]): string[] =>
  compileProject(sources, dataClasses === undefined ? {} : { dataClasses })
    .files.flatMap((f) => f.problems)
    .filter((p) => p.severity === 'warning')
    .map((p) => `${p.line}:${p.column} ${p.message}`)

const cls = (name: string, text: string): ProjectSource => ({
  path: `Sources/Classes/${name}.4dm`,
  kind: 'class',
  text,
})

describe('project warnings', () => {
  it('ds.X that is no dataclass, DataStore function or member of the datastore', () => {
    const sources = [
      cls(
        'DataStore',
        'Class extends DataStoreImplementation\n\nexposed Function noData() : Boolean\n\treturn True\n',
      ),
      cls(
        'LeaveEntity',
        [
          'Class extends Entity',
          '',
          'Function f()',
          '\t$a:=ds.Leave.all()',
          '\t$b:=ds.Leaves.all()',
          '\t$c:=ds.noData()',
          '\t$d:=ds.getInfo()',
          '',
        ].join('\n'),
      ),
    ]
    expect(warningsOf(sources, ['Leave'])).toEqual([
      '5:6 ds.Leaves is no dataclass, function or member of the datastore: the code fails when it reaches it',
    ])
    // A folder of class files without a structure: `ds.` is not judged.
    expect(warningsOf(sources)).toEqual([])
  })

  it('a process variable beside a local of its name, once a function', () => {
    const sources = [
      cls(
        'Comment',
        [
          'Class extends DataClass',
          '',
          'Function add($text : Text) : Object',
          '\tvar $saved : Object',
          '\t$saved:=This.new().save()',
          '\tIf (saved.success)',
          '\t\treturn saved',
          '\tEnd if',
          '',
          'Function other()',
          '\t$x:=saved',
          '',
        ].join('\n'),
      ),
      {
        path: 'Sources/Methods/declared.4dm',
        kind: 'method' as const,
        text: 'var total : Real\n$total:=1\ntotal:=2\n',
      },
    ]
    expect(warningsOf(sources, ['Comment'])).toEqual([
      '6:6 "saved" is a process variable here, beside the local "$saved": a "$" forgotten? (its value stays from call to call)',
    ])
  })

  it('QodlyScript in a 4D file, beside the syntax error', () => {
    const sources = [
      cls(
        'ClientEdit',
        [
          'exposed function edit(client : cs.Client)',
          '\tclient.name:="x"',
          '',
          'Function g($a : Integer)',
          '\tIf ($a !=Null)',
          '\tEnd if',
          '',
        ].join('\n'),
      ),
    ]
    expect(warningsOf(sources, [])).toEqual([
      '1:1 QodlyScript in a 4D file: a parameter without "$" is QodlyScript: 4D writes "$name : Type"',
      '5:2 QodlyScript in a 4D file: "!=" is QodlyScript: 4D writes "#"',
    ])
  })
})
