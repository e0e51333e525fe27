import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Runtime } from '../runtime/index.js'
import { checkReport } from './check-report.js'
import { compileProject } from './compile-project.js'
import { readProjectComponents } from './component-sources.js'
import { readProjectSources } from './sources.js'

const root = mkdtempSync(join(tmpdir(), 'entistore-components-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const write = (path: string, text: string): void => {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}
const settings = (ns: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><preferences stamp="1"><com.4d><general component_classStore_name="${ns}"/></com.4d></preferences>`

// A component in the project's Components folder: its own cs, its own process variables.
write('App/Components/Kit.4dbase/Project/Sources/settings.4DSettings', settings('Kit'))
write(
  'App/Components/Kit.4dbase/Project/Sources/Classes/Greeter.4dm',
  [
    'Class constructor($name : Text)',
    '\tThis.name:=$name',
    'Function hello() : Text',
    '\tcounter:=Num(counter)+1',
    '\treturn cs.Polite.new().wrap("hello "+This.name)+" #"+String(counter)',
  ].join('\n'),
)
write(
  'App/Components/Kit.4dbase/Project/Sources/Classes/Polite.4dm',
  'Function wrap($t : Text) : Text\n\treturn "<"+$t+">"\n',
)
write(
  'App/Components/Kit.4dbase/Project/Sources/Methods/Kit shout.4dm',
  '//%attributes = {"invisible":true,"shared":true}\n#DECLARE($t : Text) : Text\nreturn Uppercase($t)+helper\n',
)
write(
  'App/Components/Kit.4dbase/Project/Sources/Methods/helper.4dm',
  '//%attributes = {"invisible":true}\n#DECLARE() : Text\nreturn "!"\n',
)
// A compiled one: named, cannot run.
write('App/Components/Closed.4dbase/Contents/Closed.4DZ', 'PK')
// The host.
write(
  'App/Project/Sources/Classes/Use.4dm',
  [
    'Function greet() : Text',
    '\tcounter:=100',
    '\t$g:=cs.Kit.Greeter.new("ann")',
    '\treturn $g.hello()+" "+$g.hello()+" "+Kit shout("x")+" "+String(counter)',
    'Function missing() : Text',
    '\treturn cs.Kit.Nothing.new()',
  ].join('\n'),
)
write(
  'App/Project/Sources/Classes/Child.4dm',
  'Class extends cs.Kit.Polite\nFunction twice($t : Text) : Text\n\treturn This.wrap(This.wrap($t))\n',
)
write(
  'App/Project/Sources/dependencies.json',
  JSON.stringify({
    dependencies: {
      Side: {},
      Net: { github: 'someone/Net-Kit' },
      Gone: { github: 'someone/Gone' },
    },
  }),
)
// Next to the package folder, and in a folder of downloaded components.
write('Side/Project/Sources/settings.4DSettings', settings('Side'))
write('Side/Project/Sources/Classes/S.4dm', 'Function f() : Text\n\treturn "side"\n')
write('cache/Net-Kit/Project/Sources/settings.4DSettings', settings('NetKit'))
write('cache/Net-Kit/Project/Sources/Classes/Client.4dm', 'Function f() : Text\n\treturn "net"\n')

describe('components', () => {
  it('finds them as 4D does: Components folder, next to the package, a folder of downloads', async () => {
    const { found, missing } = await readProjectComponents(join(root, 'App/Project'), {
      folders: [join(root, 'cache')],
    })
    expect(found.map((c) => [c.name, c.namespace, c.compiled, c.shared])).toEqual([
      ['Closed', null, true, []],
      ['Kit', 'Kit', false, ['Kit shout']],
      ['Side', 'Side', false, []],
      ['Net', 'NetKit', false, []],
    ])
    expect(missing).toEqual([{ name: 'Gone', looked: expect.any(Array) }])
    // Without the folder of downloads, a GitHub dependency is not found.
    const alone = await readProjectComponents(join(root, 'App/Project'))
    expect(alone.missing.map((m) => m.name)).toEqual(['Net', 'Gone'])
  })

  it('runs a component class with its own cs and variables; shared methods are the host’s', async () => {
    const { files } = await readProjectSources(join(root, 'App'))
    const { found } = await readProjectComponents(join(root, 'App/Project'))
    const project = compileProject(files, { components: found })
    const report = checkReport(project.files)
    const use = report.files.find((f) => f.file.endsWith('Use.4dm'))!
    // `cs.Kit` is known: only the missing class of it is a problem when reached.
    expect(use.notRunnable).toEqual([])
    expect(use.syntaxErrors).toEqual([])
    const { classes, methods } = project.instantiate()
    const rt = new Runtime({ classes, methods })
    const greet = classes.get('Use')!.findFunction('greet')!
    // The component's `counter` is its own: the host's stays 100.
    expect(rt.invoke(greet, {}, [])).toBe('<hello ann> #1 <hello ann> #2 X! 100')
    const child = classes.get('Child')!
    expect(rt.invoke(child.findFunction('twice')!, child.construct(rt, []), ['a'])).toBe('<<a>>')
    expect(() => rt.invoke(classes.get('Use')!.findFunction('missing')!, {}, [])).toThrow()
    // A component's private method is not the host's.
    expect(methods.get('helper')).toBeUndefined()
    expect(project.components.map((c) => [c.name, c.classes])).toEqual([
      ['Closed', []],
      ['Kit', ['Greeter', 'Polite']],
      ['Side', ['S']],
    ])
  })

  it('leaves cs.X of a component not loaded a problem, as before', async () => {
    const { files } = await readProjectSources(join(root, 'App'))
    const report = checkReport(compileProject(files).files)
    const use = report.files.find((f) => f.file.endsWith('Use.4dm'))!
    expect(use.notRunnable.map((p) => p.name)).toEqual(['component Kit', 'component Kit'])
  })
})
