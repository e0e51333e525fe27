/**
 * `Get call chain` (get-call-chain.md) over a project's code: each method and class function that
 * runs is a step, innermost first, at the line it is at, of the project or of the component whose
 * code it is.
 */
import { describe, expect, it } from 'vitest'
import { Runtime } from '../runtime/index.js'
import { compileProject } from './compile-project.js'
import type { ProjectSource } from './sources.js'

const sources: ProjectSource[] = [
  {
    path: 'Sources/Methods/outer.4dm',
    kind: 'method',
    text: '#DECLARE() : Collection\nvar $c : Collection\n$c:=cs.Car.new().drive()\nreturn $c\n',
  },
  {
    path: 'Sources/Classes/Car.4dm',
    kind: 'class',
    text: 'Function drive() : Collection\n\t// the chain, from here\n\treturn inner\n',
  },
  { path: 'Sources/Methods/inner.4dm', kind: 'method', text: '\n\nreturn Get call chain\n' },
]

describe('Get call chain', () => {
  it('lists what runs, innermost first, each at its line', () => {
    const project = compileProject(sources, { name: 'Garage' })
    const { classes, methods } = project.instantiate()
    const rt = new Runtime({ classes, methods })
    const chain = rt.run(() => rt.method('outer', [])) as { items: unknown[] }
    expect(JSON.parse(JSON.stringify(chain.items))).toEqual([
      { type: 'projectMethod', name: 'inner', line: 3, database: 'Garage' },
      { type: 'classFunction', name: 'Car.drive', line: 3, database: 'Garage' },
      { type: 'projectMethod', name: 'outer', line: 3, database: 'Garage' },
    ])
    // Once the calls end, the chain is empty again.
    expect(rt.calls).toEqual([])
  })
})
