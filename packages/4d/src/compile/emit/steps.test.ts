import { describe, expect, it } from 'vitest'
import { emitSteps as steps } from './emit.fixture.js'

const lineOf = (source: string, marker: string): string =>
  source.split('\n').find((l) => l.includes(marker)) ?? ''

describe('a unit generated as steps', () => {
  it('stops at its loops and goes into the 4D functions it calls', () => {
    const source = steps('While (True)\n$n:=This.f($n)\nEnd while')
    expect(source).toContain('return function* (rt, th, ag, cx)')
    expect(lineOf(source, 'while')).toContain('yield;')
    expect(lineOf(source, '"f"')).toMatch(/rt\.callAtSteps\(s\d+, th, "f"/)
    expect(lineOf(source, '"f"')).toContain('yield*')
  })

  it('stops inside a Use block, which waits for its lock in steps, and inside Try(…)', () => {
    const source = steps(`Use (Storage)
  For ($i; 1; 10)
    Storage.n:=This.f($i)
  End for
End use
$x:=Try(This.f(1))
$y:=Try($x+1)`)
    expect(source).toContain('rt.useTry(t0 = rt.k[')
    expect(source).toContain(', l0) ?? (yield* rt.useWait(t0, l0))')
    const use = source.slice(source.indexOf('rt.useTry('), source.indexOf('rt.useEnd('))
    expect(use).toContain('rt.tick(); yield;')
    expect(use).toMatch(/rt\.callAtSteps\(s\d+, th, "f"/)
    expect(lineOf(source, '$x') || lineOf(source, 'v1 =')).toContain('(yield* (function* () {')
    // An expression that cannot stop keeps its plain function.
    expect(lineOf(source, 'v2 =')).toContain('(() => {')
  })

  it('gives a formula that calls something its steps beside its plain function', () => {
    const source = steps('$g:=Formula(This.f($1))\n$h:=Formula($1.value*2)')
    const made = source.slice(source.indexOf('rt.formula("This.f($1)"'))
    const [plain, stepsForm] = made.split('function* (rt, th, ag, cx)') as [string, string]
    expect(plain).toContain('rt.callAt(')
    expect(plain).not.toContain('yield')
    expect(stepsForm).toContain('yield* ')
    expect(stepsForm).toContain('rt.callAtSteps(')
    // One that calls nothing cannot run long by itself, but for a member it reads (an entity's
    // getter): its steps are made for hosts only (`, true`), which a loop goes into only over
    // elements that are hosts.
    const reading = lineOf(source, 'rt.formula("$1.value*2"')
    expect(reading).toContain('function*')
    expect(reading).toMatch(/\}, true\)/)
    // One that reads no member, its plain function only.
    const plainOnly = steps('$k:=Formula($1*2)')
    expect(plainOnly.slice(plainOnly.indexOf('rt.formula("$1*2"'))).not.toContain('function*')
  })

  it('goes into a command written as steps, and calls the others at once', () => {
    const source = steps('$t:=Uppercase($1)\n$n:=Length($1)')
    expect(lineOf(source, 'Uppercase') || source).toMatch(/yield\* rt\.ks\[13\]\(rt, /)
    expect(source).toMatch(/rt\.k\[16\]\(rt, /)
  })
})
