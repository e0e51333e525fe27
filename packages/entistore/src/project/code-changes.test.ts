// What --watch says of a reload's 4D code and when it refuses one (code-changes.ts); the CLI's
// lines are tested through serve --project --watch (serve-project-watch.test.ts).
import { compileProject } from '@entistore/4d'
import { describe, expect, it } from 'vitest'
import { codeChange, codeFacts, CodeSyntaxError, ServedCode } from './code-changes.js'

const facts = (files: Record<string, string>) =>
  codeFacts(
    compileProject(
      Object.entries(files).map(([name, text]) => ({
        path: `Sources/${name.endsWith('()') ? 'Methods' : 'Classes'}/${name.replace('()', '')}.4dm`,
        kind: name.endsWith('()') ? ('method' as const) : ('class' as const),
        text,
      })),
      { dataClasses: ['Car'] },
    ),
    '/app/Project',
  )

const CAR = [
  'Class extends Entity',
  'Function get label() : Text',
  '\treturn This.plate',
  'Function event saving($event : Object)',
  '\tThis.label:=""',
  'exposed Function book() : Boolean',
  '\treturn True',
].join('\n')

describe('codeChange', () => {
  it('names each function by class, kind and name: added, changed, removed, a method too', () => {
    const before = facts({ CarEntity: CAR, 'util()': '$0:=1' })
    const after = facts({
      CarEntity: CAR.replace('return True', 'return False').replace(
        'Function event saving',
        'Function event touched',
      ),
      'util()': '$0:=2',
    })
    expect(codeChange(before, after)).toBe(
      '4D code reloaded: added CarEntity.event touched; changed CarEntity.book, method util; removed CarEntity.event saving',
    )
    expect(codeChange(before, facts({ CarEntity: CAR, 'util()': '$0:=1' }))).toBeUndefined()
  })
})

describe('ServedCode', () => {
  it('refuses a syntax error the served code does not have, naming file, line and column', () => {
    const code = new ServedCode()
    code.check(facts({ CarEntity: CAR }))
    expect(code.served()).toBeUndefined()
    const broken = () => code.check(facts({ CarEntity: `${CAR}\n\treturn 1 +* )` }))
    expect(broken).toThrow(CodeSyntaxError)
    expect(broken).toThrow(/^\/app\/Project\/Sources\/Classes\/CarEntity\.4dm:8:\d+: /)
  })

  it('lets a file broken when served stay so while another file changes', () => {
    const code = new ServedCode()
    const bad = 'Class extends DataClass\nFunction f()\n\treturn 1 +* )'
    code.check(facts({ CarEntity: CAR, Car: bad }))
    code.served()
    code.check(facts({ CarEntity: CAR.replace('True', 'False'), Car: bad }))
    expect(code.served()).toBe('4D code reloaded: changed CarEntity.book')
  })
})
